import { describe, expect, it } from 'vitest';
import { gunzipSync } from 'node:zlib';
import { countSlot, flagSlot, SplicedJson } from '../../src/http/spliced-json.ts';

/*
 * The shared answer with per-member slots (decision 131): a member's values overwrite the slots,
 * the spliced gzip form decompresses (CRC and length checked by zlib) to exactly that JSON, and a
 * member with nothing new gets the shared bytes.
 */

interface Node {
  id: number;
  title: string;
  new_count: number;
  files: { id: number; title: string; new: boolean }[];
}

/** A tree-like answer: `folders` folders of `files` documents, each with its slots. */
function answer(folders: number, files: number, values: ReadonlyMap<string, number | boolean> = new Map()) {
  const withSlots: Node[] = [];
  const expected: Node[] = [];
  for (let f = 1; f <= folders; f += 1) {
    // Repeated text, so the compressor refers back across pieces (and across slots).
    const title = `Sitzungsunterlagen ${f % 7} – Mitgliedervertreter ${f % 3}`;
    const docs = Array.from({ length: files }, (_, i) => ({
      id: f * 1000 + i,
      title: `Einladung zur Sitzung ${i % 5} im Ordner ${title}`,
    }));
    withSlots.push({
      id: f,
      title,
      new_count: countSlot(String(f)),
      files: docs.map((doc) => ({ ...doc, new: flagSlot(String(doc.id)) })),
    });
    expected.push({
      id: f,
      title,
      new_count: Number(values.get(String(f)) ?? 0),
      files: docs.map((doc) => ({ ...doc, new: values.get(String(doc.id)) === true })),
    });
  }
  return { withSlots, expected };
}

const parse = (bytes: Buffer | string) => JSON.parse(bytes.toString()) as { data: Node[] };

describe('SplicedJson', () => {
  it('answers the shared bytes with every slot 0 or false', async () => {
    const { withSlots, expected } = answer(3, 2);
    const spliced = new SplicedJson(withSlots);
    expect(parse(spliced.json)).toEqual({ data: expected });
    expect(spliced.json.includes(0)).toBe(false);
    expect(gunzipSync(await spliced.plain.gzip()).equals(spliced.json)).toBe(true);
  });

  it('gives a member with nothing new the shared bytes, also for values equal to the defaults', async () => {
    const spliced = new SplicedJson(answer(3, 2).withSlots);
    const nothing = spliced.render(new Map());
    expect(nothing.json).toBe(spliced.json);
    const defaults = spliced.render(
      new Map<string, number | boolean>([
        ['1', 0],
        ['1000', false],
        ['unknown', 5],
      ]),
    );
    expect(defaults.json).toBe(spliced.json);
    expect(await defaults.gzip()).toBe(await spliced.plain.gzip());
  });

  it('overwrites the slots of a small answer and compresses it whole', async () => {
    const values = new Map<string, number | boolean>([
      ['2', 3],
      ['2001', true],
      ['3', 12_000_000],
    ]);
    const { withSlots, expected } = answer(3, 2, values);
    const spliced = new SplicedJson(withSlots);
    expect(spliced.splices).toBe(false);
    const mine = spliced.render(values);
    const json = mine.json as Buffer;
    expect(json.length).toBe(spliced.json.length);
    // Counts are capped at the slot's seven digits.
    expected[2]!.new_count = 9_999_999;
    expect(parse(json)).toEqual({ data: expected });
    expect(json.toString()).toContain('"new_count":3      ,');
    expect(json.toString()).toContain('"new":true ');
    expect(gunzipSync(await mine.gzip()).equals(json)).toBe(true);
    // The shared answer is untouched.
    expect(parse(spliced.json)).toEqual({ data: answer(3, 2).expected });
  });

  it('stitches the gzip form of a large answer from shared pieces: it decompresses to exactly the member’s JSON', async () => {
    const values = new Map<string, number | boolean>([
      ['1', 1],
      ['17', 4_321],
      ['400', 2],
      ['1000', true],
      ['17003', true],
      ['400011', true],
    ]);
    const { withSlots, expected } = answer(400, 12, values);
    const spliced = new SplicedJson(withSlots);
    expect(spliced.splices).toBe(true);

    const mine = spliced.render(values);
    const gz = await mine.gzip();
    const unzipped = gunzipSync(gz);
    expect(unzipped.equals(mine.json as Buffer)).toBe(true);
    expect(parse(unzipped)).toEqual({ data: expected });
    // Outside the slots the bytes are the shared ones.
    const differing = [...unzipped.keys()].filter((i) => unzipped[i] !== spliced.json[i]);
    expect(differing.length).toBeGreaterThan(0);
    expect(differing.length).toBeLessThanOrEqual(values.size * 7);

    // Another member's answer from the same pieces, and one with one value only.
    const other = new Map<string, number | boolean>([['2', 9]]);
    const theirs = gunzipSync(await spliced.render(other).gzip());
    expect(parse(theirs)).toEqual({ data: answer(400, 12, other).expected });
    // It is compressed: the pieces carry back-references, not the text.
    expect(gz.length).toBeLessThan(spliced.json.length / 4);
  });
});
