import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../server/src/db/schema.ts';
import { fold } from '../../../server/src/search/fold.ts';

/** Words of a cooperative's papers, compounds included, to make about two pages of German text. */
const WORDS = [
  'Jahresabschluss',
  'Vertreterversammlung',
  'Abschreibungen',
  'Genossenschaft',
  'Mitgliederförderung',
  'Aufsichtsrat',
  'Vorstand',
  'Prüfungsverband',
  'Bilanzsumme',
  'Rücklagen',
  'Geschäftsanteil',
  'Dividende',
  'Satzungsänderung',
  'Wahlordnung',
  'Haushaltsplan',
  'Investitionen',
  'Photovoltaik',
  'Mietvertrag',
  'Kassenprüfung',
  'Sitzungsprotokoll',
  'Beschlussvorlage',
  'Tagesordnung',
  'Personalkosten',
  'Umsatz',
  'Liquidität',
  'Instandhaltung',
  'Energiekosten',
  'Mitgliederzahl',
  'Lagebericht',
  'Risikobericht',
];
const FILLER = [
  'der',
  'die',
  'das',
  'und',
  'im',
  'für',
  'mit',
  'wurde',
  'werden',
  'nach',
  'vor',
  'über',
  'des',
  'einer',
  'gegenüber',
  'Vorjahr',
  'deutlich',
  'leicht',
  'gestiegen',
  'gesunken',
  'beschlossen',
  'vorgelegt',
  'erläutert',
  'Euro',
  'Prozent',
  'Quartal',
  'März',
  'Juni',
  'September',
  'Dezember',
];

/** Deterministic text of about `chars` characters: sentences of filler around the cooperative's words. */
export function germanText(next: () => number, chars: number): string {
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  const sentences: string[] = [];
  let length = 0;
  while (length < chars) {
    const words = [pick(WORDS)];
    const count = 6 + Math.floor(next() * 10);
    for (let i = 0; i < count; i += 1) words.push(next() < 0.2 ? pick(WORDS) : pick(FILLER));
    words.push(String(Math.floor(next() * 5000)));
    const sentence = `${words.join(' ')}.`;
    sentences.push(sentence[0]!.toUpperCase() + sentence.slice(1));
    length += sentence.length + 1;
  }
  return sentences.join(' ');
}

/**
 * Fills the search index as the indexer would have after reading every document: the data set
 * starts with its texts read, so no extraction runs during the measurements (its throughput is
 * measured on its own). Returns the bytes of text indexed.
 */
export async function fillSearchIndex(
  db: Kysely<Database>,
  items: { kind: 'file' | 'event'; id: number; text: string | null }[],
): Promise<number> {
  let bytes = 0;
  await db.transaction().execute(async (trx) => {
    for (const item of items) {
      const state = item.text === null ? 'failed' : 'done';
      await trx
        .updateTable('search_texts')
        .set({ state, text: item.text, reason: item.text === null ? 'too_large' : null, locked_until: null })
        .where('kind', '=', item.kind)
        .where('item_id', '=', item.id)
        .execute();
      if (item.text === null) continue;
      bytes += Buffer.byteLength(item.text);
      const rowid = item.kind === 'file' ? item.id * 2 : item.id * 2 + 1;
      await sql`insert into search_fts (rowid, body) values (${rowid}, ${fold(item.text)})`.execute(trx);
    }
  });
  return bytes;
}
