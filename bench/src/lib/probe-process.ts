/**
 * Health probes in a process of their own (the login scenario): the sign-in storm's client runs in
 * the bench process, and probes sharing its event loop measured its delays, not the portal's.
 * Started by `probeInOwnProcess`; says "bereit" once loaded, starts on "los" and prints the
 * LoadResult as one JSON line.
 */
import { createInterface } from 'node:readline';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { load, type LoadResult } from './load.ts';

interface ProbeOptions {
  url: string;
  seconds: number;
  rate: number;
}

const SELF = fileURLToPath(import.meta.url);

/** Starts the probe process and resolves once it is loaded; `start()` begins the probes. */
export async function probeInOwnProcess(options: ProbeOptions): Promise<{ start(): Promise<LoadResult> }> {
  const child = spawn(process.execPath, [...process.execArgv, SELF, JSON.stringify(options)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const next = () =>
    new Promise<string>((resolve, reject) => {
      lines.once('line', resolve);
      child.once('exit', (code) => reject(new Error(`Health-Proben endeten mit ${code}`)));
    });
  const ready = await next();
  if (ready !== 'bereit') throw new Error(`Health-Proben: unerwartete Ausgabe ${ready}`);
  return {
    async start() {
      const result = next();
      child.stdin.write('los\n');
      const line = await result;
      child.stdin.end();
      return JSON.parse(line) as LoadResult;
    },
  };
}

if (process.argv[1] === SELF) {
  const options = JSON.parse(process.argv[2]!) as ProbeOptions;
  const input = createInterface({ input: process.stdin });
  process.stdout.write('bereit\n');
  input.once('line', () => {
    void load({ url: options.url, connections: 1, seconds: options.seconds, rate: options.rate }).then(
      (result) => {
        process.stdout.write(`${JSON.stringify(result)}\n`);
        input.close();
      },
    );
  });
}
