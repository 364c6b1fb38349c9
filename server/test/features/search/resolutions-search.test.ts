import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Committee } from '@gremienportal/contracts/committees';
import {
  canonicalJson,
  chainHash,
  type ResolutionRecord,
} from '../../../src/features/resolutions/resolution-chain.ts';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createRoleUsers, createUser, type TestUser } from '../../support/factories.ts';
import { uploadFile } from '../../support/files.fixtures.ts';

/**
 * Resolutions in the search (decision 190): found by number, title and text exactly by those the
 * Beschlussbuch shows them to (admins all, anyone else the resolutions of the committees they are
 * an active member of now), never in hits, counts or snippets of anyone else, and no longer once
 * the membership has ended. The entries are written straight into the table, as Feststellung
 * leaves them.
 */
describe('search: resolutions', () => {
  let t: TestApp;
  let users: Awaited<ReturnType<typeof createRoleUsers>>;
  let committees: Committee[];
  /** A member of the Aufsichtsrat, and one of the Vertreterversammlung with the role Vertreter. */
  let arMember: TestUser;
  let vvMember: TestUser;
  let arMembership: number;
  const ids: Record<string, number> = {};

  const call = (user: TestUser, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: user.headers, ...(payload ? { payload } : {}) });
  const committee = (kind: string) => committees.find((c) => c.kind === kind)!;

  type Hit = {
    type: string;
    id: number;
    title: string;
    highlight: [number, number][];
    snippet: { text: string; ranges: [number, number][] } | null;
    breadcrumb: string | null;
    date: string;
  };
  const search = async (headers: Record<string, string>, query: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/search?${query}`, headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { data: Hit[]; meta: { total: number } };
  };
  const q = (value: string) => `q=${encodeURIComponent(value)}`;
  const found = async (user: TestUser, query: string) =>
    (await search(user.headers, query)).data.map((hit) => `${hit.type} ${hit.title}`);

  /** A term of the committee (2026-07-01 to 2030-06-30) and the people as its members. */
  async function members(kind: string, people: TestUser[]): Promise<number[]> {
    const { id } = committee(kind);
    const term = await call(users.admin, 'POST', `/committees/${id}/terms`, {
      start: '2026-07-01',
      end: '2030-06-30',
    });
    expect(term.statusCode, term.body).toBe(201);
    const created: number[] = [];
    for (const person of people) {
      const res = await call(users.admin, 'POST', `/committees/${id}/members`, {
        term_id: term.json().data.id,
        user_id: person.id,
        function: 'mitglied',
      });
      expect(res.statusCode, res.body).toBe(201);
      created.push(res.json().data.id);
    }
    return created;
  }

  /** An entry of the committee's Beschlussbuch with a valid record, appended to its chain. */
  async function resolution(kind: string, number: string, title: string, text: string): Promise<number> {
    const { id: committeeId, name } = committee(kind);
    const term = await t.db.kysely
      .selectFrom('committee_terms')
      .select(['id'])
      .where('committee_id', '=', committeeId)
      .executeTakeFirstOrThrow();
    const previous = await t.db.kysely
      .selectFrom('resolutions')
      .select(['hash', 'sequence'])
      .where('committee_id', '=', committeeId)
      .orderBy('id', 'desc')
      .executeTakeFirst();
    const establishedAt = t.clock.now().toISOString();
    const record: ResolutionRecord = {
      number,
      committee: { id: committeeId, name },
      motion_id: null,
      title,
      text,
      mode: 'offen',
      procedure: 'sitzung',
      rules: null,
      members: 5,
      participants: 5,
      counts: { ja: 4, nein: 1, enthaltung: 0 },
      names: null,
      conflicts: [],
      result: 'angenommen',
      reason: 'Mehrheit der abgegebenen Stimmen.',
      established_at: establishedAt,
      established_by: { id: users.admin.id, name: 'Anna Vorsitz' },
      source: { event_id: null, agenda_item_id: null },
      file_ids: [],
      corrects: null,
      correction_reason: null,
    };
    const canonical = canonicalJson(record);
    const previousHash = previous?.hash ?? null;
    const { id } = await t.db.kysely
      .insertInto('resolutions')
      .values({
        committee_id: committeeId,
        term_id: term.id,
        motion_id: null,
        number,
        sequence: (previous?.sequence ?? 0) + 1,
        result: 'angenommen',
        established_at: establishedAt,
        record: canonical,
        previous_hash: previousHash,
        hash: chainHash(previousHash, canonical),
        corrects_id: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  }

  beforeAll(async () => {
    t = await buildTestApp();
    users = await createRoleUsers(t);
    committees = (await call(users.admin, 'GET', '/committees')).json().data as Committee[];
    arMember = await createUser(t);
    vvMember = await createUser(t, { roles: ['Vertreter'] });
    arMembership = (await members('aufsichtsrat', [arMember]))[0]!;
    await members('vertreterversammlung', [vvMember]);
    ids.grundstueck = await resolution(
      'aufsichtsrat',
      'AR 2026/07',
      'Kauf des Grundstücks Hauptstraße 1',
      'Der Aufsichtsrat stimmt dem Erwerb des Grundstücks zu. Kaufpreis höchstens 1,2 Mio. Euro, ' +
        'finanziert aus der Instandhaltungsrücklage. Codewort Zitronenfalter.',
    );
    ids.wahl = await resolution(
      'vertreterversammlung',
      'VV 2026/01',
      'Wahlordnung 2027',
      'Die Vertreterversammlung beschließt die Wahlordnung mit den Änderungen der Vorlage.',
    );
    // A document every Vertreter may see that shares a word with the Aufsichtsrat's resolution.
    ids.bericht = (
      await uploadFile(t, users.admin, {
        title: 'Bericht Instandhaltung',
        folderId: 4,
        roles: ['Aufsichtsrat', 'Vertreter'],
        content: 'Die Instandhaltungsrücklage wächst.',
        filename: 'bericht.txt',
        type: 'text/plain',
      })
    ).id;
    expect(await t.app.searchIndexer.drain()).toBe(1);
  });
  afterAll(() => t?.close());

  it('lets a member of the committee find a resolution by a word of its text and by its number', async () => {
    const byText = await search(arMember.headers, q('Zitronenfalter'));
    expect(byText.meta.total).toBe(1);
    const hit = byText.data[0]!;
    expect(hit).toMatchObject({
      type: 'resolution',
      id: ids.grundstueck,
      title: 'AR 2026/07 – Kauf des Grundstücks Hauptstraße 1',
      breadcrumb: 'Aufsichtsrat',
      highlight: [],
    });
    expect(hit.snippet!.text).toContain('Codewort Zitronenfalter');
    const marked = hit.snippet!.ranges.map(([start, end]) => hit.snippet!.text.slice(start, end));
    expect(marked).toEqual(['Zitronenfalter']);
    // German matching as for documents: umlauts written out, parts of words.
    expect(await found(arMember, q('Instandhaltungsruecklage Kaufpreis'))).toEqual([
      'resolution AR 2026/07 – Kauf des Grundstücks Hauptstraße 1',
    ]);

    const byNumber = await search(arMember.headers, q('AR 2026/07'));
    expect(byNumber.data.map((h) => h.id)).toEqual([ids.grundstueck]);
    const title = byNumber.data[0]!;
    expect(title.highlight.map(([start, end]) => title.title.slice(start, end))).toEqual(['AR', '2026/07']);
    // Found by its number and title only: no snippet.
    expect(title.snippet).toBeNull();
    expect(await found(arMember, q('grundstuecks hauptstrasse'))).toEqual([
      'resolution AR 2026/07 – Kauf des Grundstücks Hauptstraße 1',
    ]);
    // The member sees no other committee's resolutions.
    expect(await found(arMember, q('Wahlordnung'))).toEqual([]);
  });

  it('never shows a resolution to anyone outside the committee: no hit, no count, no snippet', async () => {
    for (const user of [users.vertreter, vvMember, users.aufsichtsrat]) {
      // users.aufsichtsrat holds the role, but no membership: the Beschlussbuch shows them nothing.
      expect(await search(user.headers, q('Zitronenfalter'))).toEqual({
        data: [],
        meta: { total: 0, page: 1, per_page: 20 },
      });
      expect((await search(user.headers, q('AR 2026/07'))).meta.total).toBe(0);
      const shared = await search(user.headers, q('Instandhaltungsrücklage'));
      expect(shared.data.map((hit) => `${hit.type} ${hit.id}`)).toEqual([`file ${ids.bericht}`]);
      expect(shared.meta.total).toBe(1);
      expect(JSON.stringify(shared)).not.toContain('Grundstück');
      const suggest = await t.app.inject({
        method: 'GET',
        url: `/api/v1/search/suggest?${q('AR 2026')}`,
        headers: user.headers,
      });
      expect(suggest.json()).toEqual({ data: [] });
    }
    // The Vertreterversammlung's member finds their own committee's resolution.
    expect(await found(vvMember, q('Wahlordnung Vorlage'))).toEqual([
      'resolution VV 2026/01 – Wahlordnung 2027',
    ]);
    expect((await search(arMember.headers, q('Instandhaltungsrücklage'))).meta.total).toBe(2);
  });

  it('shows admins every resolution, and filters by kind', async () => {
    for (const admin of [users.admin, users.superAdmin]) {
      expect((await found(admin, q('2026/0'))).sort()).toEqual([
        'resolution AR 2026/07 – Kauf des Grundstücks Hauptstraße 1',
        'resolution VV 2026/01 – Wahlordnung 2027',
      ]);
    }
    expect(await found(users.admin, `${q('Instandhaltungsrücklage')}&type=resolution`)).toEqual([
      'resolution AR 2026/07 – Kauf des Grundstücks Hauptstraße 1',
    ]);
    expect(await found(users.admin, `${q('Instandhaltungsrücklage')}&type=file`)).toEqual([
      'file Bericht Instandhaltung',
    ]);
    // Resolutions have neither a file type nor a folder; their date is the establishment.
    expect(await found(users.admin, `${q('Zitronenfalter')}&format=pdf`)).toEqual([]);
    expect(await found(users.admin, `${q('Zitronenfalter')}&folder_id=4`)).toEqual([]);
    expect(await found(users.admin, `${q('Zitronenfalter')}&from=2026-11-21&to=2026-11-21`)).toHaveLength(1);
    expect(await found(users.admin, `${q('Zitronenfalter')}&from=2026-11-22`)).toEqual([]);
    const wrongType = await call(users.admin, 'GET', `/search?${q('Zitronenfalter')}&type=beschluss`);
    expect(wrongType.statusCode).toBe(422);
    expect(wrongType.body).toContain('Bitte Dateien, Ordner, Events oder Beschlüsse wählen.');
  });

  it('finds new resolutions at once, and none for an API-Schlüssel, which may not read them', async () => {
    expect(await found(arMember, q('Dachsanierung'))).toEqual([]);
    ids.dach = await resolution('aufsichtsrat', 'AR 2026/08', 'Dachsanierung', 'Das Dach wird saniert.');
    expect(await found(arMember, q('Dachsanierung'))).toEqual(['resolution AR 2026/08 – Dachsanierung']);

    const issued = await call(users.superAdmin, 'POST', '/api-keys', {
      name: 'Archiv',
      scopes: ['inhalte:lesen'],
    });
    expect(issued.statusCode, issued.body).toBe(201);
    const key = { authorization: `Bearer ${issued.json().data.token as string}` };
    expect((await search(key, q('Zitronenfalter'))).meta.total).toBe(0);
    expect((await search(key, q('Instandhaltungsrücklage'))).data.map((hit) => hit.type)).toEqual(['file']);
  });

  it('stops finding a committee’s resolutions once the membership has ended', async () => {
    expect((await search(arMember.headers, q('Zitronenfalter'))).meta.total).toBe(1);
    const ended = await call(users.admin, 'PUT', `/memberships/${arMembership}`, {
      function: 'mitglied',
      from: '2026-07-01',
      until: '2026-11-20',
      reason: 'ruecktritt',
    });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(await search(arMember.headers, q('Zitronenfalter'))).toEqual({
      data: [],
      meta: { total: 0, page: 1, per_page: 20 },
    });
    expect(await found(arMember, q('AR 2026'))).toEqual([]);
    expect(await found(arMember, q('Dachsanierung'))).toEqual([]);
    // The admins still find it.
    expect((await search(users.admin.headers, q('Zitronenfalter'))).meta.total).toBe(1);
  });
});
