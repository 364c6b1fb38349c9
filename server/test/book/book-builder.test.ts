import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BookBuilder, type BuiltBook } from '../../src/book/book-builder.ts';
import type { BookPlan } from '../../src/book/types.ts';
import { pdfWithPages } from '../support/documents.fixtures.ts';
import { helperProcesses } from '../support/processes.ts';

/** The Sitzungsmappe's helper pool: one helper serves book after book. */

const plan: BookPlan = {
  event: {
    title: 'Aufsichtsratssitzung',
    start: '2027-03-10T17:00:00.000Z',
    end: '2027-03-10T19:00:00.000Z',
    location: 'Sitzungssaal',
  },
  reader: 'Erika Muster',
  createdAt: '2026-11-29T10:00:00.000Z',
  timeZone: 'Europe/Berlin',
  items: [
    { number: '1', title: 'Bericht', presenter: 'Vorstand', description: '', sub: false, documents: [0, 1] },
  ],
  documents: [
    { title: 'Bericht', format: 'pdf', sizeBytes: 0 },
    { title: 'Anlage', format: 'pdf', sizeBytes: 0 },
  ],
};

/**
 * Reads the book's bytes up to its size and destroys the stream at once, as Fastify does when a
 * client closes its connection as soon as it has every byte (curl, many download managers).
 */
async function takeAndClose(book: BuiltBook): Promise<number> {
  let received = 0;
  for await (const chunk of book.stream) {
    received += (chunk as Buffer).byteLength;
    if (received >= book.size) break;
  }
  book.stream.destroy();
  return received;
}

describe.runIf(process.platform === 'linux')('BookBuilder', () => {
  let builder: BookBuilder | undefined;
  afterEach(async () => {
    await builder?.close();
    builder = undefined;
  });

  it('frees the slot once the book is in its temporary file, before anyone reads it (decision 149)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gremienportal-book-files-'));
    try {
      builder = new BookBuilder({ concurrency: 1 }, { tmpDir: dir });
      const pdf = await pdfWithPages(['Seite 1']);
      const read = async () => ({ bytes: new Uint8Array(pdf) });
      const first = await builder.build(plan, read);
      // Nobody has read a byte: the slot is free, the file has no name.
      expect(builder.full).toBe(false);
      expect(await readdir(dir)).toEqual([]);
      const second = await builder.build(plan, read);
      expect(await takeAndClose(second)).toBe(second.size);
      expect(await takeAndClose(first)).toBe(first.size);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('hands the helper the next book when the client closed right after the last byte', async () => {
    // Without a folder of its own, the builder keeps its files in one inside the system's temporary
    // folder and leaves that shared folder's rights alone (making it owner-only locked out nginx).
    const sharedMode = (await stat(tmpdir())).mode;
    builder = new BookBuilder();
    const pdf = await pdfWithPages(['Seite 1', 'Seite 2', 'Seite 3']);
    const read = async () => ({ bytes: new Uint8Array(pdf) });
    const helpers: number[][] = [];
    for (let book = 0; book < 3; book += 1) {
      const built = await builder.build(plan, read);
      expect(built.inserted).toEqual([0, 1]);
      expect(await takeAndClose(built)).toBe(built.size);
      expect(builder.full).toBe(false);
      helpers.push(helperProcesses('book.worker'));
    }
    expect((await stat(tmpdir())).mode).toBe(sharedMode);
    // One helper, started for the first book and kept for the others.
    expect(helpers[0]).toHaveLength(1);
    expect(helpers).toEqual([helpers[0], helpers[0], helpers[0]]);
    // With a small young generation (decision 144): its resident set stays lower.
    expect(readFileSync(`/proc/${helpers[0]![0]}/cmdline`, 'utf8').split('\0')).toContain(
      '--max-semi-space-size=4',
    );
  });
});
