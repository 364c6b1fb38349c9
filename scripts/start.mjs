// `npm start`: builds what is missing, then serves the portal (SQLite and local files by default).
// SIGINT, SIGTERM and SIGHUP are passed on to the server, so one signal to this process (or Ctrl-C)
// ends the server cleanly; this process exits with the server's code.
import { existsSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';

// Supported: Node.js 24 (LTS, pinned in .nvmrc) and 26 or newer; 25 and older are past their end
// of life (decision 151). scripts/with-node brings the pinned one on any machine.
const major = Number(process.versions.node.split('.')[0]);
if (major < 24 || major === 25) {
  console.error(
    [
      `Das Portal braucht Node.js 24 (LTS) oder ab 26; gefunden: ${process.versions.node}.`,
      `The portal needs Node.js 24 (LTS) or 26 and later; found: ${process.versions.node}.`,
      '',
      'Mit der Version aus .nvmrc starten / start with the version in .nvmrc:',
      '  scripts/with-node npm ci && scripts/with-node npm start',
    ].join('\n'),
  );
  process.exit(1);
}

const root = fileURLToPath(new URL('..', import.meta.url));
const built = ['contracts/dist/common.js', 'server/dist/server.js', 'web/dist/index.html'].every((path) =>
  existsSync(new URL(`../${path}`, import.meta.url)),
);
if (!built) {
  console.log('Baue das Portal (einmalig) …');
  const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const server = spawn(process.execPath, ['server/dist/server.js'], { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  // The server ignores a second signal while it shuts down, so Ctrl-C reaching both is harmless.
  process.on(signal, () => server.kill(signal));
}
server.on('exit', (code, signal) => {
  process.exit(code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : 1));
});
