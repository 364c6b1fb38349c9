import { randomInt } from 'node:crypto';
import { watch } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { freePort, portalEnv, spawnServerScript, startPortal, type PortalProcess } from './portal-process.ts';
import { sql } from 'kysely';
import { createPostgresDatabase, openInspector, type Inspector } from './inspect.ts';

/**
 * What the crash tests that kill the portal in rounds share (crash-digests, crash-api-keys): their
 * random choices, the portal's place and start, and what they wait for.
 */

/**
 * The random choices of one test file, from one seed: `CRASH_SEED=<seed>` repeats them (the moment
 * a kill lands still depends on the machine). The file prints the seed at the start and names it in
 * every failure. One source per file, as a worker shares its modules between files (decision 138).
 */
export function crashRandom() {
  const seed = Number(process.env.CRASH_SEED ?? randomInt(2 ** 31));
  const random = mulberry32(seed);
  /** A whole number in [min, max). */
  const between = (min: number, max: number) => min + Math.floor(random() * (max - min));
  const pick = <T>(list: readonly T[]): T => list[between(0, list.length)]!;
  return { seed, random, between, pick };
}

export type CrashRandom = ReturnType<typeof crashRandom>;

/** A small seeded generator (mulberry32): the same seed gives the same choices. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A fresh data folder (and PostgreSQL database) for one portal, removed after the file. */
export async function portalPlace(cleanups: (() => Promise<void>)[], prefix: string) {
  const baseUrl = process.env.TEST_DATABASE_URL;
  const dataDir = await mkdtemp(join(tmpdir(), `gremienportal-${prefix}-`));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const postgres = baseUrl
    ? await createPostgresDatabase(baseUrl, `gp_${prefix.replace(/-/g, '_')}`)
    : undefined;
  if (postgres) cleanups.push(postgres.drop);
  const target = postgres ? { databaseUrl: postgres.url } : { sqliteFile: join(dataDir, 'portal.sqlite') };
  /**
   * After a kill: on PostgreSQL, until the killed portal's sessions have ended. A COMMIT the
   * server had already received still completes after its client died, so a check that reads
   * earlier could miss a change that lands a moment later. SQLite's file is final at the kill.
   */
  const settled = async (): Promise<void> => {
    if (!postgres) return;
    const db = openInspector(target);
    try {
      for (const deadline = Date.now() + 10_000; ; await sleep(20)) {
        const { rows } = await sql<{ n: number }>`
          select count(*)::int as n from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid()`.execute(db.kysely);
        if (rows[0]!.n === 0) return;
        if (Date.now() > deadline) throw new Error('Sitzungen des abgebrochenen Portals enden nicht');
      }
    } finally {
      await db.close();
    }
  };
  return {
    dataDir,
    settled,
    postgres: postgres !== undefined,
    mailDir: join(dataDir, 'mail'),
    inspect: (writable = false): Inspector => openInspector(target, writable),
    start: async (): Promise<PortalProcess> => {
      const started = await startPortal({ dataDir, ...(postgres ? { databaseUrl: postgres.url } : {}) });
      cleanups.push(() => started.kill());
      return started;
    },
    /**
     * Starts the portal without waiting for it to answer and kills it when `moment` resolves: the
     * digest job runs before the portal listens, and a small run is over before it answers.
     */
    startAndKill: async (moment: () => Promise<void>): Promise<void> => {
      const port = await freePort();
      const run = spawnServerScript(
        'src/server.ts',
        [],
        portalEnv({ dataDir, port, ...(postgres ? { databaseUrl: postgres.url } : {}) }),
      );
      const kill = async () => {
        if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGKILL');
        await run.exited;
      };
      cleanups.push(kill);
      const died = run.exited.then((code) => {
        throw new Error(`Portal beendet vor dem Abbruch (Code ${code}):\n${run.output()}`);
      });
      await Promise.race([moment(), died]);
      void died.catch(() => undefined);
      await kill();
      await settled();
    },
  };
}

export type PortalPlace = Awaited<ReturnType<typeof portalPlace>>;

/** The portal's own error lines, so that an unexpected answer says where it came from. */
export const errorLines = (portal: PortalProcess) =>
  portal
    .output()
    .split('\n')
    .filter((line) => /"level":(50|60)/.test(line))
    .slice(-5)
    .join('\n');

/** Until `path` has changed `wanted` times (each write to it counts), or `limitMs` at most. */
export function fileChanges(path: string, wanted: number, limitMs = 10_000): Promise<void> {
  return new Promise<void>((resolve) => {
    let seen = 0;
    const watcher = watch(path, () => {
      seen += 1;
      if (seen >= wanted) done();
    });
    const timer = setTimeout(done, limitMs);
    function done() {
      clearTimeout(timer);
      watcher.close();
      resolve();
    }
  });
}
