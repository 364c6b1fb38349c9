import SQLite from 'better-sqlite3';
import pg from 'pg';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../support/build-test-app.ts';
import { createUser, sessionFor } from '../support/factories.ts';
import { changes, NO_CHANGES, snapshot } from './state.ts';

/**
 * The hostile-input proof's fingerprint of the database: a snapshot taken again without a write
 * reuses the last one's hashes, so it must still see every kind of change, on both databases.
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

  it('sees a change another connection committed', async () => {
    const user = await createUser(t);
    const before = await snapshot(t);
    expect(changes(before, await snapshot(t))).toEqual(NO_CHANGES);
    if (t.db.dialect === 'postgres') {
      const other = new pg.Client({ connectionString: t.config.DATABASE_URL });
      await other.connect();
      try {
        await other.query('update users set lastname = $1 where id = $2', ['Anderswo', user.id]);
      } finally {
        await other.end();
      }
    } else {
      const other = new SQLite(join(t.dataDir, 'portal.sqlite'));
      try {
        other.prepare('update users set lastname = ? where id = ?').run('Anderswo', user.id);
      } finally {
        other.close();
      }
    }
    expect(changes(before, await snapshot(t)).tables).toEqual(['users']);
  });

  it('sees a file added to the storage folder', async () => {
    await mkdir(join(t.dataDir, 'files'), { recursive: true });
    const before = await snapshot(t);
    await writeFile(join(t.dataDir, 'files', 'uebrig-geblieben'), 'x');
    expect(changes(before, await snapshot(t)).storage.added).toEqual(['uebrig-geblieben 1']);
  });
});
