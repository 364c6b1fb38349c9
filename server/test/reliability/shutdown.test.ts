import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, portalEnv, sleep, spawnServerScript } from './portal-process.ts';

/**
 * Restarts that finish (docs/deployment.md): after SIGTERM the portal exits within
 * SHUTDOWN_TIMEOUT_SECONDS even when a request hangs and its log cannot be written, because the
 * pipe of its standard output is full and nobody reads it.
 */

/** Generous: the machine running the tests is shared and loaded. */
const MARGIN_MS = 12_000;
const dirs: string[] = [];

afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function startPortalProcess(options: { readStdout: boolean; timeoutSeconds: number }) {
  const dataDir = await mkdtemp(join(tmpdir(), 'gp-shutdown-'));
  dirs.push(dataDir);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const run = spawnServerScript(
    'src/server.ts',
    [],
    {
      ...portalEnv({ dataDir, port }),
      LOG_LEVEL: 'info',
      SHUTDOWN_TIMEOUT_SECONDS: String(options.timeoutSeconds),
    },
    { readStdout: options.readStdout },
  );
  let exitedAt: number | undefined;
  const exited = run.exited.then((code) => {
    exitedAt = Date.now();
    return code;
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exitedAt !== undefined) throw new Error(`Portal beendet beim Start:\n${run.output()}`);
    try {
      if ((await fetch(`${url}/api/v1/health`)).ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      run.child.kill('SIGKILL');
      throw new Error(`Portal antwortet nicht:\n${run.output()}`);
    }
    await sleep(50);
  }
  /** Sends SIGTERM; resolves with the exit code and the time it took, or null after `waitMs`. */
  const terminate = async (waitMs: number) => {
    const sent = Date.now();
    run.child.kill('SIGTERM');
    const code = await Promise.race([exited, sleep(waitMs).then(() => 'hangs' as const)]);
    if (code === 'hangs') {
      run.child.kill('SIGKILL');
      await exited;
      return { code: null, signal: run.child.signalCode, ms: Date.now() - sent };
    }
    return { code, signal: run.child.signalCode, ms: exitedAt! - sent };
  };
  return { url, port, run, terminate };
}

/** A request whose body never arrives: it stays in flight, so closing the server waits for it. */
function hangingRequest(port: number): () => void {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  socket.write(
    'POST /api/v1/auth/login HTTP/1.1\r\nHost: portal.test\r\nContent-Type: application/json\r\n' +
      'Content-Length: 100000\r\n\r\n{"email":"',
  );
  return () => socket.destroy();
}

describe('shutdown', () => {
  it('exits within the deadline though a request hangs and the log pipe is full', async () => {
    const timeoutSeconds = 2;
    const portal = await startPortalProcess({ readStdout: false, timeoutSeconds });
    // Every answered request writes one log line with its path: about 6 KB each, 3 MB in all,
    // far beyond what the pipe and the unread stream buffer hold.
    const longPath = `/api/v1/nicht-vorhanden/${'ab.'.repeat(2000)}`;
    for (let round = 0; round < 50; round += 1) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => fetch(`${portal.url}${longPath}`).then((res) => res.status)),
      );
      expect(answers.every((status) => status === 404)).toBe(true);
    }
    const endHanging = hangingRequest(portal.port);
    await sleep(200);

    const { code, signal, ms } = await portal.terminate(timeoutSeconds * 1000 + MARGIN_MS);
    endHanging();
    portal.run.child.stdout?.destroy();

    expect(signal, 'the portal had to be killed').toBeNull();
    // The deadline ended it: the hanging request kept the server from closing on its own.
    expect(code).toBe(1);
    expect(ms).toBeLessThan(timeoutSeconds * 1000 + MARGIN_MS);
  }, 120_000);

  it('exits with 0 and writes its log out when nothing hangs', async () => {
    const timeoutSeconds = 60;
    const portal = await startPortalProcess({ readStdout: true, timeoutSeconds });
    expect((await fetch(`${portal.url}/api/v1/nicht-vorhanden`)).status).toBe(404);

    const { code, signal, ms } = await portal.terminate(timeoutSeconds * 1000);

    expect(signal).toBeNull();
    expect(code).toBe(0);
    // Well before the deadline: it did not wait for it.
    expect(ms).toBeLessThan(timeoutSeconds * 1000 - 30_000);
    expect(portal.run.output()).toContain('Fahre herunter; laufende Anfragen werden beendet');
  }, 120_000);
});
