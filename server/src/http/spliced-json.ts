import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { constants, deflateRawSync, gzip } from 'node:zlib';

const gzipAsync = promisify(gzip);

/*
 * An answer serialised once for many readers, with a few per-reader values spliced in
 * (decision 131): the folder tree and the explorer's listings are shared by everyone with the
 * same roles, but each member has their own "neu" markers. Serialising and compressing megabytes
 * per member would cost what the shared cache saves, so the JSON is built once with fixed-width
 * slots, and the gzip form once as compressed pieces between the slots:
 *
 * - A slot holds a number padded with spaces to 7 characters (`"new_count":3      `) or a flag
 *   padded to 5 (`"new":true `); JSON allows white space after a value, so every member's answer
 *   has the same length and the same bytes outside the slots.
 * - Each piece between two slots is compressed on its own, ending on a byte boundary (sync flush),
 *   with the 8 KiB before it as its dictionary, the slots there replaced by NUL bytes. Serialised
 *   JSON never holds a raw control character, so no back-reference can reach into a slot: the
 *   decoder's window holds the member's slot bytes there, and distances stay right because the
 *   width is fixed. A slot itself is a stored block.
 * - The CRC-32 of a member's answer is the shared answer's CRC with the changed slots' difference
 *   added (CRC is linear for equal lengths), so it costs per changed slot, not per byte.
 */

const NONCE = randomBytes(8).toString('hex');
const COUNT_WIDTH = 7;
const FLAG_WIDTH = 5;
/** The compressor's window: small, so that each of thousands of pieces starts cheaply. */
const WINDOW_BITS = 13;
const DICTIONARY_BYTES = 2 ** WINDOW_BITS - 262;
/**
 * Smaller answers (listings) are compressed whole per reader: that is quicker than splicing
 * thousands of pieces the first time, and as small as the shared answer.
 */
const SPLICE_MIN_BYTES = 512 * 1024;

type SlotKind = 'c' | 'f';

/** A placeholder for a per-reader count (0 unless the reader's values say otherwise). */
export const countSlot = (key: string): number => `\u0000${NONCE}c${key}\u0000` as unknown as number;
/** A placeholder for a per-reader flag (false unless the reader's values say otherwise). */
export const flagSlot = (key: string): boolean => `\u0000${NONCE}f${key}\u0000` as unknown as boolean;

const SLOT_PATTERN = new RegExp(`"\\\\u0000${NONCE}([cf])([^"\\\\]*)\\\\u0000"`, 'g');

const widthOf = (kind: SlotKind) => (kind === 'c' ? COUNT_WIDTH : FLAG_WIDTH);
const slotText = (kind: SlotKind, value: number | boolean) =>
  String(kind === 'c' ? Math.max(0, Math.min(9_999_999, Math.trunc(Number(value)))) : value === true).padEnd(
    widthOf(kind),
  );

// CRC-32 (zlib's polynomial, reflected): a table for bytes and GF(2) products for shifts.
const POLY = 0xedb88320;
const TABLE = new Uint32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? (c >>> 1) ^ POLY : c >>> 1;
  return c >>> 0;
});

/** a × b modulo the CRC polynomial (a ≠ 0), as zlib's `multmodp`. */
function multmodp(a: number, b: number): number {
  let m = 0x80000000;
  let p = 0;
  for (;;) {
    if (a & m) {
      p ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1;
  }
  return p >>> 0;
}

const X2N = (() => {
  const table: number[] = [];
  let p = 0x40000000;
  table.push(p);
  for (let n = 1; n < 32; n += 1) table.push((p = multmodp(p, p)));
  return table;
})();

/** x^(8·bytes) modulo the polynomial: shifts a CRC over that many zero bytes. */
function zeroBytesOperator(bytes: number): number {
  let p = 0x80000000;
  let k = 3;
  for (let n = bytes; n > 0; n = Math.floor(n / 2), k += 1) {
    if (n % 2 === 1) p = multmodp(X2N[k & 31]!, p);
  }
  return p;
}

/** The CRC's linear part over a few bytes (register starts at 0, no final inversion). */
function linearCrc(bytes: Uint8Array): number {
  let c = 0;
  for (const byte of bytes) c = TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return c >>> 0;
}

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A stored (uncompressed) block holding `text`, for a slot. */
function storedBlock(text: Uint8Array): Buffer {
  const length = text.length;
  const block = Buffer.alloc(5 + length);
  block.set([0, length & 0xff, length >>> 8, ~length & 0xff, (~length >>> 8) & 0xff]);
  block.set(text, 5);
  return block;
}

const DEFAULT_BLOCKS: Record<SlotKind, Buffer> = {
  c: storedBlock(Buffer.from(slotText('c', 0))),
  f: storedBlock(Buffer.from(slotText('f', false))),
};

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
/** An empty final block with fixed codes. */
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);

interface Slot {
  key: string;
  kind: SlotKind;
  /** Byte offset of the slot in the JSON. */
  offset: number;
  /** x^(8·bytes after the slot), computed on first use. */
  shift?: number;
}

/** An answer as it is sent: JSON text and, on demand, its gzip form. */
export interface Serialised {
  json: string | Buffer;
  gzip(): Promise<Buffer>;
}

/** Per-reader values: slot key (as given to `countSlot`/`flagSlot`) to value; others stay 0/false. */
export type SlotValues = ReadonlyMap<string, number | boolean>;

export class SplicedJson {
  /** The shared answer (every slot 0 or false). */
  readonly json: Buffer;
  private readonly slots: Slot[];
  private readonly index = new Map<string, number>();
  private readonly pieces: Buffer[];
  private compressed: Buffer[] | undefined;
  private crc: number | undefined;
  private plainGzip: Promise<Buffer> | undefined;

