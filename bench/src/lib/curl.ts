import { spawn } from 'node:child_process';

export interface Transfer {
  status: number;
  bytes: number;
  seconds: number;
  /** Bytes per second over the whole transfer. */
  rate: number;
}

/**
 * One transfer with curl: a client in C, so the client is never what limits the figure, and the
 * same client for the portal and its baseline.
 */
export function curl(url: string, args: string[] = [], upload = false): Promise<Transfer> {
  const format = upload
    ? '%{http_code} %{size_upload} %{time_total}'
    : '%{http_code} %{size_download} %{time_total}';
  return new Promise((resolve, reject) => {
    const child = spawn('curl', ['-s', '-o', '/dev/null', '-w', format, ...args, url]);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const [status, bytes, seconds] = out.trim().split(' ').map(Number) as [number, number, number];
      if (code !== 0) reject(new Error(`curl ${url} endete mit ${code}`));
      else resolve({ status, bytes, seconds, rate: bytes / seconds });
    });
  });
}

/** The fastest of several transfers. */
export const bestRate = (transfers: readonly Transfer[]) => Math.max(...transfers.map((t) => t.rate));

/** Samples a value every `intervalMs` while `work` runs; returns the work's result and the peak. */
export async function withPeak<T>(sample: () => number, work: () => Promise<T>, intervalMs = 50) {
  let peak = sample();
  const timer = setInterval(() => (peak = Math.max(peak, sample())), intervalMs);
  try {
    const result = await work();
    return { result, peak: Math.max(peak, sample()) };
  } finally {
    clearInterval(timer);
  }
}
