import type { Kysely, Transaction } from 'kysely';
import { EVENT_MESSAGES } from '@gremienportal/contracts/events';
import type { Database } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import type { Principal } from '../../policies/principal.ts';
import { canSeeEvent, eventFilter } from '../../policies/events.policy.ts';
import { viewerOf } from '../../policies/principal.ts';
import { findEventBy, type EventLookup, type EventRecord } from './events.repository.ts';

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * The event if the principal may see it, else undefined. The query that finds it carries the
 * events policy's filter, so a hidden event and a missing one run the same query and get no row
 * back (decision 150); `canSeeEvent` is the second check on the row.
 */
export async function findVisibleEvent(
  executor: Executor,
  principal: Principal,
  by: EventLookup,
): Promise<EventRecord | undefined> {
  const viewer = viewerOf(principal);
  const event = await findEventBy(executor, by, eventFilter(viewer));
  return event && canSeeEvent(viewer, event) ? event : undefined;
}

/**
 * The guard for events ("find it, check it, or 404"): the event the principal may see, found by id
 * or key (in a transaction after `lockEvent`, on the locked row); hidden and missing answer the
 * same 404 with `message`.
 */
export async function visibleEvent(
  executor: Executor,
  principal: Principal,
  by: number | EventLookup,
  message: string = EVENT_MESSAGES.notFound,
): Promise<EventRecord> {
  const event = await findVisibleEvent(executor, principal, typeof by === 'number' ? { id: by } : by);
  if (!event) throw notFound(message);
  return event;
}
