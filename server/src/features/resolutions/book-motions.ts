import type { AppContext } from '../../context.ts';
import { canSeeMotion } from '../../policies/motions.policy.ts';
import type { Principal } from '../../policies/principal.ts';
import { activeFunctions } from './motions.repository.ts';

/**
 * The Beschlussvorlagen of a meeting's agenda items that the reader may see (motions.policy.ts),
 * by agenda item, for the Sitzungsmappe: title and the exact text to be resolved. Withdrawn
 * motions are left out.
 */
export async function motionsByAgendaItem(
  ctx: AppContext,
  principal: Principal,
  eventId: number,
): Promise<Map<number, { title: string; text: string }[]>> {
  const db = ctx.db.kysely;
  const rows = await db
    .selectFrom('motions')
    .select(['id', 'committee_id', 'agenda_item_id', 'title', 'text'])
    .where('event_id', '=', eventId)
    .where('agenda_item_id', 'is not', null)
    .where('state', '!=', 'zurueckgezogen')
    .orderBy('id')
    .execute();
  const seen = new Map<number, boolean>();
  const byItem = new Map<number, { title: string; text: string }[]>();
  for (const row of rows) {
    if (!seen.has(row.committee_id)) {
      const functions = await activeFunctions(db, row.committee_id, principal.id);
      seen.set(row.committee_id, canSeeMotion(principal, functions, false));
    }
    if (!seen.get(row.committee_id)) continue;
    const list = byItem.get(row.agenda_item_id!) ?? [];
    list.push({ title: row.title, text: row.text });
    byItem.set(row.agenda_item_id!, list);
  }
  return byItem;
}
