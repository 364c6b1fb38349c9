import { MOTION_STATE_LABELS, type ResolutionResult } from '@gremienportal/contracts/resolutions';
import { OUTCOME_LABELS } from '@gremienportal/contracts/tally';
import { berlinDate } from '@gremienportal/contracts/audit';
import { toCsv } from '../../http/csv.ts';
import * as repo from './resolutions.repository.ts';
import type { ResolutionRecord } from './resolution-chain.ts';

/** Resolutions as lists and the CSV export show them. */

export interface ResolutionListFilter {
  committee_id?: number;
  term_id?: number;
  year?: number;
  result?: ResolutionResult;
  q?: string;
}

export interface ResolutionSummary {
  id: number;
  number: string;
  committee: { id: number; name: string };
  term_id: number;
  motion_id: number | null;
  title: string;
  text: string;
  mode: ResolutionRecord['mode'];
  procedure: string | null;
  event_id: number | null;
  file_ids: number[];
  result: ResolutionResult;
  reason: string;
  counts: ResolutionRecord['counts'];
  names: ResolutionRecord['names'];
  conflicts: string[];
  established_at: string;
  established_by: string;
  corrects: ResolutionRecord['corrects'];
  hash: string;
  previous_hash: string | null;
}

export const RESULT_LABELS: Record<ResolutionResult, string> = {
  ...OUTCOME_LABELS,
  widersprochen: MOTION_STATE_LABELS.widersprochen,
  zurueckgezogen: MOTION_STATE_LABELS.zurueckgezogen,
};

export const summaryOf = (row: repo.ResolutionRow): ResolutionSummary => {
  const record = JSON.parse(row.record) as ResolutionRecord;
  return {
    id: row.id,
    number: row.number,
    committee: record.committee,
    term_id: row.term_id,
    motion_id: row.motion_id,
    title: record.title,
    text: record.text,
    mode: record.mode,
    procedure: record.procedure,
    event_id: typeof record.source === 'object' && record.source !== null ? record.source.event_id : null,
    file_ids: record.file_ids,
    result: row.result,
    reason: record.reason,
    counts: record.counts,
    names: record.names,
    conflicts: record.conflicts,
    established_at: row.established_at,
    established_by: record.established_by.name,
    corrects: record.corrects,
    hash: row.hash,
    previous_hash: row.previous_hash,
  };
};

/** The register as CSV (formula-safe, `;`, BOM), as every export of the portal writes it. */
export function resolutionsCsv(rows: readonly ResolutionSummary[]): string {
  return toCsv(
    [
      'Nummer',
      'Gremium',
      'Titel',
      'Beschlusstext',
      'Ergebnis',
      'Begründung',
      'Ja',
      'Nein',
      'Enthaltung',
      'Festgestellt am',
      'Festgestellt von',
      'Berichtigt',
      'Prüfsumme',
    ],
    rows.map((row) => [
      row.number,
      row.committee.name,
      row.title,
      row.text,
      RESULT_LABELS[row.result],
      row.reason,
      row.counts?.ja,
      row.counts?.nein,
      row.counts?.enthaltung,
      berlinDate(new Date(row.established_at)),
      row.established_by,
      row.corrects?.number ?? '',
      row.hash,
    ]),
  );
}
