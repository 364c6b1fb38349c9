import type { AppContext } from '../../context.ts';
import { remindOverdueFollowUps } from './beschlussbuch.service.ts';
import { closeDue, remindDue } from './voting.service.ts';

/**
 * The minute job of the Beschlüsse (decision 190): Umlaufverfahren past their deadline close,
 * electors who did neither vote nor object are reminded 24 hours before it, and the person
 * responsible for an overdue follow-up once a day. Each change is claimed in the database, so
 * every instance may run it.
 */
export async function votesJobWork(ctx: AppContext) {
  const closed = await closeDue(ctx);
  const reminded = await remindDue(ctx);
  const followUps = await remindOverdueFollowUps(ctx);
  return { closed, reminded, followUps };
}
