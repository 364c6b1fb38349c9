// `npm start`: builds what is missing, then serves the portal (SQLite and local files by default).
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const built = ['contracts/dist/common.js', 'server/dist/server.js', 'web/dist/index.html'].every((path) =>
  existsSync(new URL(`../${path}`, import.meta.url)),
);
if (!built) {
  console.log('Baue das Portal (einmalig) …');
  const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
const server = spawnSync(process.execPath, ['server/dist/server.js'], { cwd: root, stdio: 'inherit' });
process.exit(server.status ?? 0);
