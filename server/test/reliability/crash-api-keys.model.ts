import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { API_KEY_PREFIX, API_KEY_SCOPES } from '@gremienportal/contracts/api-keys';
import { clientFor, sleep } from './portal-process.ts';
import { fileChanges, type CrashRandom, type PortalPlace } from './crash-rounds.ts';

/**
 * The model of crash-api-keys.test.ts: the keys the clients were told about, the clients that
 * issue, use and revoke them until the kill, the moment the kill waits for, and the checks after a
 * restart.
 */

const MAX_KEYS_PER_WORKER = 5;
/** One read of each area: a key's scopes show as 200 with the scope and 403 without. */
const PROBES = {
  'nutzer:lesen': '/roles',
  'inhalte:lesen': '/folders/1',
  'protokoll:lesen': '/audit?per_page=1',
} as const;
type ProbeScope = keyof typeof PROBES;
const PROBE_SCOPES = Object.keys(PROBES) as ProbeScope[];

/** The contract's order of scopes. */
export const ordered = (scopes: readonly string[]) =>
  API_KEY_SCOPES.filter((scope) => scopes.includes(scope));

export interface KeyModel {
  id: number;
  worker: number;
  name: string;
  scopes: string[];
  /** Absent for a key whose creation committed without an answer: nobody holds its token. */
  token?: string;
  state: 'live' | 'revoked';
}

export type KeyOperation =
  | { kind: 'create'; worker: number; name: string; scopes: string[] }
  | { kind: 'revoke'; key: KeyModel }
  | { kind: 'use'; key: KeyModel; probe: ProbeScope };

/** What the clients were answered over all rounds, and what the checks found. */
export interface KeyLedger {
  keys: Map<number, KeyModel>;
  /** Every token answered, for the search at rest. */
  tokens: string[];
  /** Revoked keys already shown to be refused after a restart. */
  refused: Set<number>;
  stats: {
    created: number;
    revoked: number;
    used: number;
    interrupted: { create: number; revoke: number; use: number };
    /** Interrupted requests found to have taken effect. */
    committed: { create: number; revoke: number };
  };
  /** Keys named so far: each new one is "Schnittstelle <n>". */
  names: number;
}

export function newKeyLedger(): KeyLedger {
  return {
    keys: new Map(),
    tokens: [],
    refused: new Set(),
    stats: {
      created: 0,
      revoked: 0,
      used: 0,
      interrupted: { create: 0, revoke: 0, use: 0 },
      committed: { create: 0, revoke: 0 },
    },
    names: 0,
  };
}

/** One round's load up to the kill, shared by its clients. */
export interface KeyLoad {
  url: string;
  adminToken: string;
  killing: boolean;
  signal: AbortSignal;
  /** Requests sent and not answered. */
  pending: Set<KeyOperation>;
  failures: string[];
  acknowledged: () => void;
}

class UnexpectedAnswer extends Error {}

