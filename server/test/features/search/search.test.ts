import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createRoleUsers, type TestUser } from '../../support/factories.ts';
import { createFolder, uploadFile } from '../../support/files.fixtures.ts';

/**
 * Search (decision 128) on the engine of this run (SQLite FTS5, or PostgreSQL with pg_trgm when
 * TEST_DATABASE_URL is set): German matching, what each role finds, and that changes count.
 */
describe('search', () => {
  let t: TestApp;
  let users: Awaited<ReturnType<typeof createRoleUsers>>;
  let arFolder: { id: number };
  let vtFolder: { id: number };
  const ids: Record<string, number> = {};

  const text = async (title: string, content: string, folderId: number, roles: string[]): Promise<number> => {
    const file = await uploadFile(t, users.admin, {
      title,
      folderId,
      roles,
      content,
      filename: `${title}.txt`,
      type: 'text/plain',
    });
    return file.id;
  };
  const search = async (user: TestUser, query: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/search?${query}`,
      headers: user.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as {
      data: {
        type: string;
        id: number;
        title: string;
        highlight: [number, number][];
        snippet: { text: string; ranges: [number, number][] } | null;
      }[];
      meta: { total: number };
    };
  };
  const q = (value: string) => `q=${encodeURIComponent(value)}`;
  const titles = async (user: TestUser, query: string) =>
    (await search(user, query)).data.map((hit) => hit.title);

  beforeAll(async () => {
    t = await buildTestApp();
    users = await createRoleUsers(t);
    arFolder = await createFolder(t, users.admin, { title: 'Berichte AR', parent_id: 2 });
    vtFolder = await createFolder(t, users.admin, { title: 'Unterlagen Vertreter', parent_id: 3 });
    ids.abschluss = await text(
      'Bericht des Vorstands',
      'Der Jahresabschluss 2025 zeigt höhere Abschreibungen im März.\nDie Vertreterversammlung tagt im Juni.',
      vtFolder.id,
      ['Vertreter'],
    );
    ids.geheim = await text(
      'Vertrauliche Notiz',
      'Die Kündigung des Geschäftsführers ist streng vertraulich. Codewort Zitronenfalter.',
      arFolder.id,
      ['Aufsichtsrat'],
    );
    ids.wahl = await text('Wahlordnung', 'Regeln der Wahl zur Vertreterversammlung.', 4, [
      'Aufsichtsrat',
      'Vertreter',
    ]);
    ids.strasse = await text('Anfahrt', 'Treffpunkt in der Großen Straße 5.', 4, [
      'Aufsichtsrat',
      'Vertreter',
    ]);
    expect(await t.app.searchIndexer.drain()).toBe(4);
  });
  afterAll(() => t.close());

  it('finds German words in any spelling: case, umlauts written out, ß as ss', async () => {
    expect(await titles(users.vertreter, q('maerz'))).toEqual(['Bericht des Vorstands']);
    expect(await titles(users.vertreter, q('MÄRZ'))).toEqual(['Bericht des Vorstands']);
    expect(await titles(users.vertreter, q('grosse strasse'))).toEqual(['Anfahrt']);
    expect(await titles(users.vertreter, q('Hoehere'))).toEqual(['Bericht des Vorstands']);
  });

  it('finds parts of compound words and words typed half-way', async () => {
    expect(await titles(users.vertreter, q('abschluss'))).toEqual(['Bericht des Vorstands']);
    expect(await titles(users.vertreter, q('versammlung')).then((found) => found.sort())).toEqual([
      'Bericht des Vorstands',
      'Wahlordnung',
    ]);
    expect(await titles(users.vertreter, q('Abschreib'))).toEqual(['Bericht des Vorstands']);
  });

  it('needs every word, and a quoted phrase as written', async () => {
    expect(await titles(users.vertreter, q('Vorstand Juni'))).toEqual(['Bericht des Vorstands']);
    expect(await titles(users.vertreter, q('Wahlordnung Regeln'))).toEqual(['Wahlordnung']);
    expect(await titles(users.vertreter, q('"zeigt höhere"'))).toEqual(['Bericht des Vorstands']);
    expect(await titles(users.vertreter, q('"höhere zeigt"'))).toEqual([]);
  });

  it('shows a snippet and the matched ranges in plain text', async () => {
    const { data } = await search(users.vertreter, q('jahresabschluss maerz'));
    const hit = data[0]!;
    expect(hit.snippet!.text).toContain('Jahresabschluss 2025');
    const marked = hit.snippet!.ranges.map(([start, end]) => hit.snippet!.text.slice(start, end));
    expect(marked).toEqual(['Jahresabschluss', 'März']);
    const title = await search(users.vertreter, q('Wahlordnung'));
    expect(title.data[0]!.highlight).toEqual([[0, 11]]);
  });

  it('never shows a hidden document: no hit, no count, for a word only it contains', async () => {
    const hidden = await search(users.vertreter, q('Zitronenfalter'));
    expect(hidden).toEqual({ data: [], meta: { total: 0, page: 1, per_page: 20 } });
    expect(await titles(users.aufsichtsrat, q('Zitronenfalter'))).toEqual(['Vertrauliche Notiz']);
    expect(await titles(users.admin, q('Zitronenfalter'))).toEqual(['Vertrauliche Notiz']);
    // Nor its folder.
    expect(await titles(users.vertreter, q('Berichte AR'))).toEqual([]);
    const suggest = await t.app.inject({
      method: 'GET',
      url: `/api/v1/search/suggest?${q('Vertrauliche')}`,
      headers: users.vertreter.headers,
    });
    expect(suggest.json()).toEqual({ data: [] });
  });

  it('follows role changes, moves, renames and deletions at once', async () => {
    const update = (id: number, body: object) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/v1/files/${id}`,
        headers: users.admin.headers,
        payload: body,
      });
    expect((await update(ids.geheim!, { permissions: ['Aufsichtsrat', 'Vertreter'] })).statusCode).toBe(200);
    // Still in a folder the Vertreter cannot see.
    expect(await titles(users.vertreter, q('Zitronenfalter'))).toEqual([]);
    expect((await update(ids.geheim!, { folder_id: vtFolder.id })).statusCode).toBe(200);
    expect(await titles(users.vertreter, q('Zitronenfalter'))).toEqual(['Vertrauliche Notiz']);
    expect((await update(ids.geheim!, { title: 'Notiz zur Kündigung' })).statusCode).toBe(200);
    expect(await titles(users.vertreter, q('Notiz Kuendigung'))).toEqual(['Notiz zur Kündigung']);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/files/${ids.geheim}`,
      headers: users.admin.headers,
    });
    expect(removed.statusCode).toBe(204);
    expect(await titles(users.admin, q('Zitronenfalter'))).toEqual([]);
  });

  it('finds events by title, place and description and follows their edits, roles and deletion at once', async () => {
    const body = (changes: object = {}) => ({
      title: 'Klausur der Vertreter',
      roles: ['Vertreter'],
      start: '2027-02-10T18:00',
      end: '2027-02-10T20:00',
      location: 'Gemeindesaal Nord',
      description: 'Beratung über die Rücklagen.',
      ...changes,
    });
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/events',
      headers: users.admin.headers,
      payload: body(),
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = (created.json() as { event: { id: number } }).event.id;
    const events = (user: TestUser, words: string) => titles(user, `${q(words)}&type=event`);
    const edit = async (changes: object) => {
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/events/${id}`,
        headers: users.admin.headers,
        payload: body(changes),
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    expect(await events(users.vertreter, 'Gemeindesaal Ruecklagen')).toEqual(['Klausur der Vertreter']);
    // Asked once by each viewer kind, so that a kept answer would show below.
    expect(await events(users.aufsichtsrat, 'Gemeindesaal')).toEqual([]);
    await edit({ location: 'Rathaus Süd' });
    expect(await events(users.vertreter, 'Gemeindesaal')).toEqual([]);
    expect(await events(users.vertreter, 'Rathaus Sued')).toEqual(['Klausur der Vertreter']);
    await edit({ location: 'Rathaus Süd', roles: ['Aufsichtsrat'] });
    expect(await events(users.vertreter, 'Rathaus')).toEqual([]);
    expect(await events(users.aufsichtsrat, 'Rathaus')).toEqual(['Klausur der Vertreter']);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/events/${id}`,
      headers: users.admin.headers,
    });
    expect(removed.statusCode, removed.body).toBe(204);
    expect(await events(users.admin, 'Rathaus')).toEqual([]);
  });

  it('answers 422 in German for too short or too long queries and bad filters', async () => {
    for (const [query, message] of [
      ['q=a', 'Bitte mindestens 2 Zeichen eingeben.'],
      [q('x'.repeat(201)), 'Der Suchbegriff darf höchstens 200 Zeichen lang sein.'],
      [`${q('Bericht')}&type=user`, 'Bitte Dateien, Ordner, Events oder Beschlüsse wählen.'],
      [`${q('Bericht')}&sort=alpha`, 'Bitte nach Relevanz oder Datum sortieren.'],
    ]) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/v1/search?${query}`,
        headers: users.vertreter.headers,
      });
      expect(res.statusCode, query).toBe(422);
      expect(JSON.stringify(res.json()), query).toContain(message);
    }
  });

  it('filters by kind, folder and type, and pages', async () => {
    expect((await titles(users.vertreter, `${q('Vertreter')}&type=folder`)).sort()).toEqual([
      'Mitgliedervertreter',
      'Unterlagen Vertreter',
    ]);
    expect(await titles(users.vertreter, `${q('versammlung')}&folder_id=${vtFolder.id}`)).toEqual([
      'Bericht des Vorstands',
    ]);
    expect(await titles(users.vertreter, `${q('versammlung')}&format=pdf`)).toEqual([]);
    const first = await search(users.vertreter, `${q('versammlung')}&per_page=1`);
    expect(first.meta.total).toBe(2);
    expect(first.data).toHaveLength(1);
  });

  it('audits searches as a count per member and day, never with the words searched', async () => {
    await t.app.searchCounter.flush();
    const before = await t.db.kysely
      .selectFrom('audit_log')
      .select(['details'])
      .where('action', '=', 'search.performed')
      .where('object_id', '=', users.aufsichtsrat.id)
      .executeTakeFirst();
    const counted = before ? (JSON.parse(before.details!) as { count: number }).count : 0;
    for (const word of ['Kassenbericht', 'Kassenbericht', 'Gehaltsliste Müller'])
      await search(users.aufsichtsrat, q(word));
    await t.app.searchCounter.flush();
    await search(users.aufsichtsrat, q('Krankmeldung'));
    await t.app.searchCounter.flush();
    const rows = await t.db.kysely
      .selectFrom('audit_log')
      .select(['action', 'details', 'actor_id', 'object_label'])
      .where('action', '=', 'search.performed')
      .where('object_id', '=', users.aufsichtsrat.id)
      .execute();
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0]!.details!)).toEqual({ count: counted + 4 });
    const everything = JSON.stringify(await t.db.kysely.selectFrom('audit_log').selectAll().execute());
    for (const word of ['Kassenbericht', 'Gehaltsliste', 'Krankmeldung'])
      expect(everything).not.toContain(word);
  });
});
