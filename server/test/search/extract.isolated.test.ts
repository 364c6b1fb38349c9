import { readFileSync } from 'node:fs';
import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, extractText, isExtractable } from '../../src/search/extract/index.ts';
import {
  docx,
  docxWithPicture,
  docxZipBomb,
  encryptedOdt,
  encryptedPdf,
  largeDocx,
  malformedPdf,
  odt,
  ods,
  pdfWithEmptyPages,
  pdfWithPages,
  pptx,
  xlsx,
} from '../support/documents.fixtures.ts';
import { helperProcesses } from '../support/processes.ts';

const LINES = ['Jahresabschluss 2025', 'Sitzung im März', 'Vertreterversammlung'];
const AS_LINES = LINES.join('\n');
const AS_ROW = `${LINES.join(' ')}\nBüro Kasse Prüfung`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'extract-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function timed<T>(work: Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const result = await work;
  return [result, performance.now() - start];
}

/**
 * CPU time used so far by the extraction helpers this process runs now (Linux; clock ticks of
 * 10 ms, fields 14 and 15 of a stat line).
 */
function helperCpuMs(): number {
  let ms = 0;
  for (const pid of helperProcesses('extract.worker')) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ms += (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      // Ended between the listing and the read.
    }
  }
  return ms;
}

/** The longest pause between ticks of a 10 ms interval while `work` runs, in ms. */
async function longestTickGap(work: () => Promise<void>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 10);
  try {
    await work();
  } finally {
    clearInterval(ticker);
  }
  return Math.max(longest, performance.now() - last);
}

describe('extractText: documents of the portal', () => {
  it.each([
    ['pdf', () => pdfWithPages(LINES), AS_LINES],
    ['docx', () => docx(LINES), AS_LINES],
    ['odt', () => odt(LINES), AS_LINES],
    ['pptx', () => pptx(LINES), AS_LINES],
    ['xlsx', () => xlsx([LINES, ['Büro', 'Kasse', 'Prüfung']]), AS_ROW],
    ['ods', () => ods([LINES, ['Büro', 'Kasse', 'Prüfung']]), AS_ROW],
  ])('%s: the text with umlauts, one line per paragraph, page, slide or row', async (format, make, text) => {
    expect(await extractText({ bytes: await make() }, format)).toEqual({ state: 'done', text });
  });

  it('reads TXT as UTF-8 with or without BOM, else as windows-1252', async () => {
    const utf8 = Buffer.from('Vertreterversammlung im März', 'utf8');
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8]);
    // 0x84 „ 0x93 “ 0x80 € 0x96 – are windows-1252 (control characters in ISO-8859-1); 0xfc ü, 0xdf ß.
    const latin1 = (text: string) => [...Buffer.from(text, 'latin1')];
    const ansi = Buffer.from([
      0x84,
      ...latin1('Gebühr'),
      0x93,
      ...latin1(' 5 '),
      0x80,
      0x20,
      0x96,
      ...latin1(' Maß'),
    ]);
    expect(await extractText({ bytes: utf8 }, 'txt')).toEqual({
      state: 'done',
      text: 'Vertreterversammlung im März',
    });
    expect(await extractText({ bytes: bom }, 'TXT')).toEqual({
      state: 'done',
      text: 'Vertreterversammlung im März',
    });
    expect(await extractText({ bytes: ansi }, 'txt')).toEqual({ state: 'done', text: '„Gebühr“ 5 € – Maß' });
  });

  it('reads CSV as text, line by line', async () => {
    const csv = Buffer.from('\ufeff"Titel";"Monat"\r\n"Jahresabschluss";"März"\r\n', 'utf8');
    expect(await extractText({ bytes: csv }, 'csv')).toEqual({
      state: 'done',
      text: '"Titel";"Monat"\n"Jahresabschluss";"März"',
    });
  });

  it("reads RTF: \\'hh and \\uN escapes, no picture data, no header groups", async () => {
    const rtf = String.raw`{\rtf1\ansi\ansicpg1252\deff0{\fonttbl{\f0\fswiss Arial;}}{\*\generator Writer;}{\info{\title Protokoll}}\f0 Jahresabschluss im M\'e4rz\par {\pict\pngblip\picw10\pich10 89504e470d0a1a0a}Vertreterversammlung \uc1\u252?ber Gr\u246?\'dfe\par}`;
    expect(await extractText({ bytes: Buffer.from(rtf, 'latin1') }, 'rtf')).toEqual({
      state: 'done',
      text: 'Jahresabschluss im März\nVertreterversammlung über Größe',
    });
  });

  it('collapses blanks and blank lines; removes control characters and soft hyphens', async () => {
    const text = 'Hallo \t  Welt \r\n\r\n\r\n  Zweiter\u0000Absatz\fJahres\u00adabschluss  ';
    expect(await extractText({ bytes: Buffer.from(text) }, 'txt')).toEqual({
      state: 'done',
      text: 'Hallo Welt\nZweiter Absatz\nJahresabschluss',
    });
  });

  it('cuts the text at maxTextBytes between characters, never inside one', async () => {
    const result = await extractText({ bytes: Buffer.from('ä'.repeat(10)) }, 'txt', { maxTextBytes: 5 });
    expect(result).toEqual({ state: 'done', text: 'ää' });
  });

  it('reads from a path (PDF and DOCX), and a file that is not there gives "damaged"', async () => {
    const path = join(dir, 'protokoll.docx');
    await writeFile(path, docx(LINES));
    expect(await extractText({ path }, 'docx')).toEqual({ state: 'done', text: AS_LINES });
    const pdfPath = join(dir, 'protokoll.pdf');
    await writeFile(pdfPath, await pdfWithPages(LINES));
    expect(await extractText({ path: pdfPath }, 'pdf')).toEqual({ state: 'done', text: AS_LINES });
    expect(await extractText({ path: join(dir, 'fehlt.docx') }, 'docx')).toEqual({
      state: 'failed',
      reason: 'damaged',
    });
  });

  it('knows which formats it can read; images, old binary Office files and the rest are unsupported', async () => {
    for (const format of ['pdf', 'docx', 'odt', 'pptx', 'odp', 'xlsx', 'ods', 'txt', 'csv', 'rtf', 'PDF']) {
      expect(isExtractable(format), format).toBe(true);
    }
    for (const format of ['png', 'jpg', 'svg', 'doc', 'xls', 'ppt', 'zip', 'html', 'bin', '']) {
      expect(isExtractable(format), format).toBe(false);
    }
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    expect(await extractText({ bytes: png }, 'png')).toEqual({ state: 'failed', reason: 'unsupported' });
    expect(await extractText({ bytes: docx(LINES) }, 'doc')).toEqual({
      state: 'failed',
      reason: 'unsupported',
    });
  });
});

