/**
 * Global setup and teardown of the server suite (vitest `globalSetup`): a folder for the captured
 * log and the issued tokens (log-capture.ts), and after the last test the search that fails the run
 * if any log line holds a token.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findLeakedTokens, LOG_CAPTURE_ENV } from './log-capture.ts';

export default function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'gremienportal-test-log-'));
  // Workers start after the global setup and inherit the environment.
  process.env[LOG_CAPTURE_ENV] = dir;
  return function teardown() {
    const files = readdirSync(dir);
    const read = (prefix: string) =>
      files
        .filter((name) => name.startsWith(prefix))
        .flatMap((name) => readFileSync(join(dir, name), 'utf8').split('\n'))
        .filter(Boolean);
    const tokens = read('tokens-');
    const lines = read('log-');
    const leaks = findLeakedTokens(tokens, lines);
    if (leaks.length > 0) {
      // vitest reports an error thrown here but keeps the exit status: set it, so CI fails.
      process.exitCode = 1;
      const shown = leaks.slice(0, 5).map((leak) => `  ${leak.line.slice(0, 500)}`);
      throw new Error(
        `${leaks.length} Logzeile(n) enthalten ein ausgegebenes Token (Protokoll in ${dir}):\n${shown.join('\n')}`,
      );
    }
    console.log(
      `Log-Prüfung: ${lines.length} Logzeilen, ${tokens.length} ausgegebene Tokens, kein Token im Log.`,
    );
    rmSync(dir, { recursive: true, force: true });
  };
}
