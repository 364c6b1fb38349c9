// Over 300 lines because establishing and correcting share the transaction that numbers an entry, builds its record and extends the chain under the lock.
import {
  MOTION_MESSAGES,
  MOTION_STATE_LABELS,
  type ResolutionResult,
} from '@gremienportal/contracts/resolutions';
import { tally, type Choice } from '@gremienportal/contracts/tally';
import { berlinDate } from '@gremienportal/contracts/audit';
import { fromBerlinLocal } from '@gremienportal/contracts/events';
import type { AppContext } from '../../context.ts';
import { AppError, forbidden, invalidField, notFound } from '../../errors.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { composeMail } from '../../mail/compose.ts';
import type { Actor } from '../../plugins/auth.ts';
import type { Principal } from '../../policies/principal.ts';
import { auditBy, recordAudit } from '../audit/audit-log.service.ts';
import { seesAllCommittees } from '../../policies/committees.policy.ts';
import { motionFilter, resolutionFilter } from '../../policies/motions.policy.ts';
import { secondFactorService } from '../two-factor/second-factor.service.ts';
import * as repo from './resolutions.repository.ts';
import {
  canonicalJson,
  chainHash,
  committeeShort,
  resolutionNumber,
  type ResolutionRecord,
} from './resolution-chain.ts';
import {
  RESULT_LABELS,
  resolutionsCsv,
  summaryOf,
  type ResolutionListFilter,
  type ResolutionSummary,
} from './resolutions.present.ts';

export { verifyChains } from './resolution-chain.ts';
export { resolutionsCsv } from './resolutions.present.ts';

/*
 * The Beschlussbuch (decision 190). Decisions of this module:
 * - Only the committee's Vorsitz (an applied, active membership with the function `vorsitz`)
 *   establishes a result or corrects an entry; an admin role is not enough (403 onlyChair).
 * - The Vorsitz confirms with the current TOTP code or a recovery code, checked by the
 *   second-factor service as at sign-in (wrong codes count toward its lock; a TOTP step is
 *   accepted once). Six digits are a TOTP code, anything else a recovery code. Without a second
 *   factor set up no code can be right: 422 codeInvalid.
 * - A motion is established from 'geschlossen' (counted with `tally()`), and also from
 *   'widersprochen' and 'zurueckgezogen', which the Beschlussbuch records with that result and no
 *   count. Afterwards the motion is 'festgestellt'; a second establishment finds it so (409).
 * - The number is `{short} {term start year}/{NN}`: short is 'AR' for the kind aufsichtsrat, 'VV'
 *   for vertreterversammlung, else the initials of the name's capitalised words ("Bau- und
 *   Finanzausschuss" → "BF"). When another committee already numbers with that short name, the
 *   committee's id is appended ("BF-7"), as numbers are unique across the portal. The counter
 *   is per committee and term and never goes back.
 * - A correction is a new entry with its own number in the same chain, titled "Berichtigung zu
 *   AR 2026/07", keeping the corrected entry's result; the old row stays as it was.
 * - hash = SHA-256(previous hash (or '') + '\n' + canonical JSON of the record).
 */
export const RESOLUTION_MESSAGES = {
  noTerm: 'Für heute gibt es keine Amtsperiode dieses Gremiums; bitte zuerst eine anlegen.',
  notFound: 'Diesen Beschluss gibt es nicht.',
  alreadyEstablished: 'Das Ergebnis dieser Abstimmung ist bereits festgestellt.',
} as const;

const ESTABLISHABLE = ['geschlossen', 'widersprochen', 'zurueckgezogen'] as const;

