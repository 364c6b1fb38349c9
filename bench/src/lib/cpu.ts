import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's times (`getconf CLK_TCK`, 100 nearly everywhere). */
export const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** User and system CPU time of a process so far, all its threads together, in seconds (Linux). */
export function cpuSecondsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name in parentheses may hold spaces: the fields counted start after it.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 of proc(5) (utime, stime) are the 12th and 13th after the name.
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** Child processes of a process (nginx's workers under its master). */
export function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      const list = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      if (list) children.push(...list.split(' ').map(Number));
    } catch {
      // the thread ended meanwhile
    }
  }
  return children;
}

/** CPU time of a process and, with `children`, of its children (alive before and after). */
export function cpuOfTree(pid: number, children = false): number {
  const pids = children ? [pid, ...childrenOf(pid)] : [pid];
  return pids.reduce((sum, one) => sum + cpuSecondsOf(one), 0);
}

/** Runs `work` and answers its result with the CPU seconds `sample` grew by meanwhile. */
export async function withCpu<T>(
  sample: () => number,
  work: () => Promise<T>,
): Promise<{ result: T; cpuSeconds: number }> {
  const before = sample();
  const result = await work();
  return { result, cpuSeconds: sample() - before };
}

/** CPU seconds per GiB moved. */
export const cpuPerGiB = (cpuSeconds: number, bytes: number) => cpuSeconds / (bytes / 1024 ** 3);
