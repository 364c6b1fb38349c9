import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolder, uploadFile } from '../support/files.fixtures.ts';
import { buildTestApp, type TestApp } from '../support/build-test-app.ts';
import { createRoleUsers, type TestUser } from '../support/factories.ts';
import { mannWhitneyZ, median, timePairs } from '../support/statistics.ts';
import { newKey } from '../../src/storage/object-keys.ts';

/** Pairs per comparison: enough that the old code's differences stood out (decision 150). */
const PAIRS = 300;
/**
 * |z| < 4: a chance result beyond it has a probability of about 6e-5 (as the forgot-password
 * timing test). Decision 150 has the figures of the old code.
 */
const LIMIT = 4;
const WARM_UP = 40;
/**
 * Made-up words of four German syllables, the same kind on both sides and in the visible texts,
 * so that their trigrams occur in many texts, as those of real words do: `hidden` ones are
 * planted in documents the viewer may not see, `missing` ones occur nowhere, `filler` ones make
 * up the texts around them. Each search of the first test asks a word not asked before.
 */
const SYLLABLES = (
  'ver ber ung sch ein gen der ter lich keit heit an auf ab ge be ent er stand rat richt plan la ' +
  'wahl kauf geld mit glied recht amt zins satz bau haus ord nung vor stell ar beit'
).split(' ');
function madeUpWords(): Record<'hidden' | 'missing' | 'filler', string[]> {
  let state = 0x2545f491;
  const syllable = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return SYLLABLES[(state >>> 0) % SYLLABLES.length]!;
  };
  const word = () => syllable() + syllable() + syllable() + syllable();
  const filler = Array.from({ length: 60 * 80 + WORDS }, word);
  let seen = ` ${filler.join(' ')} `;
  // No planted or missing word may occur in another text, nor in another word.
  const fresh = () => {
    for (;;) {
      const candidate = word();
      if (!seen.includes(candidate)) {
        seen += `${candidate} `;
        return candidate;
      }
    }
  };
  const hidden = Array.from({ length: WORDS }, fresh);
  const missing = Array.from({ length: WORDS }, fresh);
  return { hidden, missing, filler };
}
const WORDS = WARM_UP + PAIRS;
const words = madeUpWords();

/**
 * A hidden object and a missing one must not be told apart by how long the same answer takes
 * (product.md P10, decision 150): a word only the Aufsichtsrat's documents contain is searched as
 * fast as a word nowhere, and a document hidden by a folder above it is refused as fast as a
 * missing one. Requests of both kinds alternate, compared with the Mann-Whitney U test.
 */
describe('hidden and missing objects take the same time', () => {
  let t: TestApp;
  let users: Awaited<ReturnType<typeof createRoleUsers>>;
  let viewer: TestUser;
  let hiddenByFolder: { id: number; external: string };

  const text = (title: string, content: string, folderId: number, roles: string[]) =>
    uploadFile(t, users.admin, {
      title,
      folderId,
      roles,
      content,
      filename: `${title}.txt`,
      type: 'text/plain',
    });

  beforeAll(async () => {
    t = await buildTestApp();
    users = await createRoleUsers(t);
    viewer = users.vertreter;
    const shared = (await createFolder(t, users.admin, { folder_id: 4, title: 'Gemeinsam' })).id;
    const board = (await createFolder(t, users.admin, { folder_id: 2, title: 'Vorlagen AR' })).id;
    // What the Vertreter sees: enough texts that reading the matches costs something.
    let filler = 0;
    const fill = (count: number) => words.filler.slice(filler, (filler += count)).join(' ');
    for (let i = 0; i < 60; i += 1) {
      await text(`Protokoll ${i}`, `Sitzung ${i}: ${fill(80)}.`, shared, ['Vertreter']);
    }
    // The planted words: only in documents the Vertreter may not see, hidden by their roles or by
    // the folder above them.
    const HIDDEN = 6;
    for (let i = 0; i < HIDDEN; i += 1) {
      const planted = Array.from({ length: WORDS }, (_, n) => n)
        .filter((n) => n % HIDDEN === i)
        .map((n) => `${words.hidden[n]} ${fill(1)}`)
        .join(' ');
      await text(
        `Vorlage ${i}`,
        `Vertraulich, Teil ${i}: ${planted}.`,
        i % 2 === 0 ? board : shared,
        i % 2 === 0 ? ['Vertreter', 'Aufsichtsrat'] : ['Aufsichtsrat'],
      );
    }
    hiddenByFolder = await uploadFile(t, users.admin, {
      title: 'Im Aufsichtsratsordner',
      folderId: board,
      roles: ['Vertreter', 'Aufsichtsrat'],
    });
    await t.app.searchIndexer.drain();
  });
  afterAll(() => t.close());

  async function get(url: string, status: number) {
    const res = await t.app.inject({ method: 'GET', url, headers: viewer.headers });
    expect(res.statusCode, url).toBe(status);
    return res;
  }

  function report(what: string, times: Record<'hidden' | 'missing', number[]>) {
    const z = mannWhitneyZ(times.hidden, times.missing);
    console.log(
      `Zeitmessung ${t.db.dialect}, ${what}: Median verborgen ${median(times.hidden).toFixed(3)} ms, ` +
        `fehlend ${median(times.missing).toFixed(3)} ms, z = ${z.toFixed(2)} (n = ${PAIRS} je Seite)`,
    );
    return z;
  }

  const search = async (q: string) => {
    const res = await get(`/api/v1/search?q=${encodeURIComponent(q)}`, 200);
    expect(res.json().meta.total).toBe(0);
  };

  it('search: a word only hidden documents contain, as a word nowhere (each asked once)', async () => {
    // A word not asked before: its matches are read from the database, as after any upload.
    const next = { hidden: 0, missing: 0 };
    const times = await timePairs(['hidden', 'missing'], PAIRS, (kind) => search(words[kind][next[kind]++]!));
    expect(Math.abs(report('Suche, jedes Mal neu gelesen', times))).toBeLessThan(LIMIT);
  });

  it('search: the same, with the matches kept from the last search', async () => {
    const times = await timePairs(['hidden', 'missing'], PAIRS, (kind) => search(words[kind][0]!));
    expect(Math.abs(report('Suche, gemerkt', times))).toBeLessThan(LIMIT);
  });

  it('GET /files/{id} of a document hidden by its folder, as of a missing one', async () => {
    const urls = { hidden: `/api/v1/files/${hiddenByFolder.id}`, missing: '/api/v1/files/987654' };
    const times = await timePairs(['hidden', 'missing'], PAIRS, (kind) =>
      get(urls[kind], 404).then(() => {}),
    );
    expect(Math.abs(report('GET /files/{id}', times))).toBeLessThan(LIMIT);
  });

  it('GET /download/{key} of a document hidden by its folder, as of a missing one', async () => {
    const urls = {
      hidden: `/api/v1/download/${hiddenByFolder.external}`,
      missing: `/api/v1/download/${newKey()}`,
    };
    const times = await timePairs(['hidden', 'missing'], PAIRS, (kind) =>
      get(urls[kind], 404).then(() => {}),
    );
    expect(Math.abs(report('GET /download/{key}', times))).toBeLessThan(LIMIT);
  });
});