/** One client: issues, uses and revokes its own keys, one request at a time, until the kill. */
export async function keyWorker(
  index: number,
  ledger: KeyLedger,
  run: KeyLoad,
  { random, between, pick }: CrashRandom,
) {
  const { keys, tokens, stats } = ledger;
  const client = clientFor(run.url, run.adminToken);
  while (!run.killing) {
    const mine = [...keys.values()].filter((key) => key.worker === index && key.state === 'live');
    const usable = mine.filter((key) => key.token !== undefined);
    const roll = random();
    let op: KeyOperation;
    if (mine.length < 2 || (roll < 0.45 && mine.length < MAX_KEYS_PER_WORKER)) {
      ledger.names += 1;
      const scopes = API_KEY_SCOPES.filter(() => random() < 0.4);
      // Named in reverse: the answer and the row keep the contract's order.
      op = {
        kind: 'create',
        worker: index,
        name: `Schnittstelle ${ledger.names}`,
        scopes: (scopes.length > 0 ? scopes : [pick(API_KEY_SCOPES)]).reverse(),
      };
    } else if (roll < 0.75 || usable.length === 0) {
      op = { kind: 'revoke', key: pick(mine) };
    } else {
      op = { kind: 'use', key: pick(usable), probe: pick(PROBE_SCOPES) };
    }
    run.pending.add(op);
    try {
      if (op.kind === 'create') {
        const res = await client.request(
          'POST',
          '/api-keys',
          { name: op.name, scopes: op.scopes, valid_days: between(1, 731) },
          run.signal,
        );
        const body = await res.text();
        if (res.status !== 201) throw new UnexpectedAnswer(`Anlegen: ${res.status} ${body}`);
        const { data } = JSON.parse(body) as { data: { id: number; scopes: string[]; token: string } };
        const scopes = ordered(op.scopes);
        if (!data.token.startsWith(API_KEY_PREFIX) || data.scopes.join() !== scopes.join()) {
          throw new UnexpectedAnswer(`Anlegen: ${body}`);
        }
        keys.set(data.id, {
          id: data.id,
          worker: index,
          name: op.name,
          scopes,
          token: data.token,
          state: 'live',
        });
        tokens.push(data.token);
        stats.created += 1;
      } else if (op.kind === 'revoke') {
        const res = await client.request('DELETE', `/api-keys/${op.key.id}`, undefined, run.signal);
        if (res.status !== 204) throw new UnexpectedAnswer(`Widerrufen: ${res.status} ${await res.text()}`);
        op.key.state = 'revoked';
        stats.revoked += 1;
      } else {
        const res = await clientFor(run.url, op.key.token!).request(
          'GET',
          PROBES[op.probe],
          undefined,
          run.signal,
        );
        const expected = op.key.scopes.includes(op.probe) ? 200 : 403;
        if (res.status !== expected) {
          throw new UnexpectedAnswer(
            `Schlüssel ${op.key.id}, ${op.probe}: ${res.status} ${await res.text()}`,
          );
        }
        stats.used += 1;
      }
      run.pending.delete(op);
      run.acknowledged();
    } catch (error) {
      // Without an answer because of the kill, the outcome is open; any other answer fails.
      if (run.killing && !(error instanceof UnexpectedAnswer)) return;
      run.failures.push(String(error));
      return;
    }
  }
}

/** Until the keys or their audit entries have changed `wanted` times, or 10 s at most. */
export async function keyChanges(place: PortalPlace, wanted: number): Promise<void> {
  // A commit writes several pages to the log, each a change.
  const log = join(place.dataDir, 'portal.sqlite-wal');
  if (!place.postgres && existsSync(log)) return fileChanges(log, wanted * 4);
  const db = place.inspect();
  try {
    let last: string | undefined;
    let seen = 0;
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await sleep(2)) {
      const keyRows = await db.kysely
        .selectFrom('api_keys')
        .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('id').as('last')])
        .executeTakeFirstOrThrow();
      const entries = await db.kysely
        .selectFrom('audit_log')
        .select((eb) => eb.fn.max('id').as('last'))
        .where('object_type', '=', 'api_key')
        .executeTakeFirstOrThrow();
      const now = `${keyRows.n}:${keyRows.last}:${entries.last}`;
      if (last !== undefined && now !== last) seen += 1;
      if (seen >= wanted) return;
      last = now;
    }
  } finally {
    await db.close();
  }
}

/** After the restart: every answered key works with exactly its scopes, every revoked one is refused. */
export async function checkAfterRestart(
  where: string,
  ledger: KeyLedger,
  portal: { url: string; adminToken: string },
) {
  const { keys, refused } = ledger;
  for (const key of keys.values()) {
    if (!key.token || refused.has(key.id)) continue;
    const client = clientFor(portal.url, key.token);
    if (key.state === 'revoked') {
      const res = await client.request('GET', PROBES['nutzer:lesen']);
      expect(res.status, `${where}: widerrufener Schlüssel ${key.id}`).toBe(401);
      refused.add(key.id);
      continue;
    }
    for (const scope of PROBE_SCOPES) {
      const res = await client.request('GET', PROBES[scope]);
      expect(res.status, `${where}: Schlüssel ${key.id} (${key.scopes.join(', ')}), ${scope}`).toBe(
        key.scopes.includes(scope) ? 200 : 403,
      );
    }
  }
  const res = await clientFor(portal.url, portal.adminToken).request('GET', '/api-keys');
  expect(res.status).toBe(200);
  const { data } = (await res.json()) as { data: { id: number }[] };
  expect(
    data.map((key) => key.id).sort((a, b) => a - b),
    `${where}: Liste der Schlüssel`,
  ).toEqual(
    [...keys.values()]
      .filter((key) => key.state === 'live')
      .map((key) => key.id)
      .sort((a, b) => a - b),
  );
}
