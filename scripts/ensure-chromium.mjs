// Makes sure Debian's Chromium is there for the browser tests; installs it when running as root.
// The old headless shell (package chromium-headless-shell) is optional: the journeys that do not
// need the whole browser run in it when it is there (e2e/tests/support/portal.ts).
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';

const packages = [
  ...(existsSync(CHROMIUM) ? [] : ['chromium']),
  ...(process.env.CHROMIUM_HEADLESS_SHELL_PATH || existsSync(HEADLESS_SHELL)
    ? []
    : ['chromium-headless-shell']),
];
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
if (packages.length > 0 && isRoot && hasApt) {
  console.log(`Installiere die Debian-Pakete ${packages.join(', ')} …`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  if (update.status === 0)
    spawnSync('apt-get', ['install', '-y', '-qq', ...packages], { stdio: 'inherit', env });
}
if (!existsSync(CHROMIUM)) {
  console.error(
    `Kein Chromium unter ${CHROMIUM} gefunden. Bitte installieren: \`sudo apt-get install -y chromium\` ` +
      '(oder CHROMIUM_PATH auf ein vorhandenes Chromium setzen).',
  );
  process.exit(1);
}
