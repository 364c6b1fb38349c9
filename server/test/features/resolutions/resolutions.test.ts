import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Committee } from '@gremienportal/contracts/committees';
import { MOTION_MESSAGES, type VoteMode } from '@gremienportal/contracts/resolutions';
import { tally, type Choice } from '@gremienportal/contracts/tally';
import type { Actor } from '../../../src/plugins/auth.ts';
import type { Principal } from '../../../src/policies/principal.ts';
import type { AppError } from '../../../src/errors.ts';
import {
  canonicalJson,
  chainHash,
  committeeShort,
} from '../../../src/features/resolutions/resolution-chain.ts';
import { resolutionsService, verifyChains } from '../../../src/features/resolutions/resolutions.service.ts';
import { spawnServerScript } from '../../reliability/portal-process.ts';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createRoleUsers, createUser, type TestUser } from '../../support/factories.ts';
import { createTotpUser, freshCode, type TotpUser } from '../../support/two-factor.fixtures.ts';

/**
 * The Beschlussbuch (decision 190) below the routes: Feststellung by the Vorsitz with the second
 * factor, numbers per committee and term, the count from `tally()`, corrections as new entries,
 * and the hash chain that `verify-resolutions` recomputes. The motions are written straight into
 * the tables, as the motions feature would leave them closed.
 */
