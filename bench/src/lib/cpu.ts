import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { ratioFigure, spreadText, valuesOf } from './compare.ts';
import { times, type Figure } from './report.ts';

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

/** A round's result with the CPU seconds the measured server spent during it. */
export type Metered<T> = T & { cpuSeconds: number };

/**
 * Runs one side of a round (a wrk load) and adds the CPU seconds process `pid` spent meanwhile
 * (`utime + stime` of all its threads; its helper processes are not counted).
 */
export async function metered<T extends object>(pid: number, work: () => Promise<T>): Promise<Metered<T>> {
  const { result, cpuSeconds } = await withCpu(() => cpuSecondsOf(pid), work);
  return { ...result, cpuSeconds };
}

/** CPU seconds per answered request of one round (not finite without answers). */
export const cpuPerRequest = (round: Metered<{ requests: number }>): number =>
  round.cpuSeconds / round.requests;

/** A CPU time: µs below a millisecond (one decimal below 100 µs), else ms. */
export const cpuTime = (seconds: number): string =>
  seconds < 1e-3
    ? `${(seconds * 1e6).toFixed(seconds < 1e-4 ? 1 : 0)} µs`
    : `${(seconds * 1e3).toFixed(2)} ms`;

/**
 * The figure "CPU-Zeit je Anfrage": the side's CPU time per answered request, median (smallest–
 * largest) over the rounds, and where there is a baseline the baseline's and the ratio of both
 * per round. No goal: CPU time per request moves far less between machines than the answers per
 * second, and tells where a throughput ratio comes from (decision 185).
 */
export function cpuFigure<T>(options: {
  measure: string;
  rounds: readonly T[];
  side: (round: T) => Metered<{ requests: number }>;
  baseline?: (round: T) => Metered<{ requests: number }>;
}): Figure {
  const { rounds, side, baseline } = options;
  const value = spreadText(
    valuesOf(rounds, (round) => cpuPerRequest(side(round))),
    cpuTime,
  );
  if (!baseline) return { measure: options.measure, value };
  return ratioFigure({
    measure: options.measure,
    value,
    baseline: spreadText(
      valuesOf(rounds, (round) => cpuPerRequest(baseline(round))),
      cpuTime,
    ),
    ratio: valuesOf(rounds, (round) => cpuPerRequest(side(round)) / cpuPerRequest(baseline(round))),
    format: times,
  });
}
