// Makes sure Debian's Chromium is there for the browser tests; installs it when running as root.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

if (!existsSync(CHROMIUM)) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  if (isRoot && hasApt) {
    console.log('Chromium fehlt – installiere das Debian-Paket chromium …');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    const install =
      update.status === 0
        ? spawnSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env })
        : update;
    if (install.status !== 0 || !existsSync(CHROMIUM)) {
      console.error(
        'Chromium konnte nicht installiert werden. Bitte `apt-get install -y chromium` ausführen.',
      );
      process.exit(1);
    }
  } else {
    console.error(
      `Kein Chromium unter ${CHROMIUM} gefunden. Bitte installieren: \`sudo apt-get install -y chromium\` ` +
        '(oder CHROMIUM_PATH auf ein vorhandenes Chromium setzen).',
    );
    process.exit(1);
  }
}