describe('extractText: hostile and broken files', () => {
  it('a PDF of noise after its header is "damaged"', async () => {
    expect(await extractText({ bytes: malformedPdf() }, 'pdf')).toEqual({
      state: 'failed',
      reason: 'damaged',
    });
  });

  it('password-protected PDF and ODT files are "encrypted"', async () => {
    expect(await extractText({ bytes: await encryptedPdf() }, 'pdf')).toEqual({
      state: 'failed',
      reason: 'encrypted',
    });
    expect(await extractText({ bytes: encryptedOdt() }, 'odt')).toEqual({
      state: 'failed',
      reason: 'encrypted',
    });
  });

  it('a PDF of 10,000 empty pages gives empty text within the time limit, or "timeout"', async () => {
    const pdf = await pdfWithEmptyPages(10_000);
    const [result, ms] = await timed(extractText({ bytes: pdf }, 'pdf'));
    expect([
      { state: 'done', text: '' },
      { state: 'failed', reason: 'timeout' },
    ]).toContainEqual(result);
    expect(ms).toBeLessThan(DEFAULT_LIMITS.timeoutMs + 2_000);
  }, 60_000);

  it('a DOCX zip bomb (4 GiB of zeros, headers claiming 1 KiB) stops at the inflation limit', async () => {
    const bomb = docxZipBomb(4);
    expect(bomb.byteLength).toBeLessThan(5 * 1024 * 1024);
    const [result, ms] = await timed(extractText({ bytes: bomb }, 'docx'));
    expect(result).toEqual({ state: 'failed', reason: 'too_large' });
    expect(ms).toBeLessThan(15_000);
  }, 30_000);

  it('a document whose parse outgrows the heap limit ends the helper with "memory"', async () => {
    // 100,000 paragraphs: 0.3 MB stored, a tree of several hundred MB in the parser.
    const result = await extractText({ bytes: largeDocx(100_000) }, 'docx', { maxMemoryMb: 64 });
    expect(result).toEqual({ state: 'failed', reason: 'memory' });
    // The helper that died is replaced: the next document with the same limit is read.
    expect(
      await extractText({ bytes: Buffer.from('Vertreterversammlung') }, 'txt', { maxMemoryMb: 64 }),
    ).toEqual({
      state: 'done',
      text: 'Vertreterversammlung',
    });
  }, 30_000);

  it('keeps one helper for many documents: later ones skip the start-up', async () => {
    const times: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const [result, ms] = await timed(
        extractText({ bytes: Buffer.from(`Protokoll ${i}`) }, 'txt', { maxMemoryMb: 96 }),
      );
      expect(result).toEqual({ state: 'done', text: `Protokoll ${i}` });
      times.push(ms);
    }
    // Starting a helper (process and parsers) takes about 100 ms; a reused one answers a text in a few.
    expect(Math.max(...times.slice(1))).toBeLessThan(times[0]!);
  }, 30_000);

  it('a 500 MB file is "too_large" at once, without being read', async () => {
    const path = join(dir, 'riesig.txt');
    await writeFile(path, '');
    await truncate(path, 500 * 1024 * 1024);
    const [result, ms] = await timed(extractText({ path }, 'txt'));
    expect(result).toEqual({ state: 'failed', reason: 'too_large' });
    expect(ms).toBeLessThan(200);
    const small = await extractText({ bytes: Buffer.from('Jahresabschluss') }, 'txt', { maxInputBytes: 10 });
    expect(small).toEqual({ state: 'failed', reason: 'too_large' });
  });

  it('a long text file is read only as far as the text limit needs', async () => {
    const path = join(dir, 'lang.txt');
    await writeFile(path, 'Vertreterversammlung im März. '.repeat(1_000_000));
    const result = await extractText({ path }, 'txt', { maxTextBytes: 1024 * 1024 });
    expect(result.state).toBe('done');
    const text = result.state === 'done' ? result.text : '';
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(1024 * 1024);
    expect(Buffer.byteLength(text)).toBeGreaterThan(1024 * 1024 - 4);
    expect(text.startsWith('Vertreterversammlung im März. Vertreterversammlung')).toBe(true);
  });

  it("hands 100 MiB of bytes to the helper without stalling the event loop or touching the caller's copy", async () => {
    const bytes = Buffer.from(docxWithPicture(LINES, 100 * 1024 * 1024));
    const copy = Buffer.from(bytes);
    // The helper for these limits is running, as it is after the first document: starting one
    // forks this process, whose page tables the 200 MiB above make large (60 ms measured here).
    expect(await extractText({ bytes: docx(LINES) }, 'docx')).toEqual({ state: 'done', text: AS_LINES });
    const gap = await longestTickGap(async () => {
      expect(await extractText({ bytes }, 'docx')).toEqual({ state: 'done', text: AS_LINES });
    });
    expect(gap).toBeLessThan(100);
    expect(bytes.equals(copy)).toBe(true);
  }, 30_000);

  it('a helper stopped while the bytes are still on their way leaves nothing behind for the next document', async () => {
    const bytes = Buffer.from(docxWithPicture(LINES, 100 * 1024 * 1024));
    // Stopped after 20 ms, long before 100 MiB have gone through the pipe.
    expect(await extractText({ bytes }, 'docx', { timeoutMs: 20, maxMemoryMb: 80 })).toEqual({
      state: 'failed',
      reason: 'timeout',
    });
    expect(await extractText({ bytes: docx(LINES) }, 'docx', { maxMemoryMb: 80 })).toEqual({
      state: 'done',
      text: AS_LINES,
    });
  }, 30_000);

  it('on timeout the helper is stopped, and the event loop keeps ticking meanwhile', async () => {
    const pdf = await pdfWithEmptyPages(10_000);
    const longestGap = await longestTickGap(async () => {
      const [result, ms] = await timed(extractText({ bytes: pdf }, 'pdf', { timeoutMs: 1_500 }));
      expect(result).toEqual({ state: 'failed', reason: 'timeout' });
      expect(ms).toBeLessThan(2_500);
    });
    expect(longestGap).toBeLessThan(100);
    // A helper left running would keep parsing pages and burn a core; the idle helpers of other
    // memory limits compute nothing, and neither does this process.
    const before = process.cpuUsage();
    const helpersBefore = helperCpuMs();
    await sleep(1_000);
    const used = process.cpuUsage(before);
    expect((used.user + used.system) / 1000).toBeLessThan(300);
    expect(helperCpuMs() - helpersBefore).toBeLessThan(300);
  }, 30_000);
});
