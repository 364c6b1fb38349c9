import { afterAll, describe, expect, it } from 'vitest';
import { germanDate } from '@gremienportal/contracts/committees';
import { signIn, sleep } from './portal-process.ts';
import { crashRandom, errorLines, portalPlace } from './crash-rounds.ts';
import {
  addSeats,
  berlinToday,
  countTransitions,
  membershipKillMoment,
  membershipState,
  owedTransitions,
  type MembershipModel,
} from './crash-memberships.model.ts';

/**
 * Crash safety of the membership run (decision 189, beside crash-digests.test.ts): the real server
 * process is killed with SIGKILL at a random moment while its membership run (at every start, then
 * every minute) applies the starts and ends the calendar has reached while the portal was down
 * over midnight. Each start and end is applied exactly once: the state, its audit entry, its mail
 * in the outbox and the member's committee role (`user_roles.via_committee`) are committed together
 * or not at all; after the restarted portal's run every membership whose dates say active is
 * active with its role, an ended one leaves no committee role (a direct one stays), and the outbox
 * holds exactly one start or end mail per transition, none lost, none twice.
 *
 * Random choices come from one seed, printed at the start and named in every failure
 * (`CRASH_SEED=<seed>` repeats them; the moment the kill lands still depends on the machine).
 * Dates are relative to today in Berlin with two days' distance, so a midnight during the test
 * changes no expectation.
 */

const baseUrl = process.env.TEST_DATABASE_URL;
const choices = crashRandom();
const SEED = choices.seed;
const ROUNDS = 6;

