// The pages decision 184 measures with Lighthouse and interaction to next paint: a folder of
// exactly 50 documents and a meeting with 20 agenda items, both visible to Vertreter. Added to the
// data set by createDataset (dataset.ts) after everything else, with a random source of their own,
// so the rest of the data set stays exactly as it was.
import type { Kysely } from 'kysely';
import type { Database } from '../../../server/src/db/schema.ts';
import { newKey } from '../../../server/src/storage/object-keys.ts';
import { demoFile } from './demo-files.ts';
import { fillSearchIndex, germanText } from './search-index.ts';

/** The folder size for `/files` (one page of the grid) and the meeting's agenda length. */
export const PAGE_FOLDER_ITEMS = 50;
export const MEETING_AGENDA_ITEMS = 20;

export interface PageData {
  /** A folder under /Mitgliedervertreter with exactly 50 documents. */
  folderId: number;
  folderItems: number;
  /** A coming meeting for Vertreter and Aufsichtsrat with 20 agenda items, most with documents. */
  meetingId: number;
  meetingItems: number;
  fileIds: number[];
}

const TOPICS = [
  'Eröffnung und Begrüßung',
  'Feststellung der ordnungsgemäßen Einberufung und der Beschlussfähigkeit',
  'Genehmigung des Protokolls der letzten Vertreterversammlung',
  'Bericht des Vorstands über das Geschäftsjahr',
  'Bericht des Aufsichtsrats',
  'Bericht über die gesetzliche Prüfung',
  'Feststellung des Jahresabschlusses',
  'Verwendung des Bilanzgewinns',
  'Entlastung des Vorstands',
  'Entlastung des Aufsichtsrats',
  'Wahlen zum Aufsichtsrat',
  'Änderung der Satzung',
  'Änderung der Wahlordnung',
  'Haushaltsplan und Investitionen',
  'Instandhaltungsprogramm der Wohnanlagen',
  'Photovoltaik auf den Dächern der Genossenschaft',
  'Bericht aus dem Mitgliederförderungsfonds',
  'Anträge von Mitgliedern',
  'Termine und Ausblick',
  'Verschiedenes',
];
const PRESENTERS = ['Vorstand', 'Aufsichtsratsvorsitz', 'Prüfungsverband', 'Versammlungsleitung'];

/** Adds the folder, its documents (texts read, as the rest of the data set) and the meeting. */
export async function addPageData(
  db: Kysely<Database>,
  filesDir: string,
  roles: { vertreter: number; aufsichtsrat: number },
): Promise<PageData> {
  let state = 20270315;
  const next = () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  const stamp = new Date().toISOString();
  const folderTitle = 'Unterlagen Vertreterversammlung 2027';
  const result = await db.transaction().execute(async (trx) => {
    const parent = await trx
      .selectFrom('folders')
      .select('breadcrumb')
      .where('id', '=', 3)
      .executeTakeFirstOrThrow();
    const { id: folderId } = await trx
      .insertInto('folders')
      .values({
        parent_id: 3,
        title: folderTitle,
        breadcrumb: `${parent.breadcrumb}/${folderTitle}`,
        created_at: stamp,
        updated_at: stamp,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx.insertInto('folder_roles').values({ folder_id: folderId, role_id: roles.vertreter }).execute();

    const fileIds: number[] = [];
    for (let index = 0; index < PAGE_FOLDER_ITEMS; index += 1) {
      const topic = TOPICS[index % TOPICS.length]!;
      const title = index < TOPICS.length ? `TOP ${index + 1} ${topic}` : `Anlage ${index + 1} zu ${topic}`;
      const { id } = await trx
        .insertInto('files')
        .values(await demoFile(filesDir, folderId, title, stamp))
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx.insertInto('file_roles').values({ file_id: id, role_id: roles.vertreter }).execute();
      fileIds.push(id);
    }

    const start = new Date(Date.now() + 30 * 86_400_000);
    start.setUTCHours(17, 0, 0, 0);
    const { id: meetingId } = await trx
      .insertInto('events')
      .values({
        uid: `${newKey()}@gremienportal`,
        sequence: 0,
        title: 'Ordentliche Vertreterversammlung 2027',
        start_at: start.toISOString(),
        end_at: new Date(start.getTime() + 3 * 3_600_000).toISOString(),
        location: 'Stadthalle, Großer Saal',
        description: 'Die Unterlagen zu den Tagesordnungspunkten liegen im Portal bereit.',
        file_storage_key: null,
        file_download_key: null,
        file_format: null,
        file_mime_type: null,
        file_size_bytes: null,
        file_sha256: null,
        created_at: stamp,
        updated_at: stamp,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('event_roles')
      .values([
        { event_id: meetingId, role_id: roles.vertreter },
        { event_id: meetingId, role_id: roles.aufsichtsrat },
      ])
      .execute();
    // Each item its TOP document and, for most, one or two Anlagen from the same folder.
    for (let position = 0; position < MEETING_AGENDA_ITEMS; position += 1) {
      const { id: itemId } = await trx
        .insertInto('agenda_items')
        .values({
          event_id: meetingId,
          parent_id: null,
          position,
          title: TOPICS[position % TOPICS.length]!,
          description: germanText(next, 160 + Math.floor(next() * 240)),
          presenter: PRESENTERS[Math.floor(next() * PRESENTERS.length)]!,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const linked = [position, position + 20, position + 40].filter((index) => index < PAGE_FOLDER_ITEMS);
      await trx
        .insertInto('agenda_item_files')
        .values(
          linked.map((index, order) => ({ item_id: itemId, file_id: fileIds[index]!, position: order })),
        )
        .execute();
    }
    return { folderId, meetingId, fileIds };
  });
  await fillSearchIndex(
    db,
    result.fileIds.map((id) => ({ kind: 'file' as const, id, text: germanText(next, 4_000) })),
  );
  return {
    ...result,
    folderItems: PAGE_FOLDER_ITEMS,
    meetingItems: MEETING_AGENDA_ITEMS,
  };
}