  /** `data` with slots from `countSlot`/`flagSlot`, answered as `{ "data": … }`. */
  constructor(data: unknown) {
    const text = JSON.stringify({ data });
    const pieces: Buffer[] = [];
    const slots: Slot[] = [];
    let last = 0;
    let offset = 0;
    for (const match of text.matchAll(SLOT_PATTERN)) {
      const piece = Buffer.from(text.slice(last, match.index));
      pieces.push(piece);
      offset += piece.length;
      const kind = match[1] as SlotKind;
      slots.push({ key: match[2]!, kind, offset });
      offset += widthOf(kind);
      last = match.index + match[0].length;
    }
    pieces.push(Buffer.from(text.slice(last)));
    this.pieces = pieces;
    this.slots = slots;
    slots.forEach((slot, i) => this.index.set(`${slot.kind}${slot.key}`, i));
    const parts: Buffer[] = [];
    pieces.forEach((piece, i) => {
      parts.push(piece);
      const slot = slots[i];
      if (slot) parts.push(Buffer.from(slotText(slot.kind, slot.kind === 'c' ? 0 : false)));
    });
    this.json = Buffer.concat(parts);
  }

  /** The shared answer, compressed as a whole (best ratio). */
  get plain(): Serialised {
    return {
      json: this.json,
      gzip: () => (this.plainGzip ??= gzipAsync(this.json, { level: 6 })),
    };
  }

  /** The answer with this reader's values; the shared one when none differs. */
  render(values: SlotValues): Serialised {
    const changed: { slot: Slot; index: number; text: Buffer }[] = [];
    for (const [key, value] of values) {
      const kind: SlotKind = typeof value === 'boolean' ? 'f' : 'c';
      const index = this.index.get(`${kind}${key}`);
      if (index === undefined) continue;
      const slot = this.slots[index]!;
      const text = Buffer.from(slotText(kind, value));
      if (!text.equals(this.json.subarray(slot.offset, slot.offset + text.length))) {
        changed.push({ slot, index, text });
      }
    }
    if (changed.length === 0) return this.plain;
    const shared = this.json;
    let json: Buffer | undefined;
    let gzipped: Promise<Buffer> | undefined;
    const spliced = this.json.length >= SPLICE_MIN_BYTES;
    const rendered: Serialised = {
      // Copied only for a client without gzip (browsers take gzip).
      get json() {
        if (!json) {
          json = Buffer.from(shared);
          for (const { slot, text } of changed) text.copy(json, slot.offset);
        }
        return json;
      },
      gzip: () =>
        (gzipped ??= spliced
          ? Promise.resolve(this.gzipWith(changed))
          : gzipAsync(rendered.json, { level: 6 })),
    };
    return rendered;
  }

  /** Whether a reader's gzip answer is spliced (larger than a whole compression). */
  get splices(): boolean {
    return this.json.length >= SPLICE_MIN_BYTES;
  }

  private gzipWith(changed: { slot: Slot; index: number; text: Buffer }[]): Buffer {
    const compressed = this.compressPieces();
    const byIndex = new Map(changed.map((entry) => [entry.index, entry.text]));
    let crc = (this.crc ??= crc32(this.json));
    for (const { slot, text } of changed) {
      const shared = this.json.subarray(slot.offset, slot.offset + text.length);
      const difference = Buffer.alloc(text.length);
      for (let i = 0; i < text.length; i += 1) difference[i] = text[i]! ^ shared[i]!;
      slot.shift ??= zeroBytesOperator(this.json.length - slot.offset - text.length);
      crc = (crc ^ multmodp(slot.shift, linearCrc(difference))) >>> 0;
    }
    const parts: Buffer[] = [GZIP_HEADER];
    compressed.forEach((piece, i) => {
      parts.push(piece);
      const slot = this.slots[i];
      if (slot) {
        const text = byIndex.get(i);
        parts.push(text ? storedBlock(text) : DEFAULT_BLOCKS[slot.kind]);
      }
    });
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(crc, 0);
    trailer.writeUInt32LE(this.json.length % 2 ** 32, 4);
    parts.push(FINAL_BLOCK, trailer);
    return Buffer.concat(parts);
  }

  /** Each piece compressed on its own, with the bytes before it (slots as NUL) as dictionary. */
  private compressPieces(): Buffer[] {
    if (this.compressed) return this.compressed;
    const shadow = Buffer.from(this.json);
    for (const slot of this.slots) shadow.fill(0, slot.offset, slot.offset + widthOf(slot.kind));
    let start = 0;
    this.compressed = this.pieces.map((piece, i) => {
      const dictionary = shadow.subarray(Math.max(0, start - DICTIONARY_BYTES), start);
      const slot = this.slots[i];
      start += piece.length + (slot ? widthOf(slot.kind) : 0);
      if (piece.length === 0) return Buffer.alloc(0);
      return deflateRawSync(piece, {
        level: 6,
        windowBits: WINDOW_BITS,
        memLevel: 7,
        finishFlush: constants.Z_SYNC_FLUSH,
        ...(dictionary.length > 0 ? { dictionary } : {}),
      });
    });
    return this.compressed;
  }
}

/** Whether an Accept-Encoding header takes gzip (listed, and not with `q=0`). */
export function acceptsGzip(header: string | undefined): boolean {
  return (header ?? '').split(',').some((part) => {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    return (
      (name === 'gzip' || name === 'x-gzip') &&
      !params.some((param) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(param))
    );
  });
}
