import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { onLoadCore } from './pinning.ts';

export interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  /** Answers that were not 2xx, plus connection errors and timeouts. */
  failed: number;
  /** Every response time (ms) with how often it occurred, ascending: for percentiles over rounds. */
  histogram: Histogram;
}

/** [response time in ms, count] pairs, ascending by time. */
export type Histogram = ReadonlyArray<readonly [number, number]>;

/** Exact percentile of sorted values (nearest rank). */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export function summarise(latencies: number[], seconds: number, failed: number): LoadResult {
  const sorted = [...latencies].sort((a, b) => a - b);
  const histogram: [number, number][] = [];
  for (const value of sorted) {
    const last = histogram.at(-1);
    if (last?.[0] === value) last[1] += 1;
    else histogram.push([value, 1]);
  }
  return {
    requests: sorted.length,
    rps: sorted.length / seconds,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    failed,
    histogram,
  };
}

/**
 * The percentile (nearest rank) of the answers of several loads together, as if they were one:
 * for a tail percentile the value of a single short round depends on whether a garbage collection
 * fell into it; over all rounds it depends on how often they happen.
 */
export function pooledPercentile(results: readonly LoadResult[], p: number): number {
  const merged = new Map<number, number>();
  for (const result of results)
    for (const [value, count] of result.histogram) merged.set(value, (merged.get(value) ?? 0) + count);
  const total = [...merged.values()].reduce((sum, count) => sum + count, 0);
  if (total === 0) return NaN;
  const rank = Math.min(total, Math.max(1, Math.ceil((p / 100) * total)));
  let seen = 0;
  for (const value of [...merged.keys()].sort((a, b) => a - b)) {
    seen += merged.get(value)!;
    if (seen >= rank) return value;
  }
  return NaN;
}

/**
 * HTTP load with autocannon; every response time is kept, so p95 (which autocannon's summary
 * lacks) is exact.
 */
export async function load(options: {
  url: string;
  connections: number;
  seconds: number;
  headers?: Record<string, string>;
  /** Requests per second over all connections; unlimited when left out. */
  rate?: number;
}): Promise<LoadResult> {
  const latencies: number[] = [];
  let failed = 0;
  const instance = autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.seconds,
    headers: options.headers,
    timeout: 30,
    ...(options.rate ? { overallRate: options.rate } : {}),
  });
  instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
    latencies.push(ms);
    if (status < 200 || status >= 300) failed += 1;
  });
  const result = await instance;
  return summarise(latencies, result.duration, failed + result.errors + result.timeouts);
}

/** The line report.lua prints. */
interface WrkReport {
  requests: number;
  duration_us: number;
  p50_us: number;
  p95_us: number;
  p99_us: number;
  failed: number;
  histogram_us: [number, number][];
}

const REPORT_SCRIPT = fileURLToPath(new URL('./report.lua', import.meta.url));

/** A wrk script that sends each request as the next of several members, then reports as usual. */
function rotatingScript(tokens: readonly string[]): string {
  const file = join(mkdtempSync(join(tmpdir(), 'wrk-')), 'rotate.lua');
  const list = tokens.map((token) => `"${token.replace(/[^\w.-]/g, '')}"`).join(',');
  writeFileSync(
    file,
    `local tokens = {${list}}\nlocal turn = 0\n` +
      'request = function()\n  turn = turn % #tokens + 1\n' +
      '  wrk.headers["Authorization"] = "Bearer " .. tokens[turn]\n  return wrk.format()\nend\n' +
      readFileSync(REPORT_SCRIPT, 'utf8'),
  );
  return file;
}

/**
 * HTTP load with wrk (Debian): a C client that keeps up with the portal even when answers are
 * hundreds of kilobytes, where autocannon itself became the limit. One thread (`-t1`): on two
 * cores a second generator thread takes CPU from the server it measures. On the load core when
 * pinned (pinning.ts). Latencies from wrk's histogram (microseconds); non-2xx answers count as
 * failed.
 */
export function wrk(options: {
  url: string;
  connections: number;
  seconds: number;
  headers?: Record<string, string>;
  /** Bearer tokens to take turns with, one request each (the script's own `request`). */
  tokens?: readonly string[];
}): Promise<LoadResult> {
  const script = options.tokens ? rotatingScript(options.tokens) : REPORT_SCRIPT;
  const args = ['-t1', `-c${options.connections}`, `-d${options.seconds}s`, '--timeout', '30s', '-s', script];
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push('-H', `${name}: ${value}`);
  args.push(options.url);
  return new Promise((resolve, reject) => {
    const child = spawn(...onLoadCore('wrk', args));
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const line = out.split('\n').find((text) => text.startsWith('{"requests"'));
      if (code !== 0 || !line) return reject(new Error(`wrk endete mit ${code}: ${out}`));
      const r = JSON.parse(line) as WrkReport;
      const seconds = r.duration_us / 1e6;
      resolve({
        requests: r.requests,
        rps: r.requests / seconds,
        p50: r.p50_us / 1000,
        p95: r.p95_us / 1000,
        p99: r.p99_us / 1000,
        failed: r.failed,
        histogram: r.histogram_us.map(([us, count]) => [us / 1000, count] as const),
      });
    });
  });
}
