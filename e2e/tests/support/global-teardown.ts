import { rmSync } from 'node:fs';
import { portalState } from './portal.ts';

export default async function globalTeardown(): Promise<void> {
  const { pid, dataDir } = portalState();
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    // already gone
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  if (!process.env.KEEP_E2E_DATA) rmSync(dataDir, { recursive: true, force: true });
}
