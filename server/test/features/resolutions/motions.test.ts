import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { MOTION_MESSAGES, type VoteMode } from '@gremienportal/contracts/resolutions';
import type { Choice } from '@gremienportal/contracts/tally';
import { HOUR } from '../../../src/clock.ts';
import { AppError } from '../../../src/errors.ts';
import type { Actor } from '../../../src/plugins/auth.ts';
import type { Principal } from '../../../src/policies/principal.ts';
import { closeDue, motionsService } from '../../../src/features/resolutions/motions.service.ts';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createUser, type TestUser } from '../../support/factories.ts';
import { committeeOf } from '../../support/memberships.fixtures.ts';

/**
 * The motions' domain layer (decision 190), through the service: the electorate fixed at opening,
 * the one door for a vote (states, deadline, conflicts, secret ballots), an objection that ends an
 * Umlaufverfahren once under concurrency, hand counts, and a secret vote nothing stored can undo.
 */
describe('motions: electorate, votes, objections, secrecy', () => {
  let t: TestApp;
  let admin: TestUser;
  let chair: TestUser;
  let secretary: TestUser;
  let substitute: TestUser;
  let outsider: TestUser;
  let leaver: TestUser;
  const members: TestUser[] = [];
  let committeeId: number;
  let termId: number;
  const names = new Map<number, string>();

  const principal = (user: TestUser, isAdmin = false): Principal => ({
    id: user.id,
    sessionId: null,
    email: user.email,
    title: 'Frau',
    firstname: 'Test',
    lastname: names.get(user.id) ?? 'Test',
    roles: isAdmin ? ['Admin'] : [],
    roleIds: [],
    isAdmin,
    isSuperAdmin: false,
    twoFactorEnabled: false,
    needsTwoFactorSetup: false,
    emailVisibleToCommittees: false,
    hasCommitteeMemberships: true,
    readState: { since: '2026-01-01T00:00:00.000Z', version: 0 },
  });
  const as = (user: TestUser, isAdmin = false): Actor => ({
    principal: principal(user, isAdmin),
    ip: '127.0.0.1',
  });
  const svc = () => motionsService(t.app.context);
  const rejects = async (promise: Promise<unknown>, code: AppError['code'], message?: string) => {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error, 'should have been refused').toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe(code);
    if (message) expect((error as AppError).message).toBe(message);
  };
  const draft = (mode: VoteMode, title = 'Neufassung der Geschäftsordnung') =>
    svc().create(as(secretary), {
      committee_id: committeeId,
      title,
      text: 'Der Aufsichtsrat beschließt die Neufassung seiner Geschäftsordnung.',
      mode,
    });
  const openSitzung = async (mode: VoteMode, deadline?: string) => {
    const motion = await draft(mode);
    return svc().open(as(chair), motion.id, { procedure: 'sitzung', ...(deadline ? { deadline } : {}) });
  };
  const addMember = async (user: TestUser, body: object = { function: 'mitglied' }) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/committees/${committeeId}/members`,
      headers: admin.headers,
      payload: { term_id: termId, user_id: user.id, ...body },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id as number;
  };
  const auditOf = (motionId: number, action: string) =>
    t.db.kysely
      .selectFrom('audit_log')
      .selectAll()
      .where('object_type', '=', 'motion')
      .where('object_id', '=', motionId)
      .where('action', '=', action)
      .execute();
  const electorIds = async (motionId: number) =>
    (
      await t.db.kysely
        .selectFrom('motion_electorate')
        .select('user_id')
        .where('motion_id', '=', motionId)
        .execute()
    ).map((row) => row.user_id);

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await createUser(t, { roles: ['Admin'] });
    const mk = async (lastname: string) => {
      const user = await createUser(t, { lastname });
      names.set(user.id, lastname);
      return user;
    };
    chair = await mk('Vorsitz');
    secretary = await mk('Schriftführung');
    substitute = await mk('Ersatz');
    outsider = await mk('Außen');
    leaver = await mk('Ausscheider');
    for (let i = 0; i < 30; i += 1) members.push(await mk(`Mitglied ${String(i).padStart(2, '0')}`));
    committeeId = (await committeeOf(t, 'Aufsichtsrat')).id;
    const term = await t.app.inject({
      method: 'POST',
      url: `/api/v1/committees/${committeeId}/terms`,
      headers: admin.headers,
      payload: { start: '2026-07-01', end: '2030-06-30' },
    });
    expect(term.statusCode, term.body).toBe(201);
    termId = term.json().data.id;
    await addMember(chair, { function: 'vorsitz' });
    await addMember(secretary, { function: 'schriftfuehrung' });
    await addMember(substitute, { function: 'ersatzmitglied', rank: 1 });
    await addMember(leaver);
    for (const member of members) await addMember(member);
  });
  afterAll(() => t?.close());

  it('creates drafts with the committee’s rules for the Schriftführung and the Vorsitz only', async () => {
    const motion = await draft('offen');
    expect(motion).toMatchObject({
      state: 'entwurf',
      majority: 'simple',
      majority_basis: 'cast',
      quorum: 'more_than_half',
      procedure: null,
      counts: null,
      own: { elector: false, voted: false, choice: null },
    });
    const body = {
      committee_id: committeeId,
      title: 'Versuch',
      text: 'Ein Text mit genug Zeichen.',
      mode: 'offen' as const,
    };
    await rejects(svc().create(as(outsider), body), 'not_found');
    await rejects(svc().create(as(members[0]!), body), 'forbidden', MOTION_MESSAGES.onlyChairOrSecretary);
    await rejects(
      svc().create(as(secretary), { ...body, event_id: 999_999 }),
      'validation',
      MOTION_MESSAGES.eventNotFound,
    );
    await rejects(svc().get(principal(outsider), motion.id), 'not_found');
    await rejects(svc().open(as(secretary), motion.id, { procedure: 'sitzung' }), 'forbidden');
    expect((await svc().get(principal(admin, true), motion.id)).title).toBe(
      'Neufassung der Geschäftsordnung',
    );
    await svc().remove(as(secretary), motion.id);
    await rejects(svc().get(principal(admin, true), motion.id), 'not_found');
  });

  it('fixes the electorate at opening: a later member gets no vote, one who leaves keeps it', async () => {
    const motion = await openSitzung('offen');
    const electors = await electorIds(motion.id);
    // Vorsitz, Schriftführung, the leaver and 30 members; no Ersatzmitglied.
    expect(electors).toHaveLength(33);
    expect(electors).not.toContain(substitute.id);

    const late = await createUser(t, { lastname: 'Nachzügler' });
    await addMember(late);
    const leaverMembership = await t.db.kysely
      .selectFrom('committee_memberships')
      .select('id')
      .where('user_id', '=', leaver.id)
      .executeTakeFirstOrThrow();
    const ended = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/memberships/${leaverMembership.id}`,
      headers: admin.headers,
      payload: { function: 'mitglied', from: '2026-07-01', until: '2026-11-20', reason: 'ruecktritt' },
    });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json().data.active).toBe(false);

    await rejects(svc().vote(as(late), motion.id, 'ja'), 'forbidden', MOTION_MESSAGES.notElector);
    await rejects(svc().vote(as(substitute), motion.id, 'ja'), 'forbidden', MOTION_MESSAGES.notElector);
    await svc().vote(as(leaver), motion.id, 'nein');
    expect((await svc().get(principal(leaver), motion.id)).own).toMatchObject({
      elector: true,
      voted: true,
      choice: 'nein',
    });
    await rejects(svc().vote(as(outsider), motion.id, 'ja'), 'not_found');
    // A later vote no longer has them.
    const next = await openSitzung('offen');
    expect(await electorIds(next.id)).toContain(late.id);
    expect(await electorIds(next.id)).not.toContain(leaver.id);
  });

  it('lets an open vote change, shows counts only after closing, and refuses votes after it (409)', async () => {
    const motion = await openSitzung('namentlich');
    await svc().vote(as(members[0]!), motion.id, 'nein');
    await svc().vote(as(members[0]!), motion.id, 'ja');
    await svc().vote(as(members[1]!), motion.id, 'enthaltung');
    const running = await svc().get(principal(members[0]!), motion.id);
    expect(running.own.choice).toBe('ja');
    expect(running.counts).toBeNull();
    expect(running.names).toBeNull();
    expect(await auditOf(motion.id, 'motion.voted')).toHaveLength(3);
    expect(JSON.stringify(await auditOf(motion.id, 'motion.voted'))).not.toMatch(/"(ja|nein|enthaltung)"/);

    const closed = await svc().close(as(chair), motion.id);
    expect(closed.state).toBe('geschlossen');
    expect(closed.counts).toEqual({ ja: 1, nein: 0, enthaltung: 1 });
    expect(closed.names).toEqual([
      { name: expect.stringContaining('Mitglied 00'), choice: 'ja' },
      { name: expect.stringContaining('Mitglied 01'), choice: 'enthaltung' },
    ]);
    await rejects(svc().vote(as(members[2]!), motion.id, 'ja'), 'conflict', MOTION_MESSAGES.notOpen);
    await rejects(svc().close(as(chair), motion.id), 'conflict', MOTION_MESSAGES.notOpen);
  });

  it('refuses a vote after the deadline (409)', async () => {
    const start = t.clock.now();
    const motion = await openSitzung('offen', new Date(start.getTime() + HOUR).toISOString());
    await svc().vote(as(members[0]!), motion.id, 'ja');
    t.clock.advance(2 * HOUR);
    try {
      await rejects(svc().vote(as(members[1]!), motion.id, 'ja'), 'conflict', MOTION_MESSAGES.deadlinePassed);
    } finally {
      t.clock.set(start);
    }
  });

  it('keeps a conflicted member out (403), removes their vote, and lets only the Vorsitz declare for others', async () => {
    const motion = await openSitzung('offen');
    await svc().vote(as(members[3]!), motion.id, 'ja');
    await svc().declareConflict(as(members[3]!), motion.id);
    await rejects(svc().vote(as(members[3]!), motion.id, 'nein'), 'forbidden', MOTION_MESSAGES.conflicted);
    await rejects(svc().declareConflict(as(members[5]!), motion.id, members[4]!.id), 'forbidden');
    await svc().declareConflict(as(chair), motion.id, members[4]!.id);
    await rejects(svc().vote(as(members[4]!), motion.id, 'ja'), 'forbidden', MOTION_MESSAGES.conflicted);
    const closed = await svc().close(as(chair), motion.id);
    expect(closed.counts).toEqual({ ja: 0, nein: 0, enthaltung: 0 });
    expect(closed.conflicts).toHaveLength(2);

    const secret = await openSitzung('geheim');
    await svc().vote(as(members[6]!), secret.id, 'ja');
    await rejects(
      svc().declareConflict(as(members[6]!), secret.id),
      'conflict',
      MOTION_MESSAGES.conflictAfterSecretVote,
    );
  });

  it('takes one secret ballot per member, never shows the choice and records participation at closing', async () => {
    const motion = await openSitzung('geheim');
    expect(motion.own).toMatchObject({ elector: true, voted: false, choice: null });
    const voters: [TestUser, Choice][] = [
      [members[9]!, 'ja'],
      [members[7]!, 'nein'],
      [members[8]!, 'ja'],
    ];
    for (const [user, choice] of voters) await svc().vote(as(user), motion.id, choice);
    await rejects(
      svc().vote(as(members[7]!), motion.id, 'ja'),
      'conflict',
      MOTION_MESSAGES.alreadyVotedSecret,
    );
    await rejects(
      svc().handCount(as(chair), motion.id, { ja: 1, nein: 0, enthaltung: 0 }),
      'conflict',
      MOTION_MESSAGES.handCountSecret,
    );
    expect((await svc().get(principal(members[7]!), motion.id)).own).toMatchObject({
      voted: true,
      choice: null,
    });
    expect(await auditOf(motion.id, 'motion.voted')).toHaveLength(0);

    const ballotIds = (
      await t.db.kysely.selectFrom('motion_ballots').select('id').where('motion_id', '=', motion.id).execute()
    ).map((row) => row.id);
    expect(ballotIds).toHaveLength(3);
    for (const id of ballotIds) expect(id).toMatch(/^[0-9a-f-]{36}$/);

    const closed = await svc().close(as(chair), motion.id);
    expect(closed.counts).toEqual({ ja: 2, nein: 1, enthaltung: 0 });
    expect((await svc().get(principal(members[7]!), motion.id)).own.choice).toBeNull();
    const participation = await auditOf(motion.id, 'motion.secret_participation');
    expect(participation).toHaveLength(1);
    const listed = (JSON.parse(participation[0]!.details!) as { participants: string[] }).participants;
    expect(listed).toHaveLength(3);
    expect(listed).toEqual([...listed].sort((a, b) => a.localeCompare(b, 'de')));
    expect(listed[0]).toContain('Mitglied 07');

    // Secrecy: no row of any table links a voter to a ballot or a choice of this vote.
    const tables =
      t.db.dialect === 'postgres'
        ? (
            await sql<{ name: string }>`select table_name as name from information_schema.tables
              where table_schema = 'public' and table_type = 'BASE TABLE'`.execute(t.db.kysely)
          ).rows
        : (
            await sql<{ name: string }>`select name from sqlite_master where type = 'table'
              and name not like 'sqlite_%'`.execute(t.db.kysely)
          ).rows;
    expect(tables.map((row) => row.name)).toContain('motion_ballots');
    const choices = new Set(['ja', 'nein', 'enthaltung']);
    for (const { name } of tables) {
      const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(t.db.kysely))
        .rows;
      for (const row of rows) {
        const values = Object.values(row).map((value) => String(value));
        if (values.some((value) => ballotIds.some((id) => value.includes(id)))) {
          expect(name, `ballot id in ${name}`).toBe('motion_ballots');
          expect(Object.keys(row).sort()).toEqual(['choice', 'id', 'motion_id']);
        }
        const ofMotion =
          (row.motion_id !== undefined && Number(row.motion_id) === motion.id) ||
          (name === 'audit_log' && row.object_type === 'motion' && Number(row.object_id) === motion.id);
        if (ofMotion && name !== 'motion_ballots') {
          expect(
            Object.values(row).some(
              (value) =>
                typeof value === 'string' && (choices.has(value) || /"(ja|nein|enthaltung)"/.test(value)),
            ),
            `a choice next to the voters in ${name}`,
          ).toBe(false);
        }
      }
    }
    expect(
      await t.db.kysely
        .selectFrom('motion_votes')
        .select('user_id')
        .where('motion_id', '=', motion.id)
        .execute(),
    ).toEqual([]);
  });

  it('adds hand counts to the online votes and refuses more than may still vote', async () => {
    const motion = await openSitzung('offen');
    const electors = (await electorIds(motion.id)).length;
    await svc().vote(as(members[0]!), motion.id, 'ja');
    await svc().vote(as(members[1]!), motion.id, 'nein');
    await svc().declareConflict(as(members[2]!), motion.id);
    const may = electors - 1 - 2;
    await rejects(
      svc().handCount(as(chair), motion.id, { ja: may, nein: 1, enthaltung: 0 }),
      'validation',
      MOTION_MESSAGES.tooManyVotes,
    );
    await rejects(
      svc().handCount(as(members[3]!), motion.id, { ja: 1, nein: 0, enthaltung: 0 }),
      'forbidden',
    );
    await svc().handCount(as(chair), motion.id, { ja: may - 2, nein: 1, enthaltung: 1 });
    const closed = await svc().close(as(chair), motion.id);
    expect(closed.counts).toEqual({ ja: may - 1, nein: 2, enthaltung: 1 });
  });

  it('mails every elector for an Umlaufverfahren and refuses it without a future deadline', async () => {
    const motion = await draft('offen', 'Umlauf Budget');
    await rejects(
      svc().open(as(chair), motion.id, { procedure: 'umlauf' }),
      'validation',
      MOTION_MESSAGES.deadlineRequired,
    );
    await rejects(
      svc().open(as(chair), motion.id, { procedure: 'umlauf', deadline: '2026-11-01T10:00:00Z' }),
      'validation',
      MOTION_MESSAGES.deadlineInPast,
    );
    const opened = await svc().open(as(chair), motion.id, {
      procedure: 'umlauf',
      deadline: '2026-12-01T17:00:00+01:00',
    });
    expect(opened.deadline).toBe('2026-12-01T16:00:00.000Z');
    const mails = await t.db.kysely
      .selectFrom('outbox')
      .select(['to_address', 'text_body'])
      .where('subject', '=', 'Abstimmung im Umlaufverfahren: Umlauf Budget')
      .execute();
    const electors = await electorIds(motion.id);
    expect(mails).toHaveLength(electors.length);
    expect(mails[0]!.text_body).toContain('01.12.2026 17:00 Uhr');
    const unmailed = await t.db.kysely
      .selectFrom('motion_electorate')
      .select('user_id')
      .where('motion_id', '=', motion.id)
      .where('mailed_at', 'is', null)
      .execute();
    expect(unmailed).toEqual([]);
    await rejects(
      svc().handCount(as(chair), motion.id, { ja: 0, nein: 0, enthaltung: 0 }),
      'conflict',
      MOTION_MESSAGES.handCountOnlySitzung,
    );
    const sitzung = await openSitzung('offen');
    await rejects(svc().object(as(members[0]!), sitzung.id), 'conflict', MOTION_MESSAGES.objectionOnlyUmlauf);
  });

  it('ends an Umlaufverfahren once on an objection amid 30 concurrent votes', async () => {
    const motion = await draft('offen', 'Umlauf mit Widerspruch');
    await svc().open(as(chair), motion.id, { procedure: 'umlauf', deadline: '2026-12-01T17:00:00+01:00' });
    const results = await Promise.allSettled([
      ...members.slice(0, 15).map((m) => svc().vote(as(m), motion.id, 'ja')),
      svc().object(as(chair), motion.id, 'Bitte in der Sitzung beraten.'),
      ...members.slice(15).map((m) => svc().vote(as(m), motion.id, 'nein')),
    ]);
    const objection = results[15]!;
    expect(objection.status).toBe('fulfilled');
    expect((objection as PromiseFulfilledResult<{ stopped: boolean }>).value.stopped).toBe(true);
    const votes = [...results.slice(0, 15), ...results.slice(16)];
    const accepted = votes.filter((r) => r.status === 'fulfilled').length;
    for (const r of votes) {
      if (r.status === 'rejected') expect((r.reason as AppError).message).toBe(MOTION_MESSAGES.notOpen);
    }
    const stored = await t.db.kysely
      .selectFrom('motion_votes')
      .select('user_id')
      .where('motion_id', '=', motion.id)
      .execute();
    expect(stored).toHaveLength(accepted);
    expect(await auditOf(motion.id, 'motion.voted')).toHaveLength(accepted);
    expect(await auditOf(motion.id, 'motion.objection_stopped')).toHaveLength(1);
    const motionRow = await t.db.kysely
      .selectFrom('motions')
      .selectAll()
      .where('id', '=', motion.id)
      .executeTakeFirstOrThrow();
    expect(motionRow.state).toBe('widersprochen');
    const mails = await t.db.kysely
      .selectFrom('outbox')
      .select('to_address')
      .where('subject', '=', 'Umlaufverfahren durch Widerspruch beendet: Umlauf mit Widerspruch')
      .execute();
    expect(mails).toHaveLength((await electorIds(motion.id)).length);
    await rejects(svc().object(as(members[0]!), motion.id), 'conflict', MOTION_MESSAGES.notOpen);
  });

  it('closes an Umlaufverfahren at its deadline once, and voids a vote edited after opening', async () => {
    const motion = await draft('geheim', 'Umlauf mit Frist');
    const start = t.clock.now();
    await svc().open(as(chair), motion.id, {
      procedure: 'umlauf',
      deadline: new Date(start.getTime() + HOUR).toISOString(),
    });
    await svc().vote(as(members[0]!), motion.id, 'ja');
    t.clock.advance(HOUR + 1);
    try {
      const [a, b] = await Promise.all([closeDue(t.app.context), closeDue(t.app.context)]);
      expect(a + b).toBe(1);
    } finally {
      t.clock.set(start);
    }
    expect((await svc().get(principal(chair), motion.id)).state).toBe('geschlossen');
    expect(await auditOf(motion.id, 'motion.closed')).toHaveLength(1);
    expect(await auditOf(motion.id, 'motion.secret_participation')).toHaveLength(1);

    const running = await openSitzung('offen');
    await svc().vote(as(members[0]!), running.id, 'ja');
    await rejects(
      svc().update(as(secretary), running.id, { title: 'Geänderter Titel' }),
      'forbidden',
      MOTION_MESSAGES.onlyChair,
    );
    await rejects(svc().remove(as(chair), running.id), 'conflict', MOTION_MESSAGES.notDraft);
    const { motion: edited, voided } = await svc().update(as(chair), running.id, {
      title: 'Geänderter Titel',
    });
    expect(voided).toBe(MOTION_MESSAGES.voided);
    expect(edited).toMatchObject({ state: 'entwurf', title: 'Geänderter Titel', procedure: null });
    expect(await electorIds(running.id)).toEqual([]);
    expect(
      await t.db.kysely
        .selectFrom('motion_votes')
        .select('user_id')
        .where('motion_id', '=', running.id)
        .execute(),
    ).toEqual([]);
    const told = await t.db.kysely
      .selectFrom('outbox')
      .select('id')
      .where('subject', '=', 'Abstimmung ungültig: Geänderter Titel')
      .execute();
    expect(told.length).toBeGreaterThan(30);
    const again = await svc().update(as(secretary), running.id, { justification: 'Nachgereicht.' });
    expect(again.voided).toBeNull();
  });
});
