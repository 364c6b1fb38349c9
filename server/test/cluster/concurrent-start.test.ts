import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { configSchema } from '../../src/config.ts';
import { migrationsFor } from '../../src/db/migrations/index.ts';
import { MemoryTransport } from '../support/build-test-app.ts';

const baseUrl = process.env.TEST_DATABASE_URL;
const INSTANCES = 4;

async function onServer(query: string): Promise<void> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}

/**
 * Several instances on one empty database: the migrations run once (on PostgreSQL Kysely's
 * migrator holds an advisory lock) and the first-start data (roles, protected folders, the first
 * Super-Admin) is created once, so every instance comes up. On PostgreSQL they start at the same
 * moment, as a fresh deployment of N instances does. SQLite belongs to one instance; there the
 * instances start one after the other on the same file, as restarts do.
 */
describe('several instances on one empty database', () => {
  const name = `gp_start_${randomBytes(6).toString('hex')}`;
  let databaseUrl: string | undefined;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'gremienportal-start-'));
    if (!baseUrl) return;
    await onServer(`create database ${name}`);
    const url = new URL(baseUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
  });

  afterAll(async () => {
    if (databaseUrl) await onServer(`drop database if exists ${name} with (force)`);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('migrates and seeds exactly once, and every instance starts and serves', async () => {
    const config = configSchema.parse({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      INITIAL_ADMIN_EMAIL: 'admin@example.org',
      INITIAL_ADMIN_PASSWORD: 'Start-Passwort-123',
      // A test installation: the second factor is not this test's subject (decision 126).
      TWO_FACTOR_REQUIRED_ROLES: '',
    });
    const start = () =>
      buildApp({ config, logger: false, startBackgroundJobs: false, mailTransport: new MemoryTransport() });
    let started: PromiseSettledResult<FastifyInstance>[];
    if (databaseUrl) {
      started = await Promise.allSettled(Array.from({ length: INSTANCES }, start));
    } else {
      started = [];
      for (let i = 0; i < INSTANCES; i += 1) started.push(...(await Promise.allSettled([start()])));
    }
    const apps = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    try {
      const failures = started.flatMap((result) =>
        result.status === 'rejected' ? [String(result.reason)] : [],
      );
      expect(failures).toEqual([]);
      await Promise.all(apps.map((app) => app.ready()));

      // Exactly one instance reports the Super-Admin it created.
      expect(apps.filter((app) => app.initialAdmin !== undefined)).toHaveLength(1);

      const k = apps[0]!.context.db.kysely;
      const migrations = await k
        .selectFrom('kysely_migration' as never)
        .select('name' as never)
        .execute();
      expect(migrations).toEqual(
        Object.keys(migrationsFor(apps[0]!.context.db.dialect)).map((name) => ({ name })),
      );
      const roles = await k.selectFrom('roles').select('name').orderBy('name').execute();
      expect(roles.map((role) => role.name)).toEqual(['Admin', 'Aufsichtsrat', 'Super-Admin', 'Vertreter']);
      const folders = await k.selectFrom('folders').select('id').orderBy('id').execute();
      expect(folders.map((folder) => folder.id)).toEqual([1, 2, 3, 4]);
      const users = await k.selectFrom('users').select('email').execute();
      expect(users).toEqual([{ email: 'admin@example.org' }]);

      // Each instance serves; a folder created through one gets a fresh id after the seeded ones.
      for (const app of apps) {
        const health = await app.inject({ method: 'GET', url: '/api/v1/health' });
        expect(health.statusCode).toBe(200);
      }
      const login = await apps[1]!.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: 'admin@example.org', password: 'Start-Passwort-123' },
      });
      expect(login.statusCode).toBe(200);
      const created = await apps[2]!.inject({
        method: 'POST',
        url: '/api/v1/folders',
        headers: { authorization: `Bearer ${login.json().access_token}` },
        payload: { title: 'Nach dem Start' },
      });
      expect(created.statusCode).toBe(201);
      expect(created.json().folder.id).toBeGreaterThan(4);
    } finally {
      // One by one: on SQLite they share the file.
      for (const app of apps) await app.close();
    }
  });
});
