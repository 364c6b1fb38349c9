import { createHash } from 'node:crypto';
import type { ResolutionResult, VoteMode } from '@gremienportal/contracts/resolutions';
import type { Choice } from '@gremienportal/contracts/tally';
import type { Db } from '../../db/database.ts';
import * as repo from './resolutions.repository.ts';

/** The Beschlussbuch's numbers and its hash chain per committee (decision 190). */

export function canonicalJson(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v !== null && typeof v === 'object') {
      return Object.fromEntries(
        Object.keys(v as object)
          .sort()
          .map((key) => [key, sort((v as Record<string, unknown>)[key])]),
      );
    }
    return v;
  };
  return JSON.stringify(sort(value));
}

export const chainHash = (previousHash: string | null, canonical: string) =>
  createHash('sha256')
    .update(`${previousHash ?? ''}\n${canonical}`, 'utf8')
    .digest('hex');

/** "AR", "VV", else the initials of the capitalised words of the name. */
export function committeeShort(committee: { name: string; kind: string }): string {
  if (committee.kind === 'aufsichtsrat') return 'AR';
  if (committee.kind === 'vertreterversammlung') return 'VV';
  const words = committee.name.split(/[\s-]+/).filter((word) => /^\p{Lu}/u.test(word));
  const initials = (words.length > 0 ? words : [committee.name.trim()])
    .map((word) => word.charAt(0))
    .join('')
    .toUpperCase();
  return initials || 'G';
}

export const resolutionNumber = (short: string, startYear: string, sequence: number) =>
  `${short} ${startYear}/${String(sequence).padStart(2, '0')}`;

export interface ResolutionRecord {
  number: string;
  committee: { id: number; name: string };
  motion_id: number | null;
  title: string;
  text: string;
  mode: VoteMode | null;
  procedure: string | null;
  rules: {
    majority: string;
    basis: string;
    quorum: string;
    abstentions_count: boolean;
    tie: string;
  } | null;
  members: number | null;
  participants: number | null;
  counts: { ja: number; nein: number; enthaltung: number } | null;
  names: { name: string; choice: Choice }[] | null;
  conflicts: string[];
  result: ResolutionResult;
  reason: string;
  established_at: string;
  established_by: { id: number; name: string };
  source: { event_id: number | null; agenda_item_id: number | null } | 'umlauf' | null;
  file_ids: number[];
  corrects: { id: number; number: string } | null;
  correction_reason: string | null;
}

export type VerifyResult = { ok: true; count: number } | { ok: false; number: string; reason: string };

/** Recomputes every committee's chain in order; names the first entry that does not match. */
export async function verifyChains(db: Db): Promise<VerifyResult> {
  const rows = await repo.allForVerification(db.kysely);
  const counters = await repo.allCounters(db.kysely);
  const fail = (number: string, reason: string): VerifyResult => ({ ok: false, number, reason });
  let previous: { committee_id: number; hash: string; number: string } | null = null;
  const lastOfTerm = new Map<string, { sequence: number; number: string }>();
  for (const row of rows) {
    const expectedPrevious = previous && previous.committee_id === row.committee_id ? previous.hash : null;
    if (row.previous_hash !== expectedPrevious) {
      return fail(
        row.number,
        expectedPrevious === null
          ? 'Der Eintrag verweist auf einen Vorgänger, den es in der Kette nicht gibt (ein früherer Eintrag fehlt).'
          : 'Der Verweis auf den vorherigen Eintrag stimmt nicht: ein Eintrag davor fehlt oder wurde verändert.',
      );
    }
    let record: ResolutionRecord;
    try {
      record = JSON.parse(row.record) as ResolutionRecord;
    } catch {
      return fail(row.number, 'Der gespeicherte Inhalt ist kein gültiges JSON.');
    }
    if (canonicalJson(record) !== row.record) {
      return fail(row.number, 'Der gespeicherte Inhalt ist nicht in der festgelegten Form.');
    }
    if (chainHash(row.previous_hash, row.record) !== row.hash) {
      return fail(row.number, 'Der Inhalt passt nicht zu seiner Prüfsumme: der Eintrag wurde verändert.');
    }
    if (
      record.number !== row.number ||
      record.result !== row.result ||
      record.committee?.id !== row.committee_id
    ) {
      return fail(row.number, 'Nummer, Ergebnis oder Gremium weichen vom gespeicherten Inhalt ab.');
    }
    const key = `${row.committee_id}:${row.term_id}`;
    const last = lastOfTerm.get(key);
    if (row.sequence !== (last?.sequence ?? 0) + 1) {
      return fail(row.number, 'Die laufende Nummer springt: ein Eintrag davor fehlt.');
    }
    lastOfTerm.set(key, { sequence: row.sequence, number: row.number });
    previous = { committee_id: row.committee_id, hash: row.hash, number: row.number };
  }
  for (const counter of counters) {
    const last = lastOfTerm.get(`${counter.committee_id}:${counter.term_id}`);
    if (Number(counter.last_number) !== (last?.sequence ?? 0)) {
      return fail(
        last?.number ?? '–',
        `Der Zähler steht bei ${counter.last_number}, der letzte Eintrag hat die Nummer ${last?.sequence ?? 0}: Einträge am Ende fehlen.`,
      );
    }
  }
  return { ok: true, count: rows.length };
}
