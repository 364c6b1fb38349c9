import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { msg } from '@gremienportal/contracts/common';
import { buildTestApp, type TestApp } from '../support/build-test-app.ts';
import { createUser, type TestUser } from '../support/factories.ts';
import { createFolder, dataUrl, multipart, pdfBytes } from '../support/files.fixtures.ts';

// Names that look like another one: invisible format characters and Latin mixed with Cyrillic or
// Greek in one word. The contracts refuse them (422, German message under the field) and store
// titles and names in NFC.

const INVISIBLE = {
  'zero width space U+200B': '\u200B',
  'zero width non-joiner U+200C': '\u200C',
  'zero width joiner U+200D': '\u200D',
  'word joiner U+2060': '\u2060',
  'zero width no-break space U+FEFF': '\uFEFF',
  'left-to-right mark U+200E': '\u200E',
  'right-to-left mark U+200F': '\u200F',
  'left-to-right embedding U+202A': '\u202A',
  'right-to-left override U+202E': '\u202E',
  'pop directional formatting U+202C': '\u202C',
  'left-to-right isolate U+2066': '\u2066',
  'pop directional isolate U+2069': '\u2069',
  'arabic letter mark U+061C': '\u061C',
} as const;

/** Inside the word, where trimming cannot remove it. */
const withInvisible = (char: string) => `Aufsichts${char}rat`;
const CYRILLIC_A = 'Аufsichtsrat'; // the first letter is U+0410
const GREEK_O = 'Prοtokolle'; // U+03BF in place of the o

function expectRefused(res: { statusCode: number; json(): any }, field: string, message: string) {
  expect(res.statusCode, JSON.stringify(res.json())).toBe(422);
  expect(res.json().errors[field]).toEqual([message]);
}

