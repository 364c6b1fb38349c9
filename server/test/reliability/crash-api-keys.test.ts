import { afterAll, describe, expect, it } from 'vitest';
import { API_KEY_PREFIX } from '@gremienportal/contracts/api-keys';
import { signIn, sleep } from './portal-process.ts';
import { secretsAtRest, sha256 } from './inspect.ts';
import { crashRandom, errorLines, portalPlace } from './crash-rounds.ts';
import {
  checkAfterRestart,
  keyChanges,
  keyWorker,
  newKeyLedger,
  ordered,
  type KeyLoad,
  type KeyModel,
  type KeyOperation,
} from './crash-api-keys.model.ts';

/**
 * Crash safety of API-Schlüssel (issue "Proof of security and reliability", item 4, beside
 * crash.test.ts): the real server process is killed with SIGKILL at a random moment while clients
 * issue, use and revoke API-Schlüssel (decision 136). A key whose token was answered works after the
 * restart with its scopes, an answered revoke stays revoked, an unanswered request took effect
 * wholly or not at all (the key row with its `api_key.created` entry, its removal with
 * `api_key.revoked`), and no token lies in plain text in the database, its files or the mails.
 *
 * Random choices come from one seed, printed at the start and named in every failure
 * (`CRASH_SEED=<seed>` repeats them; the moment the kill lands still depends on the machine).
 */

const baseUrl = process.env.TEST_DATABASE_URL;
const choices = crashRandom();
const SEED = choices.seed;
const KEY_ROUNDS = 8;
const KEY_WORKERS = 3;