describe('resolutions', () => {
  let t: TestApp;
  let service: ReturnType<typeof resolutionsService>;
  let users: Awaited<ReturnType<typeof createRoleUsers>>;
  let aufsichtsrat: Committee;
  let chair: TotpUser;
  let members: TestUser[];
  const names = new Map<number, string>();
  const ids: Record<string, number> = {};

  const actorOf = (user: TestUser, isAdmin = false): Actor => ({
    ip: '127.0.0.1',
    principal: {
      id: user.id,
      sessionId: null,
      email: user.email,
      title: 'Frau',
      firstname: 'Test',
      lastname: 'Person',
      roles: [],
      roleIds: [],
      isAdmin,
      isSuperAdmin: false,
      twoFactorEnabled: true,
      needsTwoFactorSetup: false,
      emailVisibleToCommittees: false,
      hasCommitteeMemberships: true,
      readState: { since: '2026-01-01T00:00:00.000Z', version: 0 },
    } satisfies Principal,
  });
  const call = (user: TestUser, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: user.headers, ...(payload ? { payload } : {}) });
  const refused = async (promise: Promise<unknown>) => {
    const error = (await promise.then(
      () => null,
      (e: unknown) => e,
    )) as AppError | null;
    expect(error).not.toBeNull();
    return error!;
  };

  /** A closed motion with its electorate and votes, as the motions feature leaves it. */
  async function closedMotion(input: {
    title: string;
    mode: VoteMode;
    votes?: [TestUser, Choice][];
    ballots?: Choice[];
    voted?: TestUser[];
    conflicted?: TestUser[];
    state?: 'geschlossen' | 'abstimmung' | 'widersprochen';
  }): Promise<number> {
    const now = t.clock.now().toISOString();
    const { id } = await t.db.kysely
      .insertInto('motions')
      .values({
        committee_id: aufsichtsrat.id,
        event_id: null,
        agenda_item_id: null,
        title: input.title,
        text: `Der Aufsichtsrat beschließt: ${input.title}.`,
        justification: '',
        mode: input.mode,
        majority: 'simple',
        majority_basis: 'cast',
        quorum: 'more_than_half',
        state: input.state ?? 'geschlossen',
        procedure: 'sitzung',
        deadline: null,
        opened_at: now,
        closed_at: now,
        hand_ja: null,
        hand_nein: null,
        hand_enthaltung: null,
        created_by: chair.id,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const voters = new Set([
      ...(input.votes ?? []).map(([u]) => u.id),
      ...(input.voted ?? []).map((u) => u.id),
    ]);
    const conflicted = new Set((input.conflicted ?? []).map((u) => u.id));
    await t.db.kysely
      .insertInto('motion_electorate')
      .values(
        [chair, ...members].map((user) => ({
          motion_id: id,
          user_id: user.id,
          holder_name: names.get(user.id)!,
          function: user.id === chair.id ? ('vorsitz' as const) : ('mitglied' as const),
          voted: voters.has(user.id) ? 1 : 0,
          conflicted: conflicted.has(user.id) ? 1 : 0,
        })),
      )
      .execute();
    for (const [user, choice] of input.votes ?? []) {
      await t.db.kysely
        .insertInto('motion_votes')
        .values({ motion_id: id, user_id: user.id, choice, updated_at: now })
        .execute();
    }
    for (const choice of input.ballots ?? []) {
      await t.db.kysely
        .insertInto('motion_ballots')
        .values({ id: crypto.randomUUID(), motion_id: id, choice })
        .execute();
    }
    return id;
  }

  const stored = (id: number) =>
    t.db.kysely.selectFrom('resolutions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  beforeAll(async () => {
    t = await buildTestApp();
    service = resolutionsService(t.app.context);
    users = await createRoleUsers(t);
    aufsichtsrat = ((await call(users.admin, 'GET', '/committees')).json().data as Committee[]).find(
      (c) => c.kind === 'aufsichtsrat',
    )!;
    const term = await call(users.admin, 'POST', `/committees/${aufsichtsrat.id}/terms`, {
      start: '2026-07-01',
      end: '2030-06-30',
    });
    expect(term.statusCode, term.body).toBe(201);
    chair = await createTotpUser(t);
    members = [await createUser(t), await createUser(t), await createUser(t)];
    const people: [TestUser, string, string][] = [
      [chair, 'vorsitz', 'Anna Vorsitz'],
      [members[0]!, 'mitglied', 'Bernd Zander'],
      [members[1]!, 'mitglied', 'Änne Öztürk'],
      [members[2]!, 'mitglied', 'Carla Czerny'],
    ];
    for (const [user, fn, name] of people) {
      const [firstname, lastname] = name.split(' ');
      await t.db.kysely.updateTable('users').set({ firstname, lastname }).where('id', '=', user.id).execute();
      const res = await call(users.admin, 'POST', `/committees/${aufsichtsrat.id}/members`, {
        term_id: term.json().data.id,
        user_id: user.id,
        function: fn,
      });
      expect(res.statusCode, res.body).toBe(201);
      names.set(user.id, name);
    }
    await t.flushMail();
  });
  afterAll(() => t?.close());

  it('names committees by their kind or initials', () => {
    expect(committeeShort({ name: 'Aufsichtsrat', kind: 'aufsichtsrat' })).toBe('AR');
    expect(committeeShort({ name: 'Vertreterversammlung', kind: 'vertreterversammlung' })).toBe('VV');
    expect(committeeShort({ name: 'Bau- und Finanzausschuss', kind: 'ausschuss' })).toBe('BF');
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}',
    );
  });

  it('lets only the Vorsitz establish, with a right and fresh code, a closed motion', async () => {
    ids.motion1 = await closedMotion({
      title: '=Kauf des Grundstücks Hauptstraße 1',
      mode: 'namentlich',
      votes: [
        [chair, 'ja'],
        [members[0]!, 'ja'],
        [members[1]!, 'nein'],
        [members[2]!, 'enthaltung'],
      ],
    });
    const admin = await refused(service.establish(actorOf(users.admin, true), ids.motion1, '123456'));
    expect([admin.code, admin.message]).toEqual(['forbidden', MOTION_MESSAGES.onlyChair]);
    const member = await refused(service.establish(actorOf(members[0]!), ids.motion1, '123456'));
    expect(member.code).toBe('forbidden');

    const code = await freshCode(t, chair.secret);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const bad = await refused(service.establish(actorOf(chair), ids.motion1, wrong));
    expect([bad.code, bad.message]).toEqual(['validation', MOTION_MESSAGES.codeInvalid]);

    const open = await closedMotion({ title: 'Noch offen', mode: 'offen', state: 'abstimmung' });
    const unspent = await freshCode(t, chair.secret);
    const notClosed = await refused(service.establish(actorOf(chair), open, unspent));
    expect([notClosed.code, notClosed.message]).toEqual(['conflict', MOTION_MESSAGES.notClosed]);

    // A refused Feststellung does not use up the code: the same one establishes the closed motion.
    const first = await service.establish(actorOf(chair), ids.motion1, unspent);
    ids.r1 = first.id;
    const expected = tally({
      members: 4,
      conflicted: 0,
      ja: 2,
      nein: 1,
      enthaltung: 1,
      participants: 4,
      quorum: 'more_than_half',
      majority: 'simple',
      basis: 'cast',
      abstentionsCount: false,
      tie: 'rejected',
    });
    expect(first).toMatchObject({
      number: 'AR 2026/01',
      result: 'angenommen',
      reason: expected.reason,
      counts: { ja: 2, nein: 1, enthaltung: 1 },
      names: [
        // German collation: Ä sorts as A.
        { name: 'Anna Vorsitz', choice: 'ja' },
        { name: 'Änne Öztürk', choice: 'nein' },
        { name: 'Bernd Zander', choice: 'ja' },
        { name: 'Carla Czerny', choice: 'enthaltung' },
      ],
      established_by: 'Anna Vorsitz',
      previous_hash: null,
    });
    expect(first.reason).toMatch(/^Angenommen mit 2 Ja-Stimmen gegen 1 Nein-Stimme bei 1 Enthaltung/);
    const motion = await t.db.kysely
      .selectFrom('motions')
      .select('state')
      .where('id', '=', ids.motion1)
      .executeTakeFirstOrThrow();
    expect(motion.state).toBe('festgestellt');
    const row = await stored(first.id);
    expect(row.hash).toBe(chainHash(null, row.record));
    expect(JSON.parse(row.record)).toMatchObject({
      source: { event_id: null, agenda_item_id: null },
      file_ids: [],
    });

    // Once: the motion is festgestellt now.
    const again = await refused(
      service.establish(actorOf(chair), ids.motion1, await freshCode(t, chair.secret)),
    );
    expect(again.code).toBe('conflict');

    const audit = await t.db.kysely
      .selectFrom('audit_log')
      .select(['action', 'object_label', 'actor_id'])
      .where('action', '=', 'resolution.established')
      .execute();
    expect(audit).toEqual([
      { action: 'resolution.established', object_label: 'AR 2026/01', actor_id: chair.id },
    ]);
    const mails = (await t.flushMail()).filter((mail) => mail.subject.startsWith('Beschluss AR 2026/01'));
    expect(mails.map((mail) => mail.to).sort()).toEqual([chair, ...members].map((u) => u.email).sort());
    expect(mails[0]!.subject).toBe('Beschluss AR 2026/01: Angenommen');
  });

  it('refuses a TOTP code a second time and accepts a recovery code; counts a secret vote', async () => {
    ids.motion2 = await closedMotion({
      title: 'Wahl des Prüfers',
      mode: 'geheim',
      ballots: ['ja', 'nein', 'nein'],
      voted: [chair, members[0]!, members[1]!],
      conflicted: [members[2]!],
    });
    const code = await freshCode(t, chair.secret);
    const used = await service.establish(
      actorOf(chair),
      await closedMotion({ title: 'Zwischendurch', mode: 'offen', state: 'widersprochen' }),
      code,
    );
    expect(used).toMatchObject({ number: 'AR 2026/02', result: 'widersprochen', counts: null });
    const replay = await refused(service.establish(actorOf(chair), ids.motion2, code));
    expect(replay.message).toBe(MOTION_MESSAGES.codeInvalid);

    const second = await service.establish(actorOf(chair), ids.motion2, chair.recoveryCodes[0]!);
    ids.r2 = second.id;
    expect(second).toMatchObject({
      number: 'AR 2026/03',
      result: 'abgelehnt',
      counts: { ja: 1, nein: 2, enthaltung: 0 },
      names: null,
      conflicts: ['Carla Czerny'],
    });
    expect(second.reason).toContain('1 Mitglied hat wegen eines Interessenkonflikts nicht mitgestimmt.');
    expect(second.previous_hash).toBe((await stored(used.id)).hash);
  });

  it('corrects with a new linked entry and never changes the old one', async () => {
    const before = await stored(ids.r1!);
    const correction = await service.correct(actorOf(chair), ids.r1!, {
      text: 'Der Aufsichtsrat beschließt den Kauf des Grundstücks Hauptstraße 1a.',
      reason: 'Hausnummer falsch übertragen',
    });
    ids.r3 = correction.id;
    expect(correction).toMatchObject({
      number: 'AR 2026/04',
      title: 'Berichtigung zu AR 2026/01',
      result: 'angenommen',
      corrects: { id: ids.r1, number: 'AR 2026/01' },
      previous_hash: (await stored(ids.r2!)).hash,
    });
    expect(await stored(ids.r1!)).toEqual(before);
    expect((await stored(correction.id)).corrects_id).toBe(ids.r1);
    expect(Object.keys(service)).not.toContain('update');
    const other = await refused(
      service.correct(actorOf(users.admin, true), ids.r1!, { text: 'x'.repeat(20), reason: 'Admin' }),
    );
    expect(other.message).toBe(MOTION_MESSAGES.onlyChair);
  });

  it("lists the member's committees only, newest first, with filters, and exports a safe CSV", async () => {
    const numbers = (rows: { number: string }[]) => rows.map((row) => row.number);
    expect(numbers(await service.list(actorOf(chair).principal))).toEqual([
      'AR 2026/04',
      'AR 2026/03',
      'AR 2026/02',
      'AR 2026/01',
    ]);
    expect(await service.list(actorOf(users.vertreter).principal)).toEqual([]);
    expect(await service.list(actorOf(users.admin, true).principal)).toHaveLength(4);
    const p = actorOf(members[0]!).principal;
    expect(numbers(await service.list(p, { result: 'abgelehnt' }))).toEqual(['AR 2026/03']);
    expect(numbers(await service.list(p, { q: 'grundstück' }))).toEqual(['AR 2026/04', 'AR 2026/01']);
    expect(await service.list(p, { year: 2025 })).toEqual([]);
    expect(await service.list(p, { year: 2026, committee_id: aufsichtsrat.id })).toHaveLength(4);
    const csv = await service.csv(p);
    expect(csv.startsWith('\uFEFF"Nummer";"Gremium";"Titel"')).toBe(true);
    expect(csv).toContain(`"AR 2026/01";"Aufsichtsrat";"'=Kauf des Grundstücks Hauptstraße 1"`);
  });

  it('finds a changed and a removed entry, and the command line says so', { timeout: 60_000 }, async () => {
    expect(await verifyChains(t.db)).toEqual({ ok: true, count: 4 });
    const cli = () =>
      spawnServerScript('src/cli.ts', ['verify-resolutions'], {
        ...process.env,
        DATA_DIR: t.dataDir,
        DATABASE_URL: t.config.DATABASE_URL ?? '',
        PUBLIC_URL: 'http://portal.test',
        LOG_LEVEL: 'warn',
      });
    const fine = cli();
    expect(await fine.exited, fine.output()).toBe(0);
    expect(fine.output()).toContain('Beschlussbuch in Ordnung: 4 Einträge geprüft.');

    const original = await stored(ids.r2!);
    const changed = JSON.parse(original.record);
    changed.text = 'Der Aufsichtsrat beschließt etwas anderes.';
    await t.db.kysely
      .updateTable('resolutions')
      .set({ record: canonicalJson(changed) })
      .where('id', '=', ids.r2!)
      .execute();
    expect(await verifyChains(t.db)).toMatchObject({ ok: false, number: 'AR 2026/03' });
    expect(((await verifyChains(t.db)) as { reason: string }).reason).toContain('verändert');
    await t.db.kysely
      .updateTable('resolutions')
      .set({ record: original.record })
      .where('id', '=', ids.r2!)
      .execute();
    expect(await verifyChains(t.db)).toEqual({ ok: true, count: 4 });

    await t.db.kysely.deleteFrom('resolutions').where('id', '=', ids.r2!).execute();
    const removed = await verifyChains(t.db);
    expect(removed).toMatchObject({ ok: false, number: 'AR 2026/04' });
    const broken = cli();
    expect(await broken.exited, broken.output()).toBe(1);
    expect(broken.output()).toContain('Beschlussbuch fehlerhaft bei AR 2026/04');
  });
});
