// `npm start`: builds what is missing, then serves the portal (SQLite and local files by default).
// SIGINT, SIGTERM and SIGHUP are passed on to the server, so one signal to this process (or Ctrl-C)
// ends the server cleanly; this process exits with the server's code.
import { existsSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';

const [major, minor] = process.versions.node.split('.').map(Number);
if (
  major < 20 ||
  (major === 20 && minor < 19) ||
  (major === 22 && minor < 12) ||
  major === 21 ||
  major === 23
) {
  console.error(
    `Das Portal braucht Node.js 20.19 oder neuer (20.19+, 22.12+ oder ab 24); gefunden: ${process.versions.node}.`,
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
