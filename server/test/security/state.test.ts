import SQLite from 'better-sqlite3';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../support/build-test-app.ts';
import { createUser, sessionFor } from '../support/factories.ts';
import { changes, NO_CHANGES, snapshot } from './state.ts';

/**
 * The hostile-input proof's fingerprint of the database: a snapshot taken again without a write
 * may reuse the last one's hashes (SQLite), so it must still see every kind of change.
 */
describe('state snapshot', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('is the same while nothing changes, and ignores a session being used', async () => {
    const user = await createUser(t);
    const token = await sessionFor(t, user.id);
    const before = await snapshot(t);
    expect(changes(before, await snapshot(t))).toEqual(NO_CHANGES);
    t.clock.advance(60_000);
    const res = await t.app.inject({ url: '/api/v1/account', headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(200);
    expect(changes(before, await snapshot(t))).toEqual(NO_CHANGES);
  });

  it('sees a changed value, an added row and a removed one, each in its table', async () => {
    const user = await createUser(t);
    let before = await snapshot(t);
    await t.db.kysely.updateTable('users').set({ firstname: 'Geändert' }).where('id', '=', user.id).execute();
    expect(changes(before, await snapshot(t)).tables).toEqual(['users']);

    before = await snapshot(t);
    await t.db.kysely.insertInto('change_counters').values({ name: 'state-test', value: 1 }).execute();
    expect(changes(before, await snapshot(t)).tables).toEqual(['change_counters']);

    before = await snapshot(t);
    await t.db.kysely.deleteFrom('change_counters').where('name', '=', 'state-test').execute();
    expect(changes(before, await snapshot(t)).tables).toEqual(['change_counters']);
    expect(changes(before, await snapshot(t), ['change_counters'])).toEqual(NO_CHANGES);
  });

  // PostgreSQL snapshots have no change marker to stand still: every one hashes all rows.
  it.skipIf(Boolean(process.env.TEST_DATABASE_URL))(
    'sees a change another connection committed',
    async () => {
      const user = await createUser(t);
      const before = await snapshot(t);
      const other = new SQLite(join(t.dataDir, 'portal.sqlite'));
      try {
        other.prepare('update users set lastname = ? where id = ?').run('Anderswo', user.id);
      } finally {
        other.close();
      }
      expect(changes(before, await snapshot(t)).tables).toEqual(['users']);
    },
  );

  it('sees a file added to the storage folder', async () => {
    await mkdir(join(t.dataDir, 'files'), { recursive: true });
    const before = await snapshot(t);
    await writeFile(join(t.dataDir, 'files', 'uebrig-geblieben'), 'x');
    expect(changes(before, await snapshot(t)).storage.added).toEqual(['uebrig-geblieben 1']);
  });
});
