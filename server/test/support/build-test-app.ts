import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { buildApp, type BuildAppOptions } from '../../src/app.ts';
import { configSchema, type Config } from '../../src/config.ts';
import { TestClock } from '../../src/clock.ts';
import { openDatabase, type Db } from '../../src/db/database.ts';
import type { MailMessage, MailTransport } from '../../src/mail/transport.ts';
import { checkAnswersAgainstDescription } from './api-conformance.ts';
import { capturedLogger } from './log-capture.ts';

/** Collects sent mails in memory. */
export class MemoryTransport implements MailTransport {
  readonly sent: MailMessage[] = [];
  failNext = 0;
  async send(message: MailMessage): Promise<void> {
    if (this.failNext > 0) {
      this.failNext -= 1;
      throw new Error('SMTP nicht erreichbar (Test)');
    }
    this.sent.push(message);
  }
  close(): void {}
}

export interface TestApp {
  app: FastifyInstance;
  clock: TestClock;
  config: Config;
  db: Db;
  dataDir: string;
  mail: MemoryTransport;
  /** Sends every queued mail and returns what was sent so far. */
  flushMail(): Promise<MailMessage[]>;
  /** Runs the background jobs that queue mails (forgot-password requests) without sending. */
  runJobs(): Promise<void>;
  close(): Promise<void>;
}

/** A fresh PostgreSQL database per test app, so test files run in parallel without clashing. */
async function createPostgresDatabase(baseUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `gp_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

export async function buildTestApp(
  options: { env?: Record<string, string>; clock?: TestClock } & Partial<BuildAppOptions> = {},
): Promise<TestApp> {
  const dataDir = await mkdtemp(join(tmpdir(), 'gremienportal-test-'));
  const postgres = process.env.TEST_DATABASE_URL
    ? await createPostgresDatabase(process.env.TEST_DATABASE_URL)
    : undefined;
  const config = configSchema.parse({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    INITIAL_ADMIN_EMAIL: 'admin@example.org',
    INITIAL_ADMIN_PASSWORD: 'Start-Passwort-123',
    PUBLIC_URL: 'http://portal.test',
    // A test installation: the second factor is required only where a test asks for it (decision 126).
    TWO_FACTOR_REQUIRED_ROLES: '',
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    ...options.env,
  });
  const clock = options.clock ?? new TestClock();
  const db =
    options.db ??
    openDatabase({ databaseUrl: config.DATABASE_URL, sqliteFile: join(dataDir, 'portal.sqlite') });
  const mail = new MemoryTransport();
  const app = await buildApp({
    // Captured for the suite's search for tokens in the log (log-capture.ts).
    logger: capturedLogger(config) ?? false,
    startBackgroundJobs: false,
    mailTransport: mail,
    ...options,
    config,
    clock,
    db,
  });
  // Every answer is checked against the API description (decision 132); an `inject` that received an
  // undocumented one fails, answers over a real port fail `close()`.
  const violations = checkAnswersAgainstDescription(app);
  const reportViolations = () => {
    if (violations.length === 0) return;
    const found = violations.splice(0);
    throw new Error(`Antwort entspricht nicht der API-Beschreibung:\n${found.join('\n')}`);
  };
  const inject = app.inject.bind(app) as (...args: unknown[]) => unknown;
  app.inject = ((...args: unknown[]) => {
    const result = inject(...args);
    // Only `inject(options)` promises an answer; the chain (no options) and callback forms are
    // reported at `close()`.
    if (args.length !== 1 || typeof args[0] !== 'object') return result;
    return (result as Promise<unknown>).then((response) => {
      reportViolations();
      return response;
    });
  }) as typeof app.inject;
  await app.ready();
  return {
    app,
    clock,
    config,
    db,
    dataDir,
    mail,
    async flushMail() {
      await app.context.mailSender.flush();
      return mail.sent;
    },
    runJobs() {
      return app.context.mailSender.runJobs();
    },
    async close() {
      await app.close();
      await db.close();
      await postgres?.drop();
      await rm(dataDir, { recursive: true, force: true });
      reportViolations();
    },
  };
}