describe(`crash safety of API-Schlüssel (${baseUrl ? 'PostgreSQL' : 'SQLite'})`, () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });
  console.log(`Absturztest API-Schlüssel: CRASH_SEED=${SEED}`);

  it(
    `keeps answered API-Schlüssel changes over ${KEY_ROUNDS} kills, each unanswered one whole or not at all`,
    { timeout: 180_000 },
    async () => {
      const place = await portalPlace(cleanups, 'crash-keys');
      let portal = await place.start();
      const admin = await signIn(portal.url);
      const ledger = newKeyLedger();
      const { keys, tokens, refused, stats } = ledger;

      /** Load until a random moment, then SIGKILL; returns the requests left without an answer. */
      async function loadAndKill(round: number, where: string): Promise<Set<KeyOperation>> {
        const { between } = choices;
        const controller = new AbortController();
        // Rounds 1, 5: after a random time. 2, 6: right as the n-th answer arrives, so an answered
        // change meets the kill before anything else happens. The others: right as the database
        // changes for the n-th time (SQLite: a write to its log; PostgreSQL: the keys or their audit
        // entries), which lands between the writes of a change.
        let answers = 0;
        const kind = (['change', 'timer', 'answer', 'change'] as const)[round % 4]!;
        const wanted = kind === 'answer' ? between(1, 16) : Infinity;
        let reached = () => {};
        const moment =
          kind === 'answer'
            ? Promise.race([new Promise<void>((resolve) => (reached = resolve)), sleep(10_000)])
            : kind === 'change'
              ? keyChanges(place, between(1, 8))
              : sleep(between(20, 500));
        const run: KeyLoad = {
          url: portal.url,
          adminToken: admin.token,
          killing: false,
          signal: controller.signal,
          pending: new Set(),
          failures: [],
          acknowledged: () => {
            answers += 1;
            if (answers >= wanted) reached();
          },
        };
        const running = Array.from({ length: KEY_WORKERS }, (_, i) => keyWorker(i, ledger, run, choices));
        await moment;
        run.killing = true;
        await portal.kill();
        controller.abort();
        await Promise.all(running);
        expect(run.failures, `${where}: Anfragen vor dem Abbruch gescheitert\n${errorLines(portal)}`).toEqual(
          [],
        );
        // The answered tokens are in no log line either.
        const output = portal.output();
        expect(
          tokens.filter((token) => output.includes(token.slice(API_KEY_PREFIX.length))),
          `${where}: Schlüssel in der Ausgabe des Portals`,
        ).toEqual([]);
        return run.pending;
      }

      /**
       * The keys as the killed process left them: every answered change there, every unanswered one
       * whole or not at all; each key row with its `api_key.created` entry, each removal with its
       * `api_key.revoked` entry; no token in plain text anywhere at rest.
       */
      async function checkAfterKill(where: string, pending: Set<KeyOperation>) {
        const db = place.inspect();
        try {
          const { rows, audits } = await db.kysely.transaction().execute(async (trx) => ({
            rows: await trx
              .selectFrom('api_keys')
              .select(['id', 'name', 'token_hash', 'scopes'])
              .orderBy('id')
              .execute(),
            audits: await trx
              .selectFrom('audit_log')
              .select(['action', 'object_id', 'object_label'])
              .where('object_type', '=', 'api_key')
              .orderBy('id')
              .execute(),
          }));
          const rowById = new Map(rows.map((row) => [row.id, row]));
          const logged = (action: string) =>
            audits.filter((entry) => entry.action === action).map((entry) => entry.object_id!);
          for (const op of pending) {
            stats.interrupted[op.kind] += 1;
            if (op.kind === 'create') {
              const found = rows.filter((row) => row.name === op.name);
              expect(found.length, `${where}: unterbrochenes Anlegen von „${op.name}“`).toBeLessThanOrEqual(
                1,
              );
              expect(
                audits
                  .filter((entry) => entry.action === 'api_key.created' && entry.object_label === op.name)
                  .map((entry) => entry.object_id),
                `${where}: Protokoll des unterbrochenen Anlegens von „${op.name}“`,
              ).toEqual(found.map((row) => row.id));
              // Issued, but its token reached nobody: it stays until revoked.
              if (found[0]) {
                keys.set(found[0].id, {
                  id: found[0].id,
                  worker: op.worker,
                  name: op.name,
                  scopes: ordered(op.scopes),
                  state: 'live',
                });
                stats.committed.create += 1;
              }
            } else if (op.kind === 'revoke' && !rowById.has(op.key.id)) {
              op.key.state = 'revoked';
              stats.committed.revoke += 1;
            }
          }

          const model = [...keys.values()];
          const ids = (state: KeyModel['state']) =>
            model
              .filter((key) => key.state === state)
              .map((key) => key.id)
              .sort((a, b) => a - b);
          const numeric = (list: number[]) => [...list].sort((a, b) => a - b);
          expect(
            rows.map((row) => row.id),
            `${where}: Schlüsselzeilen`,
          ).toEqual(ids('live'));
          expect(numeric(logged('api_key.created')), `${where}: Protokoll angelegter Schlüssel`).toEqual(
            numeric(model.map((key) => key.id)),
          );
          expect(numeric(logged('api_key.revoked')), `${where}: Protokoll widerrufener Schlüssel`).toEqual(
            ids('revoked'),
          );
          for (const key of model.filter((candidate) => candidate.state === 'live')) {
            const row = rowById.get(key.id)!;
            expect([row.name, row.scopes], `${where}: Schlüssel ${key.id}`).toEqual([
              key.name,
              key.scopes.join(','),
            ]);
            if (key.token) {
              expect(row.token_hash, `${where}: Hash des Schlüssels ${key.id}`).toBe(
                sha256(Buffer.from(key.token)),
              );
            }
          }
          expect(
            await secretsAtRest(
              place.dataDir,
              tokens.map((token) => token.slice(API_KEY_PREFIX.length)),
              place.postgres ? db.kysely : undefined,
            ),
            `${where}: Schlüssel im Klartext gespeichert`,
          ).toEqual([]);
        } finally {
          await db.close();
        }
      }

      for (let round = 1; round <= KEY_ROUNDS; round += 1) {
        const where = `Runde ${round} (CRASH_SEED=${SEED})`;
        const pending = await loadAndKill(round, where);
        await place.settled();
        await checkAfterKill(`${where}, nach dem Abbruch`, pending);
        portal = await place.start();
        await checkAfterRestart(`${where}, nach dem Neustart`, ledger, {
          url: portal.url,
          adminToken: admin.token,
        });
      }
      await portal.stop();

      const revokedKeys = [...keys.values()].filter((key) => key.state === 'revoked').length;
      console.log(
        `Absturztest API-Schlüssel: ${KEY_ROUNDS} Abbrüche; beantwortet ${stats.created} angelegt, ` +
          `${stats.revoked} widerrufen, ${stats.used} benutzt; unterbrochen ${stats.interrupted.create} Anlegen ` +
          `(${stats.committed.create} übernommen), ${stats.interrupted.revoke} Widerrufe ` +
          `(${stats.committed.revoke} übernommen), ${stats.interrupted.use} Benutzungen; ` +
          `${keys.size - revokedKeys} Schlüssel am Ende, ${refused.size} widerrufene abgewiesen`,
      );
      // The kills must have hit changes in progress, or the test proved nothing.
      expect(stats.created).toBeGreaterThan(KEY_ROUNDS);
      expect(stats.revoked).toBeGreaterThan(0);
      expect(stats.interrupted.create).toBeGreaterThan(0);
      expect(stats.interrupted.revoke).toBeGreaterThan(0);
    },
  );
});
