import { spawn } from 'node:child_process';
import { open } from 'node:fs/promises';
import { onLoadCore } from './pinning.ts';

export interface Transfer {
  status: number;
  bytes: number;
  seconds: number;
  /** Bytes per second over the whole transfer. */
  rate: number;
}

/**
 * One transfer with curl: a client in C, so the client is never what limits the figure, and the
 * same client for the portal and its baseline; on the load core when pinned (pinning.ts). The
 * answer's body goes to `output` (thrown away unless it is needed).
 */
export function curl(
  url: string,
  args: string[] = [],
  upload = false,
  output = '/dev/null',
): Promise<Transfer> {
  const format = upload
    ? '%{http_code} %{size_upload} %{time_total}'
    : '%{http_code} %{size_download} %{time_total}';
  return new Promise((resolve, reject) => {
    const child = spawn(...onLoadCore('curl', ['-s', '-o', output, '-w', format, ...args, url]));
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

/**
 * Reads a file once from start to end and forgets the bytes: ahead of each side of a transfer
 * comparison, so both find the file in the page cache the same way.
 */
export async function readThrough(path: string): Promise<void> {
  // Into one buffer: a stream's new buffer per MiB left a gigabyte of garbage to collect, whose
  // collector threads then ran into the next side's measurement.
  const buffer = Buffer.allocUnsafe(1024 ** 2);
  const file = await open(path, 'r');
  try {
    while ((await file.read(buffer, 0, buffer.length, null)).bytesRead > 0);
  } finally {
    await file.close();
  }
}

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