describe('look-alike titles and names', () => {
  let t: TestApp;
  let admin: TestUser;
  let superAdmin: TestUser;
  let folderId: number;

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await createUser(t, { roles: ['Admin'] });
    superAdmin = await createUser(t, { roles: ['Super-Admin'] });
    folderId = (await createFolder(t, admin, { title: 'Ablage' })).id;
  });
  afterAll(() => t.close());

  const postFolder = (title: string) =>
    t.app.inject({ method: 'POST', url: '/api/v1/folders', headers: admin.headers, payload: { title } });
  const folderCount = async () =>
    Number(
      (
        await t.db.kysely
          .selectFrom('folders')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  describe('folder titles', () => {
    for (const [name, char] of Object.entries(INVISIBLE)) {
      it(`refuses a ${name}`, async () => {
        const before = await folderCount();
        expectRefused(await postFolder(withInvisible(char)), 'title', msg.invisibleCharacters('Name'));
        expect(await folderCount()).toBe(before);
      });
    }

    it('refuses a root folder that mixes Cyrillic into a Latin word', async () => {
      const res = await postFolder(CYRILLIC_A);
      expectRefused(
        res,
        'title',
        'Name mischt Buchstaben verschiedener Schriften (z. B. lateinisch und kyrillisch).',
      );
      expect(res.json().message).toBe('Die Eingaben sind ungültig.');
    });

    it('refuses Greek mixed into a Latin word, also on rename', async () => {
      expectRefused(await postFolder(GREEK_O), 'title', msg.mixedScripts('Name'));
      const folder = await createFolder(t, admin, { title: 'Protokolle Umbenennen' });
      const rename = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/folders/${folder.id}`,
        headers: admin.headers,
        payload: { title: GREEK_O },
      });
      expectRefused(rename, 'title', msg.mixedScripts('Name'));
    });

    it('accepts whole words in another script and stores titles in NFC', async () => {
      const mixedWords = await postFolder('Протоколы und Protokolle Ω');
      expect(mixedWords.statusCode, mixedWords.body).toBe(201);
      const decomposed = 'Mu\u0308nchen Sitzungen';
      const res = await postFolder(decomposed);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().folder.title).toBe('München Sitzungen');
      const row = await t.db.kysely
        .selectFrom('folders')
        .select(['title', 'breadcrumb'])
        .where('id', '=', res.json().folder.id)
        .executeTakeFirstOrThrow();
      expect(row.title).toBe('München Sitzungen'.normalize('NFC'));
      expect(row.title).not.toBe(decomposed);
      expect(row.breadcrumb.endsWith('München Sitzungen')).toBe(true);
      // The composed spelling is now the same name: a duplicate.
      const again = await postFolder('München Sitzungen');
      expectRefused(again, 'title', 'Ein Ordner mit diesem Namen existiert hier bereits.');
    });
  });

  describe('file titles', () => {
    const postJson = (title: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/files',
        headers: admin.headers,
        payload: { title, roles: ['Vertreter'], folders: [folderId], data: dataUrl(pdfBytes('x')) },
      });

    it('refuses invisible characters and mixed scripts (JSON and multipart)', async () => {
      expectRefused(await postJson(withInvisible('\u202E')), 'title', msg.invisibleCharacters('Titel'));
      expectRefused(await postJson(CYRILLIC_A), 'title', msg.mixedScripts('Titel'));
      const body = multipart(
        [
          ['title', withInvisible('\u200B')],
          ['permissions', 'Vertreter'],
          ['folder_id', String(folderId)],
        ],
        { filename: 'a.pdf', type: 'application/pdf', content: pdfBytes('y') },
      );
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/files',
        headers: { ...admin.headers, ...body.headers },
        payload: body.payload,
      });
      expectRefused(res, 'title', msg.invisibleCharacters('Titel'));
      const stored = await t.db.kysely.selectFrom('files').select('id').execute();
      expect(stored).toHaveLength(0);
    });

    it('stores the title in NFC', async () => {
      const res = await postJson('Protokoll Mu\u0308ller');
      expect(res.statusCode, res.body).toBe(201);
      const row = await t.db.kysely
        .selectFrom('files')
        .select('title')
        .where('id', '=', res.json().file.id)
        .executeTakeFirstOrThrow();
      expect(row.title).toBe('Protokoll Müller'.normalize('NFC'));
    });
  });

  describe('event title and location', () => {
    const event = (overrides: Record<string, unknown>) => ({
      title: 'Vertreterversammlung',
      roles: ['Vertreter'],
      start: '2026-07-15T18:00',
      end: '2026-07-15T20:00',
      location: 'Saal 1, Hauptstraße 5',
      description: 'Ordentliche Versammlung mit Tagesordnung.',
      ...overrides,
    });
    const post = (overrides: Record<string, unknown>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/events',
        headers: admin.headers,
        payload: event(overrides),
      });

    it('refuses invisible characters in title and location, and mixed scripts in the title', async () => {
      expectRefused(
        await post({ title: withInvisible('\u2066') }),
        'title',
        msg.invisibleCharacters('Titel'),
      );
      expectRefused(
        await post({ location: `Saal${'\u200D'} 1` }),
        'location',
        msg.invisibleCharacters('Ort'),
      );
      expectRefused(await post({ title: CYRILLIC_A }), 'title', msg.mixedScripts('Titel'));
    });

    it('stores title and location in NFC', async () => {
      const res = await post({ title: 'Treffen in Mu\u0308nchen', location: 'Ku\u0308che' });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().event).toMatchObject({ title: 'Treffen in München', location: 'Küche' });
    });
  });

  describe('motion titles and texts (decision 190)', () => {
    let committeeId: number;
    beforeAll(async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/committees',
        headers: admin.headers,
        payload: { name: 'Aufsichtsrat der Vorlagen', kind: 'aufsichtsrat' },
      });
      expect(res.statusCode, res.body).toBe(201);
      committeeId = res.json().data.id;
    });
    const motion = (overrides: Record<string, unknown>) => ({
      committee_id: committeeId,
      title: 'Jahresabschluss feststellen',
      text: 'Der Aufsichtsrat stellt den Jahresabschluss fest.',
      mode: 'offen',
      ...overrides,
    });
    const post = (overrides: Record<string, unknown>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/motions',
        headers: admin.headers,
        payload: motion(overrides),
      });
    const motionCount = async () =>
      Number(
        (
          await t.db.kysely
            .selectFrom('motions')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );

    it('refuses invisible characters in title and text, and mixed scripts in the title', async () => {
      const before = await motionCount();
      expectRefused(
        await post({ title: withInvisible('\u202E') }),
        'title',
        msg.invisibleCharacters('Titel'),
      );
      expectRefused(
        await post({ text: `Der Aufsichtsrat${'\u200B'} stellt den Jahresabschluss fest.` }),
        'text',
        msg.invisibleCharacters('Beschlusstext'),
      );
      expectRefused(await post({ title: CYRILLIC_A }), 'title', msg.mixedScripts('Titel'));
      expect(await motionCount()).toBe(before);
      const created = await post({});
      expect(created.statusCode, created.body).toBe(201);
      const change = (payload: Record<string, unknown>) =>
        t.app.inject({
          method: 'PUT',
          url: `/api/v1/motions/${created.json().data.id}`,
          headers: admin.headers,
          payload,
        });
      expectRefused(await change({ title: GREEK_O }), 'title', msg.mixedScripts('Titel'));
      expectRefused(
        await change({ title: withInvisible('\u2060') }),
        'title',
        msg.invisibleCharacters('Titel'),
      );
    });

    it('stores title and text in NFC', async () => {
      const res = await post({
        title: 'Vergütung Mu\u0308ller',
        text: 'Der Aufsichtsrat beschließt die Vergu\u0308tung.',
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data).toMatchObject({
        title: 'Vergütung Müller',
        text: 'Der Aufsichtsrat beschließt die Vergütung.',
      });
    });
  });

  describe('user names', () => {
    it('refuses invisible characters in first and last names (create, update, own account)', async () => {
      const create = await t.app.inject({
        method: 'POST',
        url: '/api/v1/user',
        headers: superAdmin.headers,
        payload: {
          title: 'Frau',
          firstname: withInvisible('\u200B'),
          lastname: 'Muster',
          email: 'unsichtbar@example.org',
          roles: ['Vertreter'],
        },
      });
      expectRefused(create, 'firstname', msg.invisibleCharacters('Vorname'));
      const member = await createUser(t, { roles: ['Vertreter'] });
      const update = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/user/${member.id}`,
        headers: admin.headers,
        payload: { title: 'Frau', firstname: 'Erika', lastname: `Mus${'\u202E'}ter`, email: member.email },
      });
      expectRefused(update, 'lastname', msg.invisibleCharacters('Nachname'));
      const account = await t.app.inject({
        method: 'PUT',
        url: '/api/v1/account',
        headers: member.headers,
        payload: { firstname: `Eri${'\uFEFF'}ka` },
      });
      expectRefused(account, 'firstname', msg.invisibleCharacters('Vorname'));
    });

    it('stores names in NFC', async () => {
      const member = await createUser(t, { roles: ['Vertreter'] });
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/user/${member.id}`,
        headers: admin.headers,
        payload: { title: 'Herr', firstname: 'Jo\u0308rg', lastname: 'Mu\u0308ller', email: member.email },
      });
      expect(res.statusCode, res.body).toBe(200);
      const row = await t.db.kysely
        .selectFrom('users')
        .select(['firstname', 'lastname'])
        .where('id', '=', member.id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ firstname: 'Jörg', lastname: 'Müller' });
    });
  });
});
