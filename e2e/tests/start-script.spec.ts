import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { REPO_ROOT } from './support/portal.ts';

/** `npm start` runs the built portal; one SIGTERM to it must end the server too (no orphan). */
test('npm start passes SIGTERM on and the server stops', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gremienportal-start-'));
  const port = 3190 + Math.floor(Math.random() * 9);
  const starter = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      INITIAL_ADMIN_EMAIL: 'start@example.org',
      INITIAL_ADMIN_PASSWORD: 'Start-Passwort-123',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
    },
    stdio: 'ignore',
  });
  const health = () =>
    fetch(`http://127.0.0.1:${port}/api/v1/health`).then(
      (res) => res.ok,
      () => false,
    );
  try {
    await expect.poll(health, { timeout: 30_000 }).toBe(true);
    const exited = new Promise<number | null>((resolve) => starter.on('exit', (code) => resolve(code)));
    starter.kill('SIGTERM');
    expect(await exited).toBe(0);
    // The server is gone with it: nothing answers on the port any more.
    expect(await health()).toBe(false);
  } finally {
    starter.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
});
