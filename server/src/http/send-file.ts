import type { FileHandle } from 'node:fs/promises';
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import type { ByteRange, FileStorage } from '../storage/file-storage.ts';

/** Bytes per read: few system calls, a bounded amount of memory per download. */
const CHUNK = 1024 * 1024;

/**
 * Sends `range` of a stored object (the whole object without one) as the body of `reply`, whose
 * status and headers are set. Stores that keep objects as local files go through
 * `sendFileRange`; the others stream what `get` gives.
 */
export async function sendStoredObject(
  reply: FastifyReply,
  storage: Pick<FileStorage, 'get' | 'openFile'>,
  key: string,
  size: number,
  range?: ByteRange,
): Promise<FastifyReply> {
  if (!storage.openFile) return reply.send(await storage.get(key, range));
  const file = await storage.openFile(key);
  await sendFileRange(reply, file, range ?? { start: 0, end: size - 1 });
  return reply;
}

const idle = Promise.resolve(null);

/** Resolves once the socket has taken `chunk`, with the error if it could not; never rejects. */
const written = (res: ServerResponse, chunk: Buffer) =>
  new Promise<Error | null>((resolve) => res.write(chunk, (error) => resolve(error ?? null)));

/**
 * Writes bytes `range.start`…`range.end` of an open file as the body of `reply` and closes the
 * file; the status and headers must be set on the reply.
 *
 * Why not `fs.createReadStream`: it allocates a new buffer for every read, which V8 counts as
 * external memory, and every 64 MiB of that starts a full garbage collection over the whole heap.
 * With the portal's caches in the heap that made the direct path far slower than nginx on the
 * same core (decisions 135, 154). Here two buffers per download take turns, and a buffer is
 * read into again only after the socket has taken what was last written from it (the write's
 * callback), so no byte changes after it was handed to the response.
 *
 * The reply is hijacked after the headers are known: Fastify's `onSend` hooks do not run (no
 * download route has one; headers set in `onRequest` are on the reply and written here), its
 * `onResponse` hooks and the request log do (they wait for the response to finish). A client that
 * goes away ends the loop; as the response then never finishes, Fastify writes no request line,
 * so this writes one of its own (`download aborted`, with the bytes sent), also when a write to the
 * gone client fails first. A read error after the headers destroys the connection (`download cut
 * off`, a warning), so the client sees a cut-off transfer, never a wrong body.
 */
export async function sendFileRange(reply: FastifyReply, file: FileHandle, range: ByteRange) {
  const res = reply.raw;
  try {
    reply.hijack();
    if (res.destroyed) return;
    res.writeHead(reply.statusCode, reply.getHeaders() as OutgoingHttpHeaders);
    const closed = new Promise<'closed'>((resolve) => res.once('close', () => resolve('closed')));
    const size = Math.min(CHUNK, range.end - range.start + 1);
    const buffers = [Buffer.allocUnsafeSlow(size), Buffer.allocUnsafeSlow(size)] as const;
    const writes: [Promise<Error | null>, Promise<Error | null>] = [idle, idle];
    let position = range.start;
    // The client went away (the socket closed, or a write to it failed): not an error of ours.
    const aborted = (error?: Error) => {
      reply.log.info(
        {
          req: { method: reply.request.method, url: reply.request.url },
          res: { statusCode: reply.statusCode },
          responseTime: reply.elapsedTime,
          // Handed to the socket, not necessarily received.
          bytesSent: position - range.start,
          reason: (error as NodeJS.ErrnoException | undefined)?.code ?? 'closed',
        },
        'download aborted',
      );
      if (error) res.destroy();
    };
    for (let turn: 0 | 1 = 0; position <= range.end; turn = turn === 0 ? 1 : 0) {
      const previous = await Promise.race([writes[turn], closed]);
      if (previous === 'closed') return aborted();
      if (previous) return aborted(previous);
      const buffer = buffers[turn];
      const length = Math.min(size, range.end + 1 - position);
      const { bytesRead } = await file.read(buffer, 0, length, position);
      if (bytesRead === 0) throw new Error('Die Datei ist kürzer als ihre gespeicherte Größe.');
      position += bytesRead;
      writes[turn] = written(res, buffer.subarray(0, bytesRead));
    }
    const last = await Promise.race([Promise.all(writes), closed]);
    if (last === 'closed') return aborted();
    const failed = last.find((error) => error !== null);
    if (failed) return aborted(failed);
    res.end();
  } catch (error) {
    reply.log.warn({ err: error }, 'download cut off');
    res.destroy(error as Error);
  } finally {
    await file.close();
  }
}
