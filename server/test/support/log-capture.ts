/**
 * The whole server suite's log, captured to be searched for secrets (decision 133): every test app
 * logs at the most verbose level, with the production redaction, into one file per worker, and
 * every token the portal issues (`newToken`: sessions, reset and invitation links, calendar
 * feeds, trusted devices, second-factor steps) is recorded in another. The global teardown
 * (log-capture.global.ts) fails the run if any recorded token occurs in any log line.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import type { Config } from '../../src/config.ts';
import { loggerOptions } from '../../src/plugins/logging.ts';

/** Set by the global setup for every worker; unset, nothing is captured. */
export const LOG_CAPTURE_ENV = 'GREMIENPORTAL_TEST_LOG_CAPTURE';

const captureDir = () => process.env[LOG_CAPTURE_ENV];

let destination: pino.DestinationStream | undefined;

/** A logger like production's (`loggerOptions`) at level trace, appending to this worker's file. */
export function capturedLogger(config: Config): pino.Logger | undefined {
  const dir = captureDir();
  if (!dir) return undefined;
  // One destination per worker process: a test app per file would otherwise leak a descriptor each.
  destination ??= pino.destination({
    dest: join(dir, `log-${process.pid}.ndjson`),
    sync: true,
    append: true,
    mkdir: true,
  });
  return pino({ ...(loggerOptions(config) as pino.LoggerOptions), level: 'trace' }, destination);
}

/** Notes an issued token for the teardown's search. */
export function recordIssuedToken(token: string): void {
  const dir = captureDir();
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  appendFileSync(join(dir, `tokens-${process.pid}.txt`), `${token}\n`);
}

export interface Leak {
  token: string;
  line: string;
}

const TOKEN_CHARS = /[A-Za-z0-9_-]+/g;

/**
 * Every log line that holds one of `tokens`. Tokens are URL-safe base64 and appear in a line as
 * part of a run of such characters, so only runs at least as long as a token are looked at, each
 * window compared against the set: fast on a log of many megabytes and thousands of tokens.
 */
export function findLeakedTokens(tokens: Iterable<string>, lines: Iterable<string>): Leak[] {
  const byLength = new Map<number, Set<string>>();
  for (const token of tokens) {
    if (token.length < 8) throw new Error(`Zu kurzes Geheimnis für die Suche: ${token.length} Zeichen`);
    if (!/^[A-Za-z0-9_-]+$/.test(token)) throw new Error('Geheimnisse sind URL-sicheres Base64');
    let set = byLength.get(token.length);
    if (!set) byLength.set(token.length, (set = new Set()));
    set.add(token);
  }
  if (byLength.size === 0) return [];
  const shortest = Math.min(...byLength.keys());
  const leaks: Leak[] = [];
  for (const line of lines) {
    for (const [run] of line.matchAll(TOKEN_CHARS)) {
      if (run.length < shortest) continue;
      for (const [length, set] of byLength) {
        for (let start = 0; start + length <= run.length; start += 1) {
          const candidate = run.slice(start, start + length);
          if (set.has(candidate)) leaks.push({ token: candidate, line });
        }
      }
    }
  }
  return leaks;
}
