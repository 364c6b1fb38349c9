import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, open, rm, truncate, writeFile, type FileHandle } from 'node:fs/promises';
import { EventEmitter } from 'node:events';
import { get, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendFileRange } from '../../src/http/send-file.ts';

// Over five reads of 1 MiB, not a multiple of it: every buffer is reused several times.
const SIZE = 5 * 1024 * 1024 + 12_345;
const content = randomBytes(SIZE);
const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

let dir: string;
let path: string;
let app: FastifyInstance;
let base: string;
const opened: FileHandle[] = [];
const finished: number[] = [];
/** The app's log lines (info and above), parsed. */
const logLines: { msg: string; res?: { statusCode: number }; bytesSent?: number }[] = [];
let served: Promise<void> = Promise.resolve();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'send-file-'));
  path = join(dir, 'object');
  await writeFile(path, content);
  app = Fastify({
    logger: { level: 'info', stream: { write: (line: string) => logLines.push(JSON.parse(line)) } },
  });
  app.addHook('onResponse', async (_request, reply) => {
    finished.push(reply.statusCode);
  });
  app.get<{ Querystring: { start?: string; end?: string } }>('/file', async (request, reply) => {
    const file = await open(path, 'r');
    opened.push(file);
    const start = Number(request.query.start ?? 0);
    const end = Number(request.query.end ?? SIZE - 1);
    reply.status(request.query.start ? 206 : 200).header('x-test', 'kept');
    reply.header('content-length', String(end - start + 1));
    served = sendFileRange(reply, file, { start, end });
    await served;
    return reply;
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await app.close();
  await rm(dir, { recursive: true, force: true });
});

function request(url: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => get(url, resolve).on('error', reject));
}

/** Reads the body slowly (the kernel's socket buffers take most of it; see the unit test below). */
async function slowBody(response: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of response) {
    chunks.push(chunk as Buffer);
    if (chunks.length % 8 === 0) await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return Buffer.concat(chunks);
}

describe('sendFileRange over a real socket', () => {
  it('sends every byte of the file unchanged to a slow reader, with the reply headers', async () => {
    const response = await request(`${base}/file`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-test']).toBe('kept');
    expect(response.headers['content-length']).toBe(String(SIZE));
    const body = await slowBody(response);
    expect(body.length).toBe(SIZE);
    expect(sha(body)).toBe(sha(content));
    await served;
    expect(opened.at(-1)!.fd).toBe(-1);
    expect(finished.at(-1)).toBe(200);
  });

  it('sends a range across several reads exactly', async () => {
    const start = 1024 * 1024 - 7;
    const end = 3 * 1024 * 1024 + 100;
    const response = await request(`${base}/file?start=${start}&end=${end}`);
    expect(response.statusCode).toBe(206);
    const body = await slowBody(response);
    expect(sha(body)).toBe(sha(content.subarray(start, end + 1)));
    expect(finished.at(-1)).toBe(206);
  });

  it('stops and closes the file when the client goes away', async () => {
    const response = await request(`${base}/file`);
    await new Promise((resolve) => response.once('data', resolve));
    response.destroy();
    await served;
    expect(opened.at(-1)!.fd).toBe(-1);
    // The response never finishes, so Fastify writes no request line: the download writes its own,
    // whether it notices the close or a failed write first; a client going away is no warning.
    const line = logLines.findLast((entry) => entry.msg === 'download aborted');
    expect(line?.res?.statusCode).toBe(200);
    expect(line?.bytesSent).toBeGreaterThan(0);
    expect(line?.bytesSent).toBeLessThan(SIZE);
    expect(logLines.map((entry) => entry.msg)).not.toContain('download cut off');
  });

  it('cuts the connection off when the file ends before its size, never sending a wrong body', async () => {
    const copy = join(dir, 'short');
    await writeFile(copy, content);
    const file = await open(copy, 'r');
    await truncate(copy, 2 * 1024 * 1024);
    const local = Fastify();
    local.get('/short', async (_request, reply) => {
      reply.header('content-length', String(SIZE));
      await sendFileRange(reply, file, { start: 0, end: SIZE - 1 });
      return reply;
    });
    await local.listen({ port: 0, host: '127.0.0.1' });
    try {
      const port = (local.server.address() as AddressInfo).port;
      const response = await request(`http://127.0.0.1:${port}/short`);
      await expect(slowBody(response)).rejects.toThrow();
      expect(file.fd).toBe(-1);
    } finally {
      await local.close();
    }
  });
});

/**
 * A response whose socket takes each write only after a delay, as a full socket does: every chunk
 * must still hold the bytes it held when written when its write completes, or a buffer was read
 * into again while the socket still needed it.
 */
class SlowResponse extends EventEmitter {
  destroyed = false;
  received: Buffer[] = [];
  changed = 0;
  pending = 0;
  maxPending = 0;
  writeHead() {}
  write(chunk: Buffer, callback: (error?: Error | null) => void) {
    const copy = Buffer.from(chunk);
    this.pending += 1;
    this.maxPending = Math.max(this.maxPending, this.pending);
    setTimeout(() => {
      if (!chunk.equals(copy)) this.changed += 1;
      this.received.push(copy);
      this.pending -= 1;
      callback(null);
    }, 3);
    return false;
  }
  end() {
    this.emit('close');
  }
  destroy() {}
}

describe('sendFileRange and its buffers', () => {
  it('reads into a buffer again only after the socket has taken its last write', async () => {
    const res = new SlowResponse();
    const reply = {
      raw: res,
      statusCode: 200,
      hijack() {},
      getHeaders: () => ({}),
      log: { warn() {} },
    } as unknown as FastifyReply;
    await sendFileRange(reply, await open(path, 'r'), { start: 0, end: SIZE - 1 });
    expect(res.changed).toBe(0);
    expect(res.maxPending).toBeLessThanOrEqual(2);
    expect(sha(Buffer.concat(res.received))).toBe(sha(content));
  });
});
