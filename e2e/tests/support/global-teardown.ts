import { rmSync } from 'node:fs';
import { portalStateAt, portFor, WORKERS, type PortalState } from './portal.ts';

/** Stops every worker's portal and removes its data folder (unless KEEP_E2E_DATA is set). */
export default async function globalTeardown(): Promise<void> {
  const states: PortalState[] = [];
  for (let slot = 0; slot < WORKERS; slot += 1) {
    try {
      states.push(portalStateAt(portFor(slot)));
    } catch {
      // this slot's portal never started
    }
  }
  for (const { pid } of states) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  if (!process.env.KEEP_E2E_DATA)
    for (const { dataDir } of states) rmSync(dataDir, { recursive: true, force: true });
}