describe(`crash safety of membership runs (${baseUrl ? 'PostgreSQL' : 'SQLite'})`, () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });
  console.log(`Absturztest Mitgliedschaften: CRASH_SEED=${SEED}`);

  it(
    `applies every start and end exactly once over ${ROUNDS} kills during membership runs`,
    { timeout: 300_000 },
    async () => {
      const place = await portalPlace(cleanups, 'crash-membership');
      let portal = await place.start();
      const admin = await signIn(portal.url);
      const created = await admin.request('POST', '/committees', {
        name: 'Prüfungsausschuss',
        kind: 'ausschuss',
      });
      expect(created.status, await created.clone().text()).toBe(201);
      const { data: committee } = (await created.json()) as {
        data: { id: number; name: string; role: { id: number } };
      };
      const year = Number(berlinToday().slice(0, 4));
      const termRes = await admin.request('POST', `/committees/${committee.id}/terms`, {
        start: `${year - 3}-01-01`,
        end: `${year + 3}-12-31`,
      });
      expect(termRes.status, await termRes.clone().text()).toBe(201);
      const { data: term } = (await termRes.json()) as { data: { id: number } };
      await portal.stop();
      const model: MembershipModel = {
        committeeId: committee.id,
        committeeName: committee.name,
        termId: term.id,
        roleId: committee.role.id,
        seats: [],
        bySeatEmail: new Map(),
      };
      const stats = { midRun: 0, transitions: 0, mails: 0 };
      /** Outbox ids seen so far: none may disappear. */
      let knownOutbox = new Set<number>();

      /**
       * Every membership against the model: in its state before or after, never elsewhere; after,
       * exactly one audit entry and (where owed) exactly one mail naming it; before, neither; with
       * `final`, all after. Each member's committee role matches their applied memberships.
       */
      async function check(where: string, final: boolean) {
        const db = place.inspect();
        try {
          const { memberships, roles, audits, outbox } = await membershipState(db, model);
          const states = new Map(memberships.map((m) => [m.id, m.state]));
          const mailsTo = new Map<string, string[]>();
          for (const mail of outbox)
            mailsTo.set(mail.to_address, [...(mailsTo.get(mail.to_address) ?? []), mail.subject]);
          expect(
            outbox.filter((mail) => !model.bySeatEmail.has(mail.to_address)).map((mail) => mail.to_address),
            `${where}: Mitgliedschafts-Mails an Unbekannte`,
          ).toEqual([]);
          let done = 0;
          let open = 0;
          for (const seat of model.seats) {
            const mine = mailsTo.get(seat.email) ?? [];
            const owedMails: string[] = [];
            for (const m of seat.memberships) {
              const what = `${where}: ${seat.kind} ${seat.email}, Mitgliedschaft ${m.id} (${m.from} bis ${m.until})`;
              const state = states.get(m.id);
              const recorded = audits.filter((row) => row.object_id === m.id).map((row) => row.action);
              if (m.target === m.initial) {
                expect(state, `${what}: Zustand`).toBe(m.initial);
                expect(recorded, `${what}: Protokoll ohne Anlass`).toEqual([]);
                continue;
              }
              expect([m.initial, m.target], `${what}: Zustand ${state}`).toContain(state);
              if (state === m.target) {
                done += 1;
                expect(recorded, `${what}: Protokoll`).toEqual([
                  m.target === 'active' ? 'membership.started' : 'membership.ended',
                ]);
                if (m.mail === 'start') owedMails.push(`begonnen ${germanDate(m.from)}`);
                if (m.mail === 'end') owedMails.push(`geendet ${germanDate(m.until)}`);
              } else {
                open += 1;
                expect(final, `${what}: nach dem Neustart nicht angewandt`).toBe(false);
                expect(recorded, `${what}: nicht angewandt, aber protokolliert`).toEqual([]);
              }
            }
            // The mails name the day: "… hat am 20.11.2026 begonnen" / "… hat am 19.11.2026 geendet".
            const sent = mine.map((subject) => {
              const match = /„(.+)“ hat am (\d\d\.\d\d\.\d{4}) (begonnen|geendet)$/.exec(subject);
              expect(match?.[1], `${where}: Betreff an ${seat.email}: ${subject}`).toBe(model.committeeName);
              return `${match![3]} ${match![2]}`;
            });
            expect(sent.sort(), `${where}: Mails an ${seat.kind} ${seat.email}`).toEqual(owedMails.sort());
            // The committee role follows the applied memberships; a direct role stays.
            const grants = seat.memberships.some(
              (m) => states.get(m.id) === 'active' && m.function !== 'ersatzmitglied',
            );
            const row = roles.find((candidate) => candidate.user_id === seat.userId);
            const expected =
              grants || seat.direct
                ? { user_id: seat.userId, direct: seat.direct ? 1 : 0, via_committee: grants ? 1 : 0 }
                : undefined;
            expect(row, `${where}: Rolle von ${seat.kind} ${seat.email}`).toEqual(expected);
          }
          const ids = new Set(outbox.map((mail) => mail.id));
          expect(
            [...knownOutbox].filter((id) => !ids.has(id)),
            `${where}: verlorene Mails`,
          ).toEqual([]);
          knownOutbox = ids;
          if (final) {
            stats.transitions = done;
            stats.mails = outbox.length;
          }
          return { done, open, owed: owedTransitions(model, states), mails: outbox.length, states };
        } finally {
          await db.close();
        }
      }

      /** Until the restarted portal's run has applied everything due. */
      async function settle(where: string) {
        for (const deadline = Date.now() + 60_000; ; await sleep(100)) {
          const db = place.inspect();
          try {
            const { memberships } = await membershipState(db, model);
            const states = new Map(memberships.map((m) => [m.id, m.state]));
            if (owedTransitions(model, states) === 0) return;
          } finally {
            await db.close();
          }
          if (Date.now() > deadline)
            throw new Error(`${where}: Mitgliedschaften nicht fortgeschrieben\n${errorLines(portal)}`);
        }
      }

      for (let round = 1; round <= ROUNDS; round += 1) {
        const where = `Runde ${round} (CRASH_SEED=${SEED})`;
        await addSeats(place, model, round, choices);
        const before = await check(`${where}, vor dem Start`, false);
        const transitions = await countTransitions(place.inspect);
        await place.startAndKill(
          await membershipKillMoment(
            round,
            place,
            { transitions, mails: before.mails },
            before.owed,
            choices,
          ),
        );
        const after = await check(`${where}, nach dem Abbruch`, false);
        if (after.done > before.done && after.owed > 0) stats.midRun += 1;
        // After every third round the next start must finish what is due; the others leave it to
        // the next round's run, so that kills also hit a run catching up.
        if (round % 3 === 0) {
          portal = await place.start();
          await settle(where);
          await portal.stop();
          await check(`${where}, nach dem Neustart`, true);
        }
      }

      console.log(
        `Absturztest Mitgliedschaften: ${ROUNDS} Abbrüche, ${stats.midRun} mitten im Lauf; ` +
          `${model.seats.length} Mitglieder, ${stats.transitions} Übergänge, ${stats.mails} Mails`,
      );
      // The kills must have hit runs in progress, or the test proved nothing.
      expect(stats.midRun, 'Abbrüche mitten im Lauf').toBeGreaterThanOrEqual(ROUNDS / 3);
    },
  );
});
