import { IMPORT_MESSAGES, type ImportResult, type ImportRow } from '@gremienportal/contracts/committees';
import type { Transaction } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { AppError, notFound } from '../../errors.ts';
import { auditBy, recordAudit } from '../audit/audit-log.service.ts';
import type { Actor } from '../../plugins/auth.ts';
import { createInvitedAccount } from '../users/invited-account.ts';
import * as repo from './committees.repository.ts';
import { parseMembersCsv, type CsvMemberRow } from './members-csv.ts';
import { membershipProblems, type MembershipDraft } from './membership-rules.ts';
import type { MembershipWrites } from './memberships.service.ts';

/** What the import will do with one good row of the file. */
interface PlannedRow {
  csv: CsvMemberRow;
  userId: number | null;
  existing: repo.MembershipRow | undefined;
  draft: MembershipDraft;
  result: ImportRow;
}

const sameMembership = (row: repo.MembershipRow, draft: MembershipDraft) =>
  row.function === draft.function &&
  row.rank === draft.rank &&
  row.valid_from === draft.from &&
  row.valid_until === draft.until &&
  row.district === draft.district;

/**
 * "Mitglieder importieren" (decision 189): the preview and the import are the same plan, made
 * from the file and the term's memberships as stored; the import makes it again inside its
 * transaction and writes only a plan without errors. A person is found by e-mail address; their
 * membership in the term is changed, or a new one created; an unknown address gets an account
 * with an invitation. A second run of the same file finds everything unchanged.
 */
export function membersImportService(ctx: AppContext, writes: MembershipWrites) {
  async function plan(trx: Transaction<Database>, term: repo.TermRow, csv: CsvMemberRow[]) {
    const emails = [...new Set(csv.map((row) => row.email))];
    const users =
      emails.length === 0
        ? []
        : await trx.selectFrom('users').select(['id', 'email']).where('email', 'in', emails).execute();
    const userOf = new Map(users.map((user) => [user.email, user.id]));
    // The term as it will be: each row is checked against the stored memberships and the rows before it.
    const simulated: repo.MembershipRow[] = await repo.membershipsOfTerm(trx, term.id);
    const planned: PlannedRow[] = [];
    let placeholder = -1;
    for (const row of csv) {
      const userId = userOf.get(row.email) ?? null;
      const existing = userId === null ? undefined : simulated.find((m) => m.user_id === userId && m.id > 0);
      const draft: MembershipDraft = {
        id: existing?.id,
        user_id: userId ?? placeholder--,
        function: row.function,
        rank: row.rank,
        from: row.from ?? existing?.valid_from ?? term.starts_on,
        until: row.until ?? existing?.valid_until ?? term.ends_on,
        district: row.district,
        reason: existing?.reason ?? null,
      };
      const messages = Object.values(membershipProblems(draft, term, simulated));
      const action =
        messages.length > 0
          ? 'error'
          : userId === null
            ? 'new_account'
            : !existing
              ? 'new_membership'
              : sameMembership(existing, draft)
                ? 'unchanged'
                : 'changed';
      const result: ImportRow = {
        row: row.row,
        name: `${row.firstname} ${row.lastname}`,
        email: row.email,
        action,
        messages,
      };
      planned.push({ csv: row, userId, existing, draft, result });
      if (messages.length === 0) {
        const stored = { ...(existing ?? {}), ...toRow(draft, term) };
        if (existing) simulated.splice(simulated.indexOf(existing), 1, stored);
        else simulated.push(stored);
      }
    }
    return planned;
  }

  const toRow = (draft: MembershipDraft, term: repo.TermRow): repo.MembershipRow => ({
    id: draft.id ?? 0,
    committee_id: term.committee_id,
    term_id: term.id,
    user_id: draft.user_id,
    holder_name: '',
    function: draft.function,
    rank: draft.rank,
    valid_from: draft.from,
    valid_until: draft.until,
    district: draft.district,
    reason: draft.reason,
    state: 'pending',
    succeeded_by: null,
    created_at: '',
    updated_at: '',
  });

  function summary(dryRun: boolean, rows: ImportRow[]): ImportResult {
    const count = (action: ImportRow['action']) => rows.filter((row) => row.action === action).length;
    return {
      dry_run: dryRun,
      rows: rows.sort((a, b) => a.row - b.row),
      counts: {
        new_accounts: count('new_account'),
        new_memberships: count('new_account') + count('new_membership'),
        changed: count('changed'),
        unchanged: count('unchanged'),
        errors: count('error'),
      },
    };
  }

  return {
    async run(actor: Actor, committeeId: number, termId: number, bytes: Uint8Array, dryRun: boolean) {
      const committee = await repo.findCommittee(ctx.db.kysely, committeeId);
      if (!committee) throw notFound();
      const term = await repo.findTerm(ctx.db.kysely, termId);
      if (!term || term.committee_id !== committeeId) throw notFound();
      const parsed = parseMembersCsv(bytes, { start: term.starts_on, end: term.ends_on });
      if (parsed.fileError) throw new AppError('validation', parsed.fileError);
      const badRows: ImportRow[] = parsed.errors.map((error) => ({ ...error, action: 'error' as const }));
      if (dryRun) {
        const planned = await ctx.db.kysely.transaction().execute((trx) => plan(trx, term, parsed.rows));
        return summary(true, [...badRows, ...planned.map((row) => row.result)]);
      }
      if (badRows.length > 0) throw new AppError('validation', IMPORT_MESSAGES.hasErrors);
      const rows = await ctx.db.kysely.transaction().execute(async (trx) => {
        await repo.lockCommittee(trx, ctx.db.dialect, committeeId);
        const planned = await plan(trx, term, parsed.rows);
        if (planned.some((row) => row.result.action === 'error')) {
          throw new AppError('validation', IMPORT_MESSAGES.hasErrors);
        }
        for (const row of planned) {
          if (row.result.action === 'unchanged') continue;
          const userId =
            row.userId ??
            (await createInvitedAccount(ctx, trx, actor, {
              title: row.csv.title,
              firstname: row.csv.firstname,
              lastname: row.csv.lastname,
              email: row.csv.email,
            }));
          const draft = { ...row.draft, user_id: userId };
          if (row.existing) await writes.updateDraft(trx, actor, row.existing, draft);
          else await writes.insertDraft(trx, actor, committeeId, term.id, draft, row.result.name);
        }
        const result = summary(
          false,
          planned.map((row) => row.result),
        );
        const { unchanged, changed, ...created } = result.counts;
        const changes = { ...created, changed_memberships: changed };
        if (Object.values(changes).some((count) => count > 0)) {
          await recordAudit(trx, ctx.clock, {
            ...auditBy(actor),
            action: 'membership.imported',
            objectType: 'committee',
            objectId: committeeId,
            objectLabel: committee.name,
            details: { term_id: term.id, ...changes, unchanged },
          });
        }
        return result;
      });
      return rows;
    },
  };
}
