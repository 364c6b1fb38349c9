import { execFileSync } from 'node:child_process';
import { descendantsOf } from './processes.ts';

/**
 * Core pinning with `taskset`: the servers (portal and baselines alike) on one core, the load
 * generators (wrk, curl) on another. On a machine of two cores an unpinned generator takes CPU
 * from the server it measures, and how much depends on the scheduler's mood; pinned, each side
 * gets the same core every round.
 */
export interface Pinning {
  enabled: boolean;
  /** CPU list for servers, as taskset takes it (`0`). */
  server: string;
  /** CPU list for load generators (`1`). */
  load: string;
  /** Every CPU this process may use (`0,1`). */
  all: string;
  /** For the report: what was pinned, or why nothing was. */
  description: string;
}

/** CPU numbers of a taskset list such as `0-3,6`. */
export function parseCpuList(list: string): number[] {
  const cpus: number[] = [];
  for (const part of list.trim().split(',')) {
    const [from, to] = part.split('-').map(Number) as [number, number | undefined];
    if (!Number.isInteger(from)) continue;
    for (let cpu = from; cpu <= (to ?? from); cpu += 1) cpus.push(cpu);
  }
  return cpus;
}

function run(command: string, args: string[]): string | undefined {
  try {
    return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return undefined;
  }
}

let current: Pinning = {
  enabled: false,
  server: '',
  load: '',
  all: '',
  description: 'keine Kernbindung',
};

/**
 * Decides the pinning for the run: on when `wanted`, taskset exists and nproc reports at least
 * two cores; the first of this process's CPUs serves, the second generates load.
 */
export function configurePinning(wanted: boolean): Pinning {
  const cores = Number(run('nproc', [])?.trim() ?? 0);
  const affinity = run('taskset', ['-cp', String(process.pid)]);
  const cpus = affinity ? parseCpuList(affinity.slice(affinity.lastIndexOf(':') + 1)) : [];
  const all = cpus.join(',');
  if (!wanted) current = { ...current, all, description: 'keine Kernbindung (`--no-pin`)' };
  else if (!affinity) current = { ...current, all, description: 'keine Kernbindung (taskset fehlt)' };
  else if (cores < 2 || cpus.length < 2)
    current = { ...current, all, description: `keine Kernbindung (nur ${cores} Kern)` };
  else
    current = {
      enabled: true,
      server: String(cpus[0]),
      load: String(cpus[1]),
      all,
      description: `taskset: Portal und Basislinien auf Kern ${cpus[0]}, Lastgenerator (wrk, curl) und der Benchmark-Prozess selbst auf Kern ${cpus[1]}`,
    };
  return current;
}

export const pinning = (): Pinning => current;

/** The command and arguments that start `command` on the server core (unchanged without pinning). */
export function onServerCore(command: string, args: string[]): [string, string[]] {
  return current.enabled ? ['taskset', ['-c', current.server, command, ...args]] : [command, args];
}

/** The command and arguments that start `command` on the load generator's core. */
export function onLoadCore(command: string, args: string[]): [string, string[]] {
  return current.enabled ? ['taskset', ['-c', current.load, command, ...args]] : [command, args];
}

/**
 * Moves this benchmark process (every thread: its garbage collector and libuv's pool too) onto
 * `cpus`; a no-op without pinning. Pinned scenarios keep it on the load core: reading a file
 * through before each side of a transfer, collecting its garbage or parsing a generator's output
 * took a good part of the server core during the upload's rounds (decision 145), time the
 * measured server lost to the process measuring it.
 */
export function moveSelf(cpus: string): void {
  if (current.enabled) setAffinity(process.pid, cpus);
}

/** `taskset -a -p`: every thread of process `id` onto `cpus`. */
function setAffinity(id: number, cpus: string): void {
  execFileSync('taskset', ['-a', '-p', '-c', cpus, String(id)], { stdio: 'ignore' });
}

/**
 * Moves every thread of a running process and of its helper processes onto `cpus` (`taskset -a
 * -p`); a no-op without pinning. The login scenario gives the portal all cores for its storm, as a
 * server has them; helpers started later inherit the portal's cores.
 */
export function moveProcess(pid: number, cpus: string): void {
  if (!current.enabled) return;
  for (const id of [pid, ...descendantsOf(pid)]) {
    try {
      setAffinity(id, cpus);
    } catch {
      // A helper that ended meanwhile.
    }
  }
}
