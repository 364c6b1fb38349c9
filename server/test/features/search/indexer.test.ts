import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchIndexer } from '../../../src/search/indexer.ts';
import { reindex } from '../../../src/ops/reindex.ts';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createRoleUsers, type TestUser } from '../../support/factories.ts';
import { dataUrl, uploadFile } from '../../support/files.fixtures.ts';

/**
 * The extraction queue (decision 128): triggers queue every new or replaced content, the indexer
 * leases each item once across instances, a lease of a dead instance runs out, and the text state
 * of each document is what the file dialog shows.
 */
describe('search indexer', () => {
  let t: TestApp;
  let admin: TestUser;
  let vertreter: TestUser;

  beforeAll(async () => {
    t = await buildTestApp();
    ({ admin, vertreter } = await createRoleUsers(t));
  });
  afterAll(() => t.close());

  const upload = (title: string, content: string | Buffer, filename = `${title}.txt`, type = 'text/plain') =>
    uploadFile(t, admin, { title, folderId: 4, roles: ['Vertreter'], content, filename, type });
  const rows = () =>
    t.db.kysely
      .selectFrom('search_texts')
      .select(['kind', 'item_id', 'state', 'attempts', 'reason'])
      .orderBy('item_id')
      .execute();
  const titlesFor = async (query: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/search?q=${encodeURIComponent(query)}`,
      headers: vertreter.headers,
    });
    return (res.json().data as { title: string }[]).map((hit) => hit.title);
  };
  const textState = async (id: number) =>
    (await t.app.inject({ method: 'GET', url: `/api/v1/files/${id}`, headers: vertreter.headers })).json()
      .data.text_state;

  it('queues each upload in the same transaction and reads it once with two indexers at work', async () => {
    const files = [];
    for (let i = 0; i < 12; i += 1)
      files.push(await upload(`Protokoll ${i}`, `Sitzung Nummer ${i} Tagesordnung`));
    expect((await rows()).every((row) => row.state === 'pending')).toBe(true);
    expect(await textState(files[0]!.id)).toBe('pending');
    const second = new SearchIndexer(t.app.context);
    const [a, b] = await Promise.all([t.app.searchIndexer.drain(), second.drain()]);
    expect(a + b).toBe(12);
    const after = await rows();
    expect(after.map((row) => [row.state, row.attempts])).toEqual(after.map(() => ['done', 1]));
    expect(await textState(files[0]!.id)).toBe('done');
    expect((await titlesFor('Tagesordnung')).length).toBe(12);
  });

  it('takes over the lease of an instance that died while reading', async () => {
    const file = await upload('Haushaltsplan', 'Investitionen in Photovoltaik');
    // As a crashed instance leaves it: leased, lease run out.
    await t.db.kysely
      .updateTable('search_texts')
      .set({
        state: 'working',
        attempts: 1,
        locked_until: new Date(t.clock.now().getTime() - 1000).toISOString(),
      })
      .where('kind', '=', 'file')
      .where('item_id', '=', file.id)
      .execute();
    expect(await t.app.searchIndexer.drain()).toBe(1);
    expect(await titlesFor('Photovoltaik')).toEqual(['Haushaltsplan']);
    // One whose reading killed its instance three times is given up, not tried for ever.
    const poison = await upload('Giftig', 'Inhalt');
    await t.db.kysely
      .updateTable('search_texts')
      .set({
        state: 'working',
        attempts: 3,
        locked_until: new Date(t.clock.now().getTime() - 1000).toISOString(),
      })
      .where('kind', '=', 'file')
      .where('item_id', '=', poison.id)
      .execute();
    await t.app.searchIndexer.drain();
    expect(await textState(poison.id)).toBe('failed');
  });

  it('finds the new content after a replacement and no longer the old', async () => {
    const file = await upload('Satzung', 'Fassung vom Frühjahr mit Quorum');
    await t.app.searchIndexer.drain();
    expect(await titlesFor('Quorum')).toEqual(['Satzung']);
    const replaced = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/files/${file.id}`,
      headers: admin.headers,
      payload: { file: dataUrl('Neue Fassung mit Mehrheitsregel', 'text/plain') },
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(await textState(file.id)).toBe('pending');
    await t.app.searchIndexer.drain();
    expect(await titlesFor('Mehrheitsregel')).toEqual(['Satzung']);
    expect(await titlesFor('Quorum')).toEqual([]);
  });

  it('marks what holds no text: an empty file, an image, a damaged PDF', async () => {
    const empty = await upload('Leer', '   ');
    const image = await upload('Foto', Buffer.from('89504e470d0a1a0a', 'hex'), 'foto.png', 'image/png');
    const broken = await upload(
      'Kaputt',
      Buffer.from('%PDF-1.7\nnicht wirklich ein PDF'),
      'kaputt.pdf',
      'application/pdf',
    );
    await t.app.searchIndexer.drain();
    expect(await textState(empty.id)).toBe('empty');
    expect(await textState(image.id)).toBe('none');
    expect(await textState(broken.id)).toBe('failed');
    // Found by title all the same.
    expect(await titlesFor('Kaputt')).toEqual(['Kaputt']);
  });

  it('forgets the text with the document', async () => {
    const file = await upload('Einmalig', 'Schlagwort Seeadler');
    await t.app.searchIndexer.drain();
    await t.app.inject({ method: 'DELETE', url: `/api/v1/files/${file.id}`, headers: admin.headers });
    expect(await titlesFor('Seeadler')).toEqual([]);
    const left = await t.db.kysely
      .selectFrom('search_texts')
      .select('item_id')
      .where('kind', '=', 'file')
      .where('item_id', '=', file.id)
      .execute();
    expect(left).toEqual([]);
    if (t.db.dialect === 'sqlite') {
      const { rows: fts } = await sql<{
        n: number;
      }>`select count(*) as n from search_fts where rowid = ${file.id * 2}`.execute(t.db.kysely);
      expect(Number(fts[0]!.n)).toBe(0);
    }
  });

  it('reads everything again with `reindex`, with progress, and goes on after an interruption', async () => {
    const lines: string[] = [];
    await reindex(t.config, t.db, (line) => lines.push(line));
    expect(lines.at(-1)).toMatch(/^Fertig: \d+ durchsuchbar, 1 ohne Text, 2 nicht lesbar\.$/);
    // The file whose reading had been given up is read again, and now succeeds.
    expect((await rows()).every((row) => ['done', 'empty', 'failed'].includes(row.state))).toBe(true);
    expect(await titlesFor('Photovoltaik')).toEqual(['Haushaltsplan']);
    // Cut off: what is still queued is continued, not started over.
    await t.db.kysely
      .updateTable('search_texts')
      .set({ state: 'pending' })
      .where('item_id', '<=', 3)
      .execute();
    const again: string[] = [];
    await reindex(t.config, t.db, (line) => again.push(line));
    expect(again[0]).toBe('3 Dokumente warten noch aus einem früheren Lauf; es geht dort weiter.');
    expect(again.some((line) => /^3 von 3 gelesen \([\d.]+ je Sekunde\)$/.test(line))).toBe(true);
  });
});