/** JSON with every object's keys sorted, recursively; arrays keep their order. */
export function resolutionsService(ctx: AppContext) {
  const k = () => ctx.db.kysely;
  const secondFactor = secondFactorService(ctx);

  async function requireChair(actor: Actor, committeeId: number) {
    const chairship = await repo.activeChairship(k(), committeeId, actor.principal.id);
    if (!chairship) throw forbidden(MOTION_MESSAGES.onlyChair);
    return chairship;
  }

  async function checkCode(userId: number, code: string) {
    const trimmed = code.trim();
    const user = await repo.userName(k(), userId);
    const proof = /^\d{6}$/.test(trimmed) ? { code: trimmed } : { recovery_code: trimmed };
    if (!user?.two_factor_enabled || !(await secondFactor.verify(userId, proof))) {
      throw invalidField('code', MOTION_MESSAGES.codeInvalid);
    }
  }

  /** The count of a closed motion: what the record and `tally()` take. */
  async function countOf(motion: NonNullable<Awaited<ReturnType<typeof repo.findMotion>>>) {
    const electorate = await repo.electorateOf(k(), motion.id);
    const committee = (await repo.committeeBrief(k(), motion.committee_id))!;
    const rules = repo.parseRules(committee.rules);
    const counts = { ja: 0, nein: 0, enthaltung: 0 };
    let voters: number;
    let chairVote: Choice | null = null;
    let names: { name: string; choice: Choice }[] | null = null;
    if (motion.mode === 'geheim') {
      for (const ballot of await repo.ballotChoicesOf(k(), motion.id)) counts[ballot.choice] += 1;
      voters = electorate.filter((e) => e.voted).length;
    } else {
      const byUser = new Map(electorate.map((e) => [e.user_id, e]));
      const votes = (await repo.votesOf(k(), motion.id)).filter((vote) => byUser.has(vote.user_id));
      for (const vote of votes) counts[vote.choice] += 1;
      voters = votes.length;
      const chair = electorate.find((e) => e.function === 'vorsitz');
      chairVote = votes.find((vote) => vote.user_id === chair?.user_id)?.choice ?? null;
      if (motion.mode === 'namentlich') {
        names = votes
          .map((vote) => ({ name: byUser.get(vote.user_id)!.holder_name, choice: vote.choice }))
          .sort((a, b) => a.name.localeCompare(b.name, 'de'));
      }
    }
    const hand = {
      ja: motion.hand_ja ?? 0,
      nein: motion.hand_nein ?? 0,
      enthaltung: motion.hand_enthaltung ?? 0,
    };
    counts.ja += hand.ja;
    counts.nein += hand.nein;
    counts.enthaltung += hand.enthaltung;
    const conflicts = electorate
      .filter((e) => e.conflicted)
      .map((e) => e.holder_name)
      .sort((a, b) => a.localeCompare(b, 'de'));
    const participants = voters + hand.ja + hand.nein + hand.enthaltung;
    const input = {
      members: electorate.length,
      conflicted: conflicts.length,
      ...counts,
      participants,
      quorum: motion.quorum,
      majority: motion.majority,
      basis: motion.majority_basis,
      abstentionsCount: rules.abstentions_count,
      tie: rules.tie,
      chairVote: motion.mode === 'geheim' ? null : chairVote,
    };
    let result;
    try {
      result = tally(input);
    } catch (error) {
      if (error instanceof RangeError) throw new AppError('conflict', MOTION_MESSAGES.tooManyVotes);
      throw error;
    }
    return {
      committee,
      rules: {
        majority: motion.majority,
        basis: motion.majority_basis,
        quorum: motion.quorum,
        abstentions_count: rules.abstentions_count,
        tie: rules.tie,
      },
      members: electorate.length,
      participants,
      counts,
      names,
      conflicts,
      outcome: result.outcome,
      reason: result.reason,
    };
  }

  /**
   * Appends an entry to the committee's chain in one transaction: the committee's row and its
   * counter row locked, the next number, the record, its hash; `after` runs in the same transaction.
   */
  async function append(
    committee: { id: number; name: string; kind: string },
    build: (number: string) => Omit<ResolutionRecord, 'number'>,
    row: { motion_id: number | null; corrects_id: number | null },
    after: (trx: repo.Executor, id: number, record: ResolutionRecord) => Promise<void>,
  ) {
    const today = berlinDate(ctx.clock.now());
    const term = await repo.termOn(k(), committee.id, today);
    if (!term) throw new AppError('conflict', RESOLUTION_MESSAGES.noTerm);
    return k()
      .transaction()
      .execute(async (trx) => {
        await repo.lockCommitteeChain(trx, ctx.db.dialect, committee.id);
        const sequence = await repo.nextSequence(trx, ctx.db.dialect, committee.id, term.id);
        let short = committeeShort(committee);
        if (await repo.prefixTakenByOther(trx, committee.id, short)) short = `${short}-${committee.id}`;
        const number = resolutionNumber(short, term.starts_on.slice(0, 4), sequence);
        const record: ResolutionRecord = { ...build(number), number };
        const canonical = canonicalJson(record);
        const previous = await repo.lastOfChain(trx, committee.id);
        const previousHash = previous?.hash ?? null;
        const id = await repo.insertResolution(trx, {
          committee_id: committee.id,
          term_id: term.id,
          motion_id: row.motion_id,
          number,
          sequence,
          result: record.result,
          established_at: record.established_at,
          record: canonical,
          previous_hash: previousHash,
          hash: chainHash(previousHash, canonical),
          corrects_id: row.corrects_id,
        });
        await after(trx, id, record);
        return { id, number, record };
      });
  }

  async function mailResult(trx: repo.Executor, committeeId: number, record: ResolutionRecord) {
    const recipients = await repo.activeMemberAddresses(trx, committeeId);
    const label = RESULT_LABELS[record.result];
    await enqueueMail(
      trx,
      ctx.clock,
      recipients.map((user) =>
        composeMail({
          to: user.email,
          subject: `${record.corrects ? 'Berichtigung' : 'Beschluss'} ${record.number}: ${label}`,
          recipient: user,
          blocks: [
            {
              kind: 'paragraph',
              lines: [
                record.corrects
                  ? `Im Beschlussbuch des Gremiums „${record.committee.name}“ wurde ${record.corrects.number} berichtigt.`
                  : `Im Gremium „${record.committee.name}“ wurde das Ergebnis einer Abstimmung festgestellt.`,
              ],
            },
            {
              kind: 'facts',
              rows: [
                ['Nummer', record.number],
                ['Titel', record.title],
                ['Ergebnis', label],
                ['Begründung', record.reason],
                ['Festgestellt von', record.established_by.name],
              ],
            },
            { kind: 'paragraph', lines: ['Beschlusstext:', record.text] },
          ],
        }),
      ),
    );
  }

  return {
    /** Feststellung (decision 190): the Vorsitz's second factor, the count, the entry, the mail. */
    async establish(actor: Actor, motionId: number, code: string) {
      // Outside the committee the motion is missing (404), before any rule speaks.
      const motion = await repo.findMotion(k(), motionId, motionFilter(actor.principal));
      if (!motion) throw notFound();
      const chairship = await requireChair(actor, motion.committee_id);
      // The state first: a refused Feststellung does not use up the Vorsitz's code.
      if (motion.state === 'festgestellt')
        throw new AppError('conflict', RESOLUTION_MESSAGES.alreadyEstablished);
      if (!(ESTABLISHABLE as readonly string[]).includes(motion.state)) {
        throw new AppError('conflict', MOTION_MESSAGES.notClosed);
      }
      await checkCode(actor.principal.id, code);
      const counted = motion.state === 'geschlossen' ? await countOf(motion) : null;
      const committee = counted?.committee ?? (await repo.committeeBrief(k(), motion.committee_id))!;
      const fileIds = await repo.motionFileIds(k(), motion.id);
      const result: ResolutionResult = counted ? counted.outcome : (motion.state as ResolutionResult);
      const now = ctx.clock.now().toISOString();
      const user = await repo.userName(k(), actor.principal.id);
      const byName = user ? `${user.firstname} ${user.lastname}` : chairship.holder_name;
      const entry = await append(
        committee,
        () => ({
          committee: { id: committee.id, name: committee.name },
          motion_id: motion.id,
          title: motion.title,
          text: motion.text,
          mode: motion.mode,
          procedure: motion.procedure,
          rules: counted?.rules ?? null,
          members: counted?.members ?? null,
          participants: counted?.participants ?? null,
          counts: counted?.counts ?? null,
          names: counted?.names ?? null,
          conflicts: counted?.conflicts ?? [],
          result,
          reason: counted?.reason ?? `${MOTION_STATE_LABELS[motion.state as 'widersprochen']}.`,
          established_at: now,
          established_by: { id: actor.principal.id, name: byName },
          source:
            motion.procedure === 'umlauf'
              ? 'umlauf'
              : { event_id: motion.event_id, agenda_item_id: motion.agenda_item_id },
          file_ids: fileIds,
          corrects: null,
          correction_reason: null,
        }),
        { motion_id: motion.id, corrects_id: null },
        async (trx, id, record) => {
          if (!(await repo.claimEstablished(trx, motion.id, motion.state, now))) {
            throw new AppError('conflict', RESOLUTION_MESSAGES.alreadyEstablished);
          }
          await recordAudit(trx, ctx.clock, {
            ...auditBy(actor),
            action: 'resolution.established',
            objectType: 'resolution',
            objectId: id,
            objectLabel: record.number,
            details: { resolution_id: id, motion_id: motion.id, committee: committee.name, result },
          });
          await mailResult(trx, committee.id, record);
        },
      );
      return summaryOf((await repo.findResolution(k(), entry.id))!);
    },

    /** A correction: a new entry of the same chain; the corrected one is never changed. */
    async correct(actor: Actor, resolutionId: number, body: { text: string; reason: string }) {
      const original = await repo.findResolution(k(), resolutionId, resolutionFilter(actor.principal));
      if (!original) throw notFound(RESOLUTION_MESSAGES.notFound);
      const chairship = await requireChair(actor, original.committee_id);
      const committee = (await repo.committeeBrief(k(), original.committee_id))!;
      const old = JSON.parse(original.record) as ResolutionRecord;
      const now = ctx.clock.now().toISOString();
      const user = await repo.userName(k(), actor.principal.id);
      const byName = user ? `${user.firstname} ${user.lastname}` : chairship.holder_name;
      const entry = await append(
        committee,
        () => ({
          ...old,
          committee: { id: committee.id, name: committee.name },
          title: `Berichtigung zu ${original.number}`,
          text: body.text,
          established_at: now,
          established_by: { id: actor.principal.id, name: byName },
          corrects: { id: original.id, number: original.number },
          correction_reason: body.reason,
        }),
        { motion_id: original.motion_id, corrects_id: original.id },
        async (trx, id, record) => {
          await recordAudit(trx, ctx.clock, {
            ...auditBy(actor),
            action: 'resolution.corrected',
            objectType: 'resolution',
            objectId: id,
            objectLabel: record.number,
            details: { resolution_id: id, corrects: original.number, reason: body.reason },
          });
          await mailResult(trx, committee.id, record);
        },
      );
      return summaryOf((await repo.findResolution(k(), entry.id))!);
    },

    /** The register: the principal's committees (admins: all), newest first. */
    async list(principal: Principal, filter: ResolutionListFilter = {}): Promise<ResolutionSummary[]> {
      const committeeIds = seesAllCommittees(principal)
        ? undefined
        : await repo.committeesOfMember(k(), principal.id);
      const yearBounds =
        filter.year === undefined
          ? {}
          : {
              from: fromBerlinLocal({
                year: filter.year,
                month: 1,
                day: 1,
                hour: 0,
                minute: 0,
                second: 0,
              }).toISOString(),
              until: fromBerlinLocal({
                year: filter.year + 1,
                month: 1,
                day: 1,
                hour: 0,
                minute: 0,
                second: 0,
              }).toISOString(),
            };
      const rows = await repo.listResolutions(k(), {
        committeeIds,
        committee_id: filter.committee_id,
        term_id: filter.term_id,
        result: filter.result,
        ...yearBounds,
      });
      const q = filter.q?.trim().toLocaleLowerCase('de');
      return rows
        .map(summaryOf)
        .filter(
          (row) =>
            !q || [row.number, row.title, row.text].some((text) => text.toLocaleLowerCase('de').includes(q)),
        );
    },

    /** The register as CSV, with the list's filters. */
    async csv(principal: Principal, filter: ResolutionListFilter = {}): Promise<string> {
      return resolutionsCsv(await this.list(principal, filter));
    },
  };
}
