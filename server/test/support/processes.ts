import { readdirSync, readFileSync } from 'node:fs';

/**
 * The processes this process started (Linux): its helper processes (decision 144), optionally
 * only those whose command line names `module` (`book.worker`, `extract.worker`).
 */
export function helperProcesses(module?: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // Field 4 of a stat line is the parent; the command name before it may hold spaces.
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== process.pid) continue;
      if (module && !readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(module)) continue;
      found.push(Number(name));
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return found;
}
