// Over 300 lines: the expected status of every API route (ENTRIES) has to be one table, checked against the
// route inventory so that a new route without an entry fails; that table is most of the file.
import { NOTICE_MESSAGES } from '@gremienportal/contracts/meeting-notices';
import { COMMITTEE_MESSAGES, type Committee, type Membership } from '@gremienportal/contracts/committees';
import { randomBytes, randomUUID } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORGOT_PASSWORD_SUCCESS_MESSAGE, LOGIN_FAILED_MESSAGE } from '@gremienportal/contracts/auth';
import { MOTION_MESSAGES, type Motion } from '@gremienportal/contracts/resolutions';
import type { Resolution } from '@gremienportal/contracts/beschlussbuch';
import { buildTestApp, type TestApp } from '../support/build-test-app.ts';
import { TEST_PASSWORD } from '../support/factories.ts';
import { dataUrl, pdfBytes } from '../support/files.fixtures.ts';
import { readPdf, type ReadPdf } from '../support/pdf-reader.ts';
import { Offload } from '../support/offload.ts';
import { apiRoutes, registeredRoutes, routeKey } from './route-inventory.ts';
import { API_KEY_MESSAGES, API_KEY_SCOPES, type ApiKeyScope } from '@gremienportal/contracts/api-keys';
import { scopeForRoute } from '../../src/policies/api-key.policy.ts';
import {
  buildWorld,
  EVENT_TIMES,
  expectNoLeak,
  expectNoLeakIn,
  hiddenTexts,
  isAdminPrincipal,
  isPersona,
  PERSONAS,
  PRINCIPALS,
  type PersonaKey,
  type PrincipalKey,
  type World,
} from './world.ts';

/**
 * The authorization matrix (product.md P1.1, P10, P5, P1.3, P8.4): every registered API route, called by
 * every kind of principal on an object it may see, one hidden from it, one that does not exist and
 * one in the Papierkorb (decision 125), answers exactly the status below. Hidden, nonexistent and
 * trashed answer alike, and no answer carries a title, download key or account hidden from the
 * caller; what is in the Papierkorb is hidden from everyone outside the Papierkorb's own routes and
 * the audit log. A route without an entry fails the first test: adding a route means deciding who
 * may call it.
 */

/**
 * `trashed`: in the Papierkorb (or inside a folder that is). `gone`: a Papierkorb entry that was
 * there and is purged now, which the Papierkorb's routes tell admins apart (409).
 */
type Kind = 'visible' | 'hidden' | 'nonexistent' | 'trashed' | 'gone' | 'none';
/**
 * `trashItem`: a Papierkorb entry, addressed `type/id` as in `/trash/:type/:id`. `minutesKey`: the
 * download key of an event's Protokoll (decision 130).
 */
type ObjectType =
  | 'folder'
  | 'file'
  | 'event'
  | 'user'
  | 'fileKey'
  | 'eventKey'
  | 'trashItem'
  | 'minutesKey'
  | 'committee'
  | 'term'
  | 'membership'
  | 'motion'
  | 'resolution';

interface Target {
  kind: Kind;
  label: string;
  value?: string | number;
}

interface Call {
  w: World;
  p: PrincipalKey;
  target: Target;
}

interface Entry {
  /** `admin-hidden`: members get 404, as if the route's object did not exist (decision 125). */
  access: 'public' | 'user' | 'admin' | 'admin-hidden';
  object?: ObjectType;
  /** A write that changes or removes what it hits: an admin gets a disposable object. */
  disposable?: boolean;
  /** Status of an allowed call on a visible object (or without object). Default 200. */
  ok?: number;
  /** Status of an allowed call on a hidden or nonexistent object. Default 404. */
  missing?: number;
  /** Exceptions to the rules, for one principal and kind; undefined keeps the rule. */
  status?: (p: PrincipalKey, kind: Kind) => number | undefined;
  /** Body, query and extra headers of the call. */
  request?: (call: Call) => Partial<InjectOptions> | Promise<Partial<InjectOptions>>;
  /** More assertions on an answer. */
  check?: (call: Call, res: LightMyRequestResponse) => void | Promise<void>;
  /** Answers of the Papierkorb or the audit log: admins may read trashed titles there. */
  trashView?: boolean;
  /**
   * Answers with calendar entries (decision 130): a deleted event reaches whoever could see it as
   * cancelled, so its title may appear for them.
   */
  cancelledView?: boolean;
  /** The address to call instead of the route's path with the target (a key made per call). */
  url?: (call: Call) => string | Promise<string>;
  /** The disposable object of this entry, where the object type's usual one does not fit. */
  fresh?: (w: World) => Promise<string | number>;
  /**
   * Beschlüsse (decision 190): what each member of the world's Aufsichtsrat (`PERSONAS`) gets on a
   * visible target or without object; hidden and nonexistent targets answer them `missing` (404).
   * A disposable entry gives them a disposable object, as it does admins. Entries without it are
   * not called as them.
   */
  personas?: Record<PersonaKey, number>;
}

const NONEXISTENT_ID = 2_147_483_000;
/** The Amtsperiode of each fresh Gremium the import entry made, by the Gremium's id. */
const importTerms = new Map<number, number>();
const randomKey = () => randomBytes(16).toString('base64url');

const dataIds = (res: LightMyRequestResponse) => (res.json().data as { id: number }[]).map((item) => item.id);

interface CountedFolder {
  type?: string;
  id: number;
  children: number;
  files: number;
}

/**
 * The counts a folder carries (`children`, `files`) are what this principal finds inside it,
 * not what exists: a count that includes hidden things tells that they are there.
 */
async function expectCountsOfVisible({ w, p }: Call, folders: CountedFolder[]) {
  for (const folder of folders) {
    const inside = await w.inject(p, { method: 'GET', url: `/api/v1/folders/${folder.id}/files` });
    expect(inside.statusCode).toBe(200);
    const items = inside.json().data as { type: string }[];
    expect(
      { children: folder.children, files: folder.files },
      `Zähler des Ordners ${folder.id} für ${p}`,
    ).toEqual({
      children: items.filter((item) => item.type === 'folder').length,
      files: items.filter((item) => item.type === 'file').length,
    });
  }
}

// --- Beschlüsse (decision 190) -------------------------------------------------------------------

/** Every person of the Gremium sees its motions and resolutions. */
const MEMBERS_SEE: Record<PersonaKey, number> = { mitglied: 200, schriftfuehrung: 200, vorsitz: 200 };
/** Drafts and follow-up: the Schriftführung and the Vorsitz, not a Mitglied. */
const MAY_WRITE_DRAFT: Record<PersonaKey, number> = { mitglied: 403, schriftfuehrung: 200, vorsitz: 200 };
/** Opening, closing, hand counts, reminders, withdrawing: the Vorsitz only. */
const MAY_MANAGE: Record<PersonaKey, number> = { mitglied: 403, schriftfuehrung: 403, vorsitz: 200 };

/** A signed-in principal who belongs to no Gremium of motions and is no admin. */
const outsider = (p: PrincipalKey) => p !== 'anonymous' && !isAdminPrincipal(p) && !isPersona(p);
const managesBoard = (p: PrincipalKey) => isAdminPrincipal(p) || p === 'vorsitz';
/** Admins are no electors: their vote or objection on a motion they see is refused. */
const noElectorForAdmins = (p: PrincipalKey, kind: Kind) =>
  isAdminPrincipal(p) && kind === 'visible' ? 403 : undefined;
const personaIds = (w: World) => PERSONAS.map((key) => w.users[key].id).sort((a, b) => a - b);
const fileIdsOf = (item: { files: { id: number }[] }) =>
  item.files.map((file) => file.id).sort((a, b) => a - b);
/**
 * The documents of the established motion each sees: admins both, the personas only the one in the
 * Gremium's folder (the other has the role Aufsichtsrat, which no persona holds).
 */
const linkedFilesFor = (w: World, p: PrincipalKey) =>
  (isAdminPrincipal(p) ? [w.files.ar.id, w.board.file.id] : [w.board.file.id]).sort((a, b) => a - b);
const motionBody = (w: World) => {
  const title = w.newSecret('NeueVorlage', [...PERSONAS]);
  return {
    committee_id: w.board.committee.id,
    title,
    text: `Das Gremium beschließt: ${title}.`,
    mode: 'offen',
  };
};

/** Every route of /api/v1, keyed `METHOD /path` as registered. HEAD follows its GET entry. */
const ENTRIES: Record<string, Entry> = {
  // --- public ----------------------------------------------------------------------------------
  'GET /api/v1/health': {
    access: 'public',
    check: (_c, res) => expect(res.json()).toEqual({ status: 'ok' }),
  },
  'GET /api/v1/legal-links': {
    access: 'public',
    check: (_c, res) => expect(Object.keys(res.json().data).sort()).toEqual(['imprint_url', 'privacy_url']),
  },
  'POST /api/v1/auth/login': {
    access: 'public',
    ok: 401,
    // A bearer header changes nothing: wrong credentials are wrong for everybody.
    request: () => ({
      payload: {
        email: `niemand-${randomBytes(4).toString('hex')}@example.org`,
        password: 'Falsches-Pass-1',
      },
    }),
    check: (_c, res) => expect(res.json()).toEqual({ message: LOGIN_FAILED_MESSAGE }),
  },
  // An unknown challenge fails alike for everybody; it grants nothing.
  'POST /api/v1/auth/two-factor': {
    access: 'public',
    ok: 401,
    request: () => ({ payload: { challenge: randomKey(), code: '123456' } }),
    check: (_c, res) =>
      expect(res.json()).toEqual({
        message: 'Die Anmeldung ist abgelaufen. Bitte melden Sie sich erneut mit Ihrem Passwort an.',
      }),
  },
  'POST /api/v1/auth/two-factor/webauthn/options': {
    access: 'public',
    ok: 401,
    request: () => ({ payload: { challenge: randomKey() } }),
    check: (_c, res) =>
      expect(res.json()).toEqual({
        message: 'Die Anmeldung ist abgelaufen. Bitte melden Sie sich erneut mit Ihrem Passwort an.',
      }),
  },
  'POST /api/v1/auth/two-factor/webauthn/verify': {
    access: 'public',
    ok: 401,
    request: () => ({ payload: { challenge: randomKey(), response: { id: 'AAAA' } } }),
    check: (_c, res) =>
      expect(res.json()).toEqual({
        message: 'Die Anmeldung ist abgelaufen. Bitte melden Sie sich erneut mit Ihrem Passwort an.',
      }),
  },
  'POST /api/v1/auth/forgot-password': {
    access: 'public',
    // The same answer for a known and an unknown address.
    request: ({ w, p }) => ({
      payload: { email: p === 'anonymous' ? 'unbekannt@example.org' : w.users[p].email },
    }),
    check: (_c, res) => expect(res.json()).toEqual({ message: FORGOT_PASSWORD_SUCCESS_MESSAGE }),
  },
  'POST /api/v1/auth/password-reset': {
    access: 'public',
    ok: 422,
    request: ({ w, p }) => ({
      payload: {
        id: p === 'anonymous' ? w.users.vertreter.id : w.users[p].id,
        token: randomKey(),
        password: 'Neues-Passwort-77',
        password_confirmation: 'Neues-Passwort-77',
      },
    }),
  },

  // --- signed in, no object --------------------------------------------------------------------
  'POST /api/v1/auth/logout': {
    access: 'user',
    ok: 204,
    // Its own session, so the principal stays signed in for the other routes.
    request: async ({ w, p }) => ({ headers: await w.freshHeaders(p) }),
  },
  'GET /api/v1/account': {
    access: 'user',
    check: ({ w, p }, res) => {
      if (p !== 'anonymous') expect(res.json().data.id).toBe(w.users[p].id);
    },
  },
  // One's own second factor: every signed-in user, for their own account only.
  'POST /api/v1/account/two-factor/totp': {
    access: 'user',
    check: (_c, res) => expect(Object.keys(res.json()).sort()).toEqual(['otpauth_url', 'qr_svg', 'secret']),
  },
  // A wrong code for the pending seed (the entry above started one).
  'POST /api/v1/account/two-factor/totp/confirm': {
    access: 'user',
    ok: 422,
    request: () => ({ payload: { code: '000000', current_password: TEST_PASSWORD } }),
  },
  'POST /api/v1/account/two-factor/recovery-codes': { access: 'user', ok: 409 },
  // Passkeys: the prompt for one's own account; an answer that proves nothing is refused.
  'POST /api/v1/account/two-factor/webauthn/registration-options': {
    access: 'user',
    request: () => ({ payload: { current_password: TEST_PASSWORD } }),
    check: ({ w, p }, res) => {
      if (p !== 'anonymous') expect(res.json().user.name).toBe(w.users[p].email);
    },
  },
  'POST /api/v1/account/two-factor/webauthn/registration': {
    access: 'user',
    ok: 422,
    request: () => ({ payload: { name: 'Fremd', response: { id: 'AAAA' } } }),
  },
  // Only one's own passkeys (none here) and a prompt only with one.
  'DELETE /api/v1/account/two-factor/webauthn/:id': { access: 'user', ok: 404 },
  'POST /api/v1/account/two-factor/webauthn/confirm-options': { access: 'user', ok: 409 },
  // Only one's own trusted devices; none here, so every signed-in caller gets the 404.
  'DELETE /api/v1/account/two-factor/trusted-devices/:id': { access: 'user', ok: 404 },
  'DELETE /api/v1/account/two-factor': {
    access: 'user',
    ok: 409,
    request: () => ({ payload: { password: 'Falsches-Pass-1', code: '123456' } }),
  },
  // An empty change answers the account and changes nothing (decision 013).
  'PUT /api/v1/account': { access: 'user', request: () => ({ payload: {} }) },
  // One's own notification settings (decision 131): every signed-in user, for their own account only.
  'GET /api/v1/account/notifications': {
    access: 'user',
    check: (_c, res) => expect(Object.keys(res.json().data).sort()).toEqual(['events', 'files']),
  },
  'PUT /api/v1/account/notifications': {
    access: 'user',
    request: () => ({ payload: { files: 'taeglich', events: 'sofort' } }),
    check: (_c, res) => expect(res.json().data).toEqual({ files: 'taeglich', events: 'sofort' }),
  },
  'GET /api/v1/roles': { access: 'user' },
  'GET /api/v1/settings': { access: 'user' },
  'GET /api/v1/audit/my-logins': { access: 'user' },
  'GET /api/v1/folders': {
    access: 'user',
    check: async (call, res) => {
      const { w, p } = call;
      const ids = dataIds(res);
      if (p === 'vertreter') {
        expect(ids).toContain(w.folders.vt.id);
        expect(ids).not.toContain(w.folders.ar.id);
      }
      if (p === 'stripped') expect(ids).toEqual([1]);
      await expectCountsOfVisible(call, res.json().data as CountedFolder[]);
    },
  },
  'GET /api/v1/root/files': {
    access: 'user',
    check: (call, res) =>
      expectCountsOfVisible(
        call,
        (res.json().data as CountedFolder[]).filter((item) => item.type === 'folder'),
      ),
  },
  'GET /api/v1/tree': { access: 'user' },
  'GET /api/v1/file-breadcrumbs': { access: 'user' },
  'GET /api/v1/files': {
    access: 'user',
    check: ({ w, p }, res) => {
      const ids = dataIds(res);
      if (p === 'vertreter') {
        expect(ids.sort()).toEqual([w.files.vt.id, w.files.mixedVt.id, w.files.mixedBoth.id].sort());
      }
      if (p === 'stripped') expect(ids).toEqual([]);
    },
  },
  // Search: only what the principal may see, by title and by the text inside (the events'
  // information files hold their title markers, so a leaked snippet shows up in the scan too).
  'GET /api/v1/search': {
    access: 'user',
    request: async ({ w }) => {
      await w.t.app.searchIndexer.drain();
      return { query: { q: 'Datei', per_page: '100' } };
    },
    check: async ({ w, p }, res) => {
      const ids = dataIds(res);
      if (p === 'vertreter') {
        expect(ids.sort()).toEqual([w.files.vt.id, w.files.mixedVt.id, w.files.mixedBoth.id].sort());
        const inside = await w.inject(p, { method: 'GET', url: '/api/v1/search?q=Einladung&type=event' });
        expect(dataIds(inside).sort()).toEqual([w.events.vt.id, w.events.both.id].sort());
      }
      if (p === 'stripped') expect(res.json().meta.total).toBe(0);
    },
  },
  'GET /api/v1/search/suggest': {
    access: 'user',
    request: () => ({ query: { q: 'Datei' } }),
    check: ({ w, p }, res) => {
      if (p === 'vertreter') {
        expect(dataIds(res).sort()).toEqual([w.files.vt.id, w.files.mixedVt.id, w.files.mixedBoth.id].sort());
      }
      if (p === 'stripped') expect(res.json().data).toEqual([]);
    },
  },
  'GET /api/v1/events': {
    access: 'user',
    check: ({ w, p }, res) => {
      const ids = dataIds(res);
      if (p === 'vertreter') expect(ids.sort()).toEqual([w.events.vt.id, w.events.both.id].sort());
      if (p === 'aufsichtsrat') {
        expect(ids).toEqual(expect.arrayContaining([w.events.ar.id, w.events.both.id]));
        expect(ids).not.toContain(w.events.vt.id);
      }
      if (p === 'stripped') expect(ids).toEqual([]);
    },
  },

  // --- admin, no object --------------------------------------------------------------------------
  'GET /api/v1/user': { access: 'admin' },
  'POST /api/v1/user': {
    access: 'admin',
    ok: 201,
    request: ({ w }) => {
      const lastname = w.newSecret('NeuesKonto', []);
      return {
        payload: {
          title: 'Frau',
          firstname: 'Neue',
          lastname,
          email: `${lastname.toLowerCase()}@example.org`,
          roles: ['Vertreter'],
        },
      };
    },
  },
  'POST /api/v1/auth/register': {
    access: 'admin',
    ok: 201,
    request: ({ w }) => {
      const lastname = w.newSecret('Registriert', []);
      return {
        payload: {
          title: 'Herr',
          firstname: 'Neuer',
          lastname,
          email: `${lastname.toLowerCase()}@example.org`,
          roles: ['Aufsichtsrat'],
        },
      };
    },
  },
  'POST /api/v1/folders': {
    access: 'admin',
    ok: 201,
    request: ({ w }) => ({ payload: { folder_id: w.folders.ar.id, title: w.newSecret('NeuerOrdner') } }),
  },
  'POST /api/v1/period': {
    access: 'admin',
    ok: 201,
    request: ({ w }) => ({ payload: { folder_id: w.folders.ar.id, start: 2030, end: 2031 } }),
  },
  'POST /api/v1/files': {
    access: 'admin',
    ok: 201,
    request: ({ w }) => {
      const title = w.newSecret('NeueDatei');
      return {
        payload: {
          title,
          file: dataUrl(pdfBytes(title)),
          permissions: ['Aufsichtsrat'],
          notifications: ['Aufsichtsrat'],
          folder_id: w.folders.ar.id,
        },
      };
    },
  },
  // A batch of the caller's own (decision 182), begun just before with a document that notifies
  // the Aufsichtsrat; members find a batch of nobody else's: theirs would be refused before.
  'POST /api/v1/files/batches/:batch_id/complete': {
    access: 'admin',
    url: async ({ w, p }) => {
      const batchId = randomUUID();
      if (isAdminPrincipal(p)) {
        const title = w.newSecret('Stapel');
        const res = await w.inject(p, {
          method: 'POST',
          url: '/api/v1/files',
          payload: {
            title,
            file: dataUrl(pdfBytes(title)),
            permissions: ['Aufsichtsrat'],
            notifications: ['Aufsichtsrat'],
            folder_id: w.folders.ar.id,
            batch_id: batchId,
          },
        });
        expect(res.statusCode, res.body).toBe(201);
      }
      return `/api/v1/files/batches/${batchId}/complete`;
    },
    check: (_c, res) => expect(res.json().batch.files).toBe(1),
  },
  'POST /api/v1/events': {
    access: 'admin',
    ok: 201,
    request: ({ w }) => {
      const title = w.newSecret('NeuesEvent');
      return {
        payload: {
          title,
          roles: ['Aufsichtsrat'],
          notifications: ['Aufsichtsrat'],
          ...EVENT_TIMES,
          location: 'Sitzungssaal',
          description: 'Vertrauliche Sitzung',
        },
      };
    },
  },
  'GET /api/v1/audit': { access: 'admin', trashView: true },
  'GET /api/v1/audit.csv': { access: 'admin', trashView: true },

  // --- folders -----------------------------------------------------------------------------------
  'GET /api/v1/folders/:id': {
    access: 'user',
    object: 'folder',
    check: async (call, res) => {
      const { w, p, target } = call;
      await expectCountsOfVisible(call, [res.json().data as CountedFolder]);
      // Counts of what is below tell nothing about hidden things either.
      if (target.value !== w.folders.mixed.id) return;
      const data = res.json().data as { children: number; files: number; contents: unknown };
      const expected = {
        vertreter: { children: 1, files: 2, contents: { folders: 1, files: 2 } },
        aufsichtsrat: { children: 1, files: 2, contents: { folders: 1, files: 2 } },
      }[p as 'vertreter' | 'aufsichtsrat'];
      if (expected)
        expect({ children: data.children, files: data.files, contents: data.contents }).toEqual(expected);
    },
  },
  'GET /api/v1/folders/:id/files': {
    access: 'user',
    object: 'folder',
    check: async (call, res) => {
      const { w, p, target } = call;
      await expectCountsOfVisible(
        call,
        (res.json().data as CountedFolder[]).filter((item) => item.type === 'folder'),
      );
      if (target.value !== w.folders.mixed.id || p !== 'vertreter') return;
      expect(dataIds(res).sort()).toEqual(
        [w.folders.mixedVt.id, w.files.mixedVt.id, w.files.mixedBoth.id].sort(),
      );
    },
  },
  'GET /api/v1/breadcrumbs/:id': { access: 'user', object: 'folder' },
  'PUT /api/v1/folders/:id': {
    access: 'admin',
    object: 'folder',
    disposable: true,
    request: ({ w }) => ({ payload: { title: w.newSecret('Umbenannt') } }),
  },
  // Into the Papierkorb (decision 125): from now on its title must not show up outside it.
  'DELETE /api/v1/folders/:id': {
    access: 'admin',
    object: 'folder',
    disposable: true,
    ok: 204,
    check: ({ w, target }) => w.markTrashed('folder', Number(target.value)),
  },

  // --- files -------------------------------------------------------------------------------------
  'GET /api/v1/files/:id': { access: 'user', object: 'file' },
  'PUT /api/v1/files/:id': {
    access: 'admin',
    object: 'file',
    disposable: true,
    request: ({ w }) => ({ payload: { title: w.newSecret('NeuerTitel') } }),
  },
  'DELETE /api/v1/files/:id': {
    access: 'admin',
    object: 'file',
    disposable: true,
    ok: 204,
    check: ({ w, target }) => w.markTrashed('file', Number(target.value)),
  },
  'GET /api/v1/download/:key': {
    access: 'user',
    object: 'fileKey',
    check: ({ target }, res) => {
      if (target.kind !== 'visible' || res.statusCode !== 200) return;
      expect(res.headers['content-security-policy']).toMatch(/^sandbox/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    },
  },

  // --- events ------------------------------------------------------------------------------------
  'GET /api/v1/events/:id': { access: 'user', object: 'event' },
  // A deleted event answers with its cancellation (METHOD:CANCEL, decision 130) to whoever could see
  // it, so their calendars drop it: the world's trashed event has both roles, so every principal
  // but the stripped one could. Everyone else, and a purged or never existing event, gets the 404
  // of anything missing.
  'GET /api/v1/events/:id/ics': {
    access: 'user',
    object: 'event',
    cancelledView: true,
    status: (p, kind) => (kind === 'trashed' && p !== 'anonymous' && p !== 'stripped' ? 200 : undefined),
    check: ({ target }, res) => {
      expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
      const method = /^METHOD:(\w+)\r$/m.exec(res.body)?.[1];
      expect(method, String(target.value)).toBe(target.kind === 'trashed' ? 'CANCEL' : 'PUBLISH');
      expect(res.body.includes('STATUS:CANCELLED'), String(target.value)).toBe(target.kind === 'trashed');
    },
  },
  'PUT /api/v1/events/:id': {
    access: 'admin',
    object: 'event',
    disposable: true,
    request: ({ w }) => ({
      payload: {
        title: w.newSecret('GeaendertesEvent'),
        ...EVENT_TIMES,
        location: 'Sitzungssaal',
        description: 'Geänderte Sitzung',
      },
    }),
  },
  'DELETE /api/v1/events/:id': {
    access: 'admin',
    object: 'event',
    disposable: true,
    ok: 204,
    check: ({ w, target }) => w.markTrashed('event', Number(target.value)),
  },
  // --- agenda (decision 130): the same items for all who see the event, each with the documents the
  // caller may see; only admins change it and learn which of the event's roles miss a document.
  'GET /api/v1/events/:id/agenda': {
    access: 'user',
    object: 'event',
    request: async ({ w }) => {
      await worldAgenda(w);
      return {};
    },
    check: async ({ w, p, target }, res) => {
      if (target.value !== w.events.both.id) return;
      const d = w.files;
      const admin = await w.inject('admin', {
        method: 'GET',
        url: `/api/v1/events/${w.events.both.id}/agenda`,
      });
      expect(agendaFileIds(admin)).toEqual([d.mixedBoth.id, d.mixedAr.id, d.ar.id, d.vt.id, d.vtInAr.id]);
      const unseen = (admin.json().data as { files: { id: number; unseen_by: string[] }[] }[])
        .flatMap((item) => item.files)
        .find((file) => file.id === d.mixedAr.id)?.unseen_by;
      expect(unseen).toEqual(['Vertreter']);
      if (p === 'vertreter') {
        expect(agendaFileIds(res)).toEqual([d.mixedBoth.id, d.vt.id]);
        expect(agendaFileIds(res)).not.toContain(d.mixedAr.id);
      }
      if (p === 'aufsichtsrat') {
        expect(agendaFileIds(res)).toEqual([d.mixedBoth.id, d.mixedAr.id, d.ar.id, d.vtInAr.id]);
      }
      expect(res.body).not.toContain('unseen_by');
    },
  },
  'PUT /api/v1/events/:id/agenda': {
    access: 'admin',
    object: 'event',
    disposable: true,
    request: ({ w }) => ({
      payload: {
        items: [{ title: 'Bericht', file_ids: [w.files.ar.id], children: [{ title: 'Aussprache' }] }],
      },
    }),
    check: ({ w }, res) => {
      expect((res.json().data as { number: string }[]).map((item) => item.number)).toEqual(['1', '1.1']);
      expect(agendaFileIds(res)).toEqual([w.files.ar.id]);
    },
  },
  // "Tagesordnung veröffentlichen" (decision 181): a disposable event has no agenda yet, so the
  // allowed call reaches the rule that refuses an empty one.
  'GET /api/v1/events/:id/agenda/publish': {
    access: 'admin',
    object: 'event',
    check: (_c, res) => expect(res.json().data).toMatchObject({ recipients: expect.any(Number) }),
  },
  // "Bekanntgabe der Umlaufbeschlüsse" for an agenda (decision 190), to insert: admins only, who see
  // every resolution anyway.
  'GET /api/v1/events/:id/agenda/circular-announcement': {
    access: 'admin',
    object: 'event',
    check: (_c, res) =>
      expect(res.json().data).toMatchObject({
        title: 'Bekanntgabe der Umlaufbeschlüsse seit der letzten Sitzung',
        resolutions: expect.any(Array),
      }),
  },
  'POST /api/v1/events/:id/agenda/publish': {
    access: 'admin',
    object: 'event',
    disposable: true,
    ok: 409,
    check: (_c, res) => expect(res.json().message).toBe(NOTICE_MESSAGES.emptyAgenda),
  },
  'POST /api/v1/events/:id/agenda/check': {
    access: 'admin',
    object: 'event',
    request: ({ w }) => ({ payload: { file_ids: [w.files.ar.id, w.files.mixedBoth.id] } }),
    check: ({ w, target }, res) => {
      // The admins' events: one for the Aufsichtsrat, one for Vertreter.
      const unseen = target.value === w.events.vt.id ? [['Vertreter'], []] : [[], []];
      expect((res.json().data as { unseen_by: string[] }[]).map((entry) => entry.unseen_by)).toEqual(unseen);
    },
  },
  // --- Sitzungsmappe (decision 130): one PDF of what the caller may see of the meeting. Its pages and
  // bookmarks are read back, so the leak check covers the text and not only the compressed bytes.
  'GET /api/v1/events/:id/book.pdf': {
    access: 'user',
    object: 'event',
    request: async ({ w }) => {
      await worldAgenda(w);
      return {};
    },
    check: async ({ w, p, target }, res) => {
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-disposition']).toMatch(/^attachment;/);
      expect(res.headers['content-length']).toBe(String(res.rawPayload.length));
      const what = `Sitzungsmappe ${target.label} für ${p}`;
      const book = await bookText(w, p, res.rawPayload, what);
      if (isAdminPrincipal(p)) {
        // The admins' targets are other events: their book of the shared meeting has every document.
        const both = await w.inject(p, { method: 'GET', url: `/api/v1/events/${w.events.both.id}/book.pdf` });
        const d = w.files;
        const all = [d.mixedBoth, d.mixedAr, d.ar, d.vt, d.vtInAr];
        expectBookOf(await bookText(w, p, both.rawPayload, `${what}, gemeinsames Event`), all);
      }
      if (target.value !== w.events.both.id) return;
      const d = w.files;
      if (p === 'vertreter') expectBookOf(book, [d.mixedBoth, d.vt]);
      if (p === 'aufsichtsrat') expectBookOf(book, [d.mixedBoth, d.mixedAr, d.ar, d.vtInAr]);
    },
  },
  'GET /api/v1/info/:key': {
    access: 'user',
    object: 'eventKey',
    check: ({ target }, res) => {
      if (target.kind !== 'visible' || res.statusCode !== 200) return;
      expect(res.headers['content-security-policy']).toMatch(/^sandbox/);
    },
  },

  // --- Neu für Sie and Kenntnisnahme (decision 131) ---------------------------------------------------
  'GET /api/v1/news': {
    access: 'user',
    check: ({ w, p }, res) => {
      if (p !== 'vertreter') return;
      const visible = [w.files.vt.id, w.files.mixedVt.id, w.files.mixedBoth.id];
      for (const file of res.json().data.files as { id: number }[]) expect(visible).toContain(file.id);
    },
  },
  // Marks everything read for the caller only.
  'POST /api/v1/news/read': {
    access: 'user',
    request: () => ({ payload: {} }),
    check: (_c, res) => expect(typeof res.json().marked).toBe('number'),
  },
  // The world's documents ask for no Kenntnisnahme: a visible one answers 409 (German), the rest 404.
  'POST /api/v1/files/:id/acknowledgement': { access: 'user', object: 'file', ok: 409 },
  'GET /api/v1/files/:id/acknowledgements': {
    access: 'admin',
    object: 'file',
    check: ({ w }, res) => {
      const ids = (res.json().data.entries as { user: { id: number } }[]).map((entry) => entry.user.id);
      expect(ids).not.toContain(w.users.stripped.id);
    },
  },
  'GET /api/v1/files/:id/acknowledgements.csv': {
    access: 'admin',
    object: 'file',
    check: (_c, res) => {
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toMatch(/^attachment;/);
    },
  },
  'POST /api/v1/files/:id/acknowledgements/reminder': { access: 'admin', object: 'file', ok: 409 },

  // --- attendance and Protokoll (decision 130) ------------------------------------------------------
  // Anyone who sees the event answers for themselves (admins see every event).
  'PUT /api/v1/events/:id/attendance': {
    access: 'user',
    object: 'event',
    request: () => ({ payload: { status: 'vielleicht', comment: 'Matrix' } }),
    check: (_c, res) => expect(res.json().data).toMatchObject({ status: 'vielleicht', comment: 'Matrix' }),
  },
  'GET /api/v1/events/:id/attendance': {
    access: 'admin',
    object: 'event',
    check: ({ w }, res) => {
      const entries = res.json().data.entries as { user: { id: number } }[];
      // The world's events are for the Aufsichtsrat or the Vertreter; the stripped account holds no role.
      expect(entries.map((entry) => entry.user.id)).not.toContain(w.users.stripped.id);
      expect(Object.keys(res.json().data.counts).sort()).toEqual([
        'abgesagt',
        'offen',
        'vielleicht',
        'zugesagt',
      ]);
    },
  },
  'GET /api/v1/events/:id/attendance.csv': {
    access: 'admin',
    object: 'event',
    check: (_c, res) => {
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toMatch(/^attachment;/);
    },
  },
  // Disposable: a reminder spends the event's hour.
  'POST /api/v1/events/:id/attendance/reminder': { access: 'admin', object: 'event', disposable: true },
  'POST /api/v1/events/:id/minutes': {
    access: 'admin',
    object: 'event',
    disposable: true,
    request: () => ({ payload: { data: dataUrl(pdfBytes('Protokoll')), confirm_future: true } }),
    check: (_c, res) => expect(res.json().data.format).toBe('pdf'),
  },
  'DELETE /api/v1/events/:id/minutes': {
    access: 'admin',
    object: 'event',
    disposable: true,
    ok: 204,
    // An admin's visible target is a fresh event: it gets a Protokoll to remove first.
    request: async ({ w, p, target }) => {
      if (target.kind === 'visible' && isAdminPrincipal(p)) await publishMinutes(w, Number(target.value));
      return {};
    },
  },
  'GET /api/v1/minutes/:key': {
    access: 'user',
    object: 'minutesKey',
    check: ({ target }, res) => {
      if (target.kind !== 'visible' || res.statusCode !== 200) return;
      expect(res.headers['content-security-policy']).toMatch(/^sandbox/);
    },
  },

  // --- calendar feed (decision 130) -------------------------------------------------------------------
  // Every signed-in user manages the feed of their own account, nothing else.
  'GET /api/v1/account/calendar-feed': {
    access: 'user',
    check: (_c, res) =>
      expect(Object.keys(res.json().data).sort()).toEqual(['active', 'created_at', 'last_used_at']),
  },
  'POST /api/v1/account/calendar-feed': {
    access: 'user',
    ok: 201,
    check: (_c, res) =>
      expect(res.json().data.url).toMatch(/^http:\/\/portal\.test\/api\/v1\/calendar\/[\w-]{43}\.ics$/),
  },
  'DELETE /api/v1/account/calendar-feed': { access: 'user', ok: 204 },
  // Public: the token in the address is the only key, and a session header opens no feed. Each
  // principal calls with a token of its own made just before; the feed lists only what that
  // principal sees, deleted events it could see as cancelled. Without an account there is no
  // token: any other one is 404.
  'GET /api/v1/calendar/:token.ics': {
    access: 'public',
    cancelledView: true,
    status: (p) => (p === 'anonymous' ? 404 : 200),
    url: async ({ w, p }) => {
      if (p === 'anonymous') return `/api/v1/calendar/${randomBytes(32).toString('base64url')}.ics`;
      const res = await w.inject(p, { method: 'POST', url: '/api/v1/account/calendar-feed' });
      expect(res.statusCode, res.body).toBe(201);
      return new URL(res.json().data.url as string).pathname;
    },
    check: ({ w, p }, res) => {
      expect(res.headers['cache-control']).toBe('private, no-store');
      expect(res.body).toMatch(/^BEGIN:VCALENDAR\r\n/);
      const seen = (['ar', 'vt', 'both'] as const).filter((key) => res.body.includes(w.events[key].title));
      const expected = { vertreter: ['vt', 'both'], aufsichtsrat: ['ar', 'both'], stripped: [] };
      expect(seen, p).toEqual(expected[p as keyof typeof expected] ?? ['ar', 'vt', 'both']);
      // The world's deleted event (both roles), as cancelled for all who could see it.
      const cancelled = res.body.includes(w.trash.event.title);
      expect(cancelled, p).toBe(p !== 'stripped');
      if (cancelled) expect(res.body).toContain('STATUS:CANCELLED');
    },
  },

  // --- users -------------------------------------------------------------------------------------
  'GET /api/v1/user/:id': {
    access: 'user',
    object: 'user',
    // Members may read their own account only; any other id, existing or not, is refused alike.
    status: (p, kind) => (!isAdminPrincipal(p) && p !== 'anonymous' && kind !== 'visible' ? 403 : undefined),
  },
  'PUT /api/v1/user/:id': {
    access: 'admin',
    object: 'user',
    disposable: true,
    request: ({ w }) => {
      const lastname = w.newSecret('GeaendertesKonto', []);
      return {
        payload: {
          title: 'Frau',
          firstname: 'Geänderte',
          lastname,
          email: `${lastname.toLowerCase()}@example.org`,
        },
      };
    },
  },
  'DELETE /api/v1/user/:id': { access: 'admin', object: 'user', disposable: true, ok: 204 },
  // A fresh account has not set its password yet, so the invitation can go out again.
  'POST /api/v1/user/:id/invitation': { access: 'admin', object: 'user', disposable: true },
  // A fresh account has no second factor: nothing to reset (409), once the rights allow it; the
  // acting admin's own code is checked after that (decision 146, two-factor-reset.test.ts).
  'DELETE /api/v1/user/:id/two-factor': {
    access: 'admin',
    object: 'user',
    disposable: true,
    ok: 409,
    request: () => ({ payload: { code: '123456' } }),
  },

  // --- audit (admins only; they see everything, so nothing is hidden from them) --------------------
  'GET /api/v1/audit/object/:type/:id': {
    access: 'admin',
    object: 'file',
    trashView: true,
    // The log outlives what it describes: an unknown id is an empty list, not an error.
    missing: 200,
  },
  'GET /api/v1/audit/visible-to/:type/:id': { access: 'admin', object: 'file' },

  // --- versions (decision 125; admins only, members get 404 as for a file that is not there) ---------
  'GET /api/v1/files/:id/versions': {
    access: 'admin-hidden',
    object: 'file',
    check: ({ target }, res) => {
      const versions = res.json().data as { version: number; current: boolean }[];
      expect(versions[0], `Versionen von ${target.value}`).toMatchObject({ current: true });
    },
  },
  'GET /api/v1/files/:id/versions/:version/download': {
    access: 'admin-hidden',
    object: 'file',
    check: ({ target }, res) => {
      if (target.kind !== 'visible') return;
      expect(res.headers['content-security-policy']).toMatch(/^sandbox/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    },
  },
  'POST /api/v1/files/:id/versions/:version/restore': {
    access: 'admin-hidden',
    object: 'file',
    disposable: true,
    // An admin's disposable document gets a second content first, so version 1 is an old one.
    request: async ({ w, p, target }) => {
      if (target.kind === 'visible' && isAdminPrincipal(p)) {
        const res = await w.inject('superAdmin', {
          method: 'PUT',
          url: `/api/v1/files/${target.value}`,
          payload: { file: dataUrl(pdfBytes(`zweite Fassung ${target.value}`)) },
        });
        expect(res.statusCode, res.body).toBe(200);
      }
      return {};
    },
    check: ({ target }, res) => {
      expect(res.json().file).toMatchObject({ id: target.value });
    },
  },

  // --- API-Schlüssel (decision 136): only a Super-Admin lists, issues and revokes -------------------
  'GET /api/v1/api-keys': {
    access: 'admin',
    status: (p) => (p === 'admin' ? 403 : undefined),
    // The list never carries a token or its hash.
    check: (_c, res) => {
      for (const item of res.json().data as Record<string, unknown>[]) {
        expect(Object.keys(item).sort()).toEqual(
          ['created_at', 'expires_at', 'id', 'issued_by', 'last_used_at', 'name', 'scopes'].sort(),
        );
      }
    },
  },
  'POST /api/v1/api-keys': {
    access: 'admin',
    ok: 201,
    status: (p) => (p === 'admin' ? 403 : undefined),
    request: () => ({ payload: { name: 'Mitgliederverwaltung', scopes: ['nutzer:lesen'], valid_days: 30 } }),
    check: (_c, res) => {
      expect(res.json().data.token).toMatch(/^gpk_[\w-]{43}$/);
      expect(res.headers['cache-control']).toBe('no-store');
    },
  },
  'DELETE /api/v1/api-keys/:id': {
    access: 'admin',
    ok: 204,
    status: (p) => (p === 'admin' ? 403 : undefined),
    // A key issued for this call: revoking is for good.
    url: async ({ w }) => {
      const res = await w.inject('superAdmin', {
        method: 'POST',
        url: '/api/v1/api-keys',
        payload: { name: 'Zum Widerrufen', scopes: ['inhalte:lesen'] },
      });
      return `/api/v1/api-keys/${res.json().data.id as number}`;
    },
  },

  // --- Gremien, Amtsperioden, Mitgliedschaften (decision 189) --------------------------------------
  // Members (an applied, active membership) see their Gremien, their Amtsperioden and who belongs to
  // them; anyone else gets the 404 of a Gremium that does not exist, also who holds the Gremium's
  // role directly (the seeded "Aufsichtsrat" for the principal aufsichtsrat). Only admins write.
  'GET /api/v1/committees': {
    access: 'user',
    check: ({ w, p }, res) => {
      const names = (res.json().data as Committee[]).map((c) => c.name);
      const { ar, vt } = w.committees;
      if (isAdminPrincipal(p)) {
        expect(names).toEqual(
          expect.arrayContaining([ar.name, vt.name, 'Aufsichtsrat', 'Vertreterversammlung']),
        );
      } else {
        const own = { vertreter: [vt.name], aufsichtsrat: [ar.name], stripped: [] };
        expect(names, p).toEqual(own[p as keyof typeof own]);
      }
    },
  },
  'POST /api/v1/committees': {
    access: 'admin',
    ok: 201,
    request: ({ w }) => ({ payload: { name: w.newSecret('NeuesGremium', []), kind: 'ausschuss' } }),
    check: (_c, res) => {
      const data = res.json().data as Committee;
      // A Gremium without a chosen folder gets one of its name at the top, with its role.
      expect(data.folder?.breadcrumb).toBe(`/${data.name}`);
      expect(data.role.name).toBe(data.name);
    },
  },
  'GET /api/v1/committees/:id': {
    access: 'user',
    object: 'committee',
    check: ({ w, target }, res) => {
      const data = res.json().data as Committee;
      expect(data.id).toBe(target.value);
      const { ar } = w.committees;
      // Vorsitz and two Mitglieder, all active.
      if (data.id === ar.id) {
        expect(data).toMatchObject({ name: ar.name, member_count: 3, current_term: { id: ar.termId } });
      }
    },
  },
  'PUT /api/v1/committees/:id': {
    access: 'admin',
    object: 'committee',
    disposable: true,
    request: ({ w }) => ({ payload: { name: w.newSecret('UmbenanntesGremium', []), kind: 'sonstiges' } }),
    check: ({ target }, res) =>
      expect(res.json().data).toMatchObject({ id: target.value, kind: 'sonstiges' }),
  },
  // A disposable Gremium has no Amtsperioden, so it may go.
  'DELETE /api/v1/committees/:id': {
    access: 'admin',
    object: 'committee',
    disposable: true,
    check: (_c, res) => expect(res.json()).toEqual({ message: 'Das Gremium wurde gelöscht.' }),
  },
  'GET /api/v1/committees/:id/terms': {
    access: 'user',
    object: 'committee',
    check: ({ w, target }, res) => {
      const own = [w.committees.ar, w.committees.vt].find((c) => c.id === target.value);
      if (own) expect(dataIds(res)).toEqual([own.termId]);
    },
  },
  'POST /api/v1/committees/:id/terms': {
    access: 'admin',
    object: 'committee',
    disposable: true,
    ok: 201,
    request: () => ({ payload: { start: '2026-01-01', end: '2029-12-31' } }),
    check: ({ target }, res) =>
      expect(res.json().data).toMatchObject({
        committee_id: target.value,
        title: 'Amtsperiode 2026–2029',
        archived: false,
      }),
  },
  // Reopening an archived Amtsperiode (`archived: false`) is a Super-Admin's: an Admin gets the 403
  // of that rule on the admins' target, an archived one (see also the test below the matrix).
  'PUT /api/v1/terms/:id': {
    access: 'admin',
    object: 'term',
    disposable: true,
    status: (p, kind) => (p === 'admin' && kind === 'visible' ? 403 : undefined),
    request: () => ({ payload: { start: '2020-01-01', end: '2023-12-31', archived: false } }),
    check: ({ target }, res) =>
      expect(res.json().data).toMatchObject({ id: target.value, archived: true, reopened: true }),
  },
  'DELETE /api/v1/terms/:id': {
    access: 'admin',
    object: 'term',
    disposable: true,
    check: (_c, res) => expect(res.json()).toEqual({ message: 'Die Amtsperiode wurde gelöscht.' }),
  },
  // The addresses: to admins, to the member themself, and to fellow members only where its owner
  // allowed it (the hidden one is a secret of the admins, so the leak check also looks for it).
  'GET /api/v1/committees/:id/members': {
    access: 'user',
    object: 'committee',
    check: ({ w, p, target }, res) => {
      const list = res.json().data as Membership[];
      if (target.value !== w.committees.ar.id) return;
      const { hidden, shared } = w.members;
      const chair = w.users.aufsichtsrat;
      const emailOf = (id: number) => list.find((m) => m.user.id === id)?.user.email;
      expect(list.map((m) => m.user.id).sort()).toEqual([chair.id, hidden.id, shared.id].sort());
      expect(emailOf(chair.id)).toBe(chair.email);
      expect(emailOf(shared.id)).toBe(shared.email);
      expect(emailOf(hidden.id)).toBe(isAdminPrincipal(p) ? hidden.email : undefined);
      for (const m of list) {
        expect('proposed_successor' in m, `Nachrücken für ${p}`).toBe(isAdminPrincipal(p));
      }
    },
  },
  // An admin's target is a fresh Gremium: it gets an Amtsperiode first, and a fresh account joins it.
  'POST /api/v1/committees/:id/members': {
    access: 'admin',
    object: 'committee',
    disposable: true,
    ok: 201,
    request: async ({ w, p, target }) => {
      if (target.kind === 'visible' && isAdminPrincipal(p)) {
        const term = await w.inject('superAdmin', {
          method: 'POST',
          url: `/api/v1/committees/${target.value}/terms`,
          payload: { start: '2026-01-01', end: '2030-12-31' },
        });
        expect(term.statusCode, term.body).toBe(201);
        const user = await w.fresh.user();
        return { payload: { term_id: term.json().data.id, user_id: user.id, function: 'mitglied' } };
      }
      return {
        payload: { term_id: w.committees.ar.termId, user_id: w.users.vertreter.id, function: 'mitglied' },
      };
    },
    check: ({ target }, res) =>
      expect(res.json().data).toMatchObject({
        committee_id: target.value,
        function: 'mitglied',
        active: true,
      }),
  },
  // "Mitglieder importieren" (decision 189), for real (`dry_run=false`): an admin's target is a fresh
  // Gremium with an Amtsperiode, and the file's new person gets an account and a membership.
  'POST /api/v1/committees/:id/members/import': {
    access: 'admin',
    object: 'committee',
    disposable: true,
    fresh: async (w) => {
      const term = await w.fresh.term();
      importTerms.set(term.committeeId, term.id);
      return term.committeeId;
    },
    request: ({ w, target }) => {
      const lastname = w.newSecret('Importiert', []);
      const email = `${lastname.toLowerCase()}@example.org`;
      w.secrets.find((secret) => secret.texts[0] === lastname)!.texts.push(email);
      const termId = importTerms.get(Number(target.value)) ?? w.committees.ar.termId;
      return {
        query: { term_id: String(termId), dry_run: 'false' },
        headers: { 'content-type': 'text/csv' },
        payload: `Anrede;Vorname;Nachname;E-Mail;Funktion\r\nFrau;Ina;${lastname};${email};Mitglied\r\n`,
      };
    },
    check: (_c, res) =>
      expect(res.json()).toMatchObject({
        dry_run: false,
        counts: { new_accounts: 1, new_memberships: 1, changed: 0, unchanged: 0, errors: 0 },
      }),
  },
  'PUT /api/v1/memberships/:id': {
    access: 'admin',
    object: 'membership',
    disposable: true,
    request: () => ({ payload: { function: 'stellvertretung', from: '2026-01-01', until: '2030-12-31' } }),
    check: ({ target }, res) =>
      expect(res.json().data).toMatchObject({ id: target.value, function: 'stellvertretung', active: true }),
  },
  'DELETE /api/v1/memberships/:id': {
    access: 'admin',
    object: 'membership',
    disposable: true,
    check: (_c, res) => expect(res.json()).toEqual({ message: 'Die Mitgliedschaft wurde gelöscht.' }),
  },
  // An admin's target ended early, with an Ersatzmitglied proposed: it moves up from the next day.
  'POST /api/v1/memberships/:id/successor': {
    access: 'admin',
    object: 'membership',
    disposable: true,
    ok: 201,
    fresh: async (w) => (await w.fresh.membership({ successor: true })).id,
    check: (_c, res) =>
      expect(res.json().data).toMatchObject({
        function: 'mitglied',
        from: '2026-07-01',
        until: '2030-12-31',
      }),
  },

  // --- Beschlüsse (decision 190) ------------------------------------------------------------------
  // Motions and resolutions of a Gremium are seen by admins and its members (the personas); anyone
  // else gets the 404 of one that does not exist, also who holds the role Aufsichtsrat directly.
  // Managing a vote is for admins and the Vorsitz, drafts also for the Schriftführung; votes and
  // objections are the electors' (admins are none: 403); only the Vorsitz establishes (with the
  // authenticator app's code) and corrects (admins 403).
  'GET /api/v1/motions': {
    access: 'user',
    personas: MEMBERS_SEE,
    check: ({ w, p }, res) => {
      const list = res.json().data as Motion[];
      const ids = list.map((motion) => motion.id);
      const m = w.board.motions;
      const board = [m.draft, m.running, m.closed, m.established];
      expect(ids).not.toContain(m.gone);
      if (isAdminPrincipal(p)) expect(ids).toEqual(expect.arrayContaining([...board, m.foreign]));
      else if (isPersona(p)) {
        expect(ids).toEqual(expect.arrayContaining(board));
        expect(ids).not.toContain(m.foreign);
      } else expect(ids, p).toEqual([]);
      const established = list.find((motion) => motion.id === m.established);
      if (established) expect(fileIdsOf(established), p).toEqual(linkedFilesFor(w, p));
      // The electorate with its delivery proof only to the Vorsitz and admins.
      for (const motion of list.filter((item) => item.committee.id === w.board.committee.id)) {
        expect(motion.electorate === null, `Stimmberechtigte für ${p}`).toBe(!managesBoard(p));
      }
    },
  },
  // Outsiders get the 404 of a Gremium that does not exist; a Mitglied writes no drafts.
  'POST /api/v1/motions': {
    access: 'user',
    ok: 201,
    status: (p) => (outsider(p) ? 404 : undefined),
    personas: { mitglied: 403, schriftfuehrung: 201, vorsitz: 201 },
    request: ({ w }) => ({ payload: motionBody(w) }),
    check: ({ w }, res) =>
      expect(res.json().data).toMatchObject({ committee: { id: w.board.committee.id }, state: 'entwurf' }),
  },
  'GET /api/v1/motions/:id': {
    access: 'user',
    object: 'motion',
    personas: MEMBERS_SEE,
    check: ({ w, p, target }, res) => {
      const data = res.json().data as Motion;
      expect(data.id).toBe(target.value);
      if (data.committee.id !== w.board.committee.id) return;
      expect(data.may, p).toEqual({
        manage: managesBoard(p),
        edit: p !== 'mitglied',
        establish: p === 'vorsitz',
      });
      if (target.value === w.board.motions.established) {
        expect(fileIdsOf(data), p).toEqual(linkedFilesFor(w, p));
        expect(data.names?.length, p).toBe(3);
      }
    },
  },
  'PUT /api/v1/motions/:id': {
    access: 'user',
    object: 'motion',
    disposable: true,
    personas: MAY_WRITE_DRAFT,
    request: ({ w }) => ({ payload: { title: w.newSecret('GeaenderteVorlage', [...PERSONAS]) } }),
    check: ({ target }, res) =>
      expect(res.json()).toMatchObject({ data: { id: target.value, state: 'entwurf' }, message: null }),
  },
  'DELETE /api/v1/motions/:id': {
    access: 'user',
    object: 'motion',
    disposable: true,
    personas: MAY_WRITE_DRAFT,
    check: (_c, res) => expect(res.json()).toEqual({ message: 'Die Beschlussvorlage wurde gelöscht.' }),
  },
  // The electorate is fixed at opening: the three personas.
  'POST /api/v1/motions/:id/open': {
    access: 'user',
    object: 'motion',
    disposable: true,
    personas: MAY_MANAGE,
    request: () => ({ payload: { procedure: 'sitzung' } }),
    check: ({ w }, res) => {
      const data = res.json().data as Motion;
      expect(data).toMatchObject({ state: 'abstimmung', procedure: 'sitzung' });
      expect(data.electorate?.map((e) => e.user_id).sort()).toEqual(personaIds(w));
    },
  },
  'POST /api/v1/motions/:id/votes': {
    access: 'user',
    object: 'motion',
    disposable: true,
    fresh: (w) => w.fresh.motion('abstimmung'),
    status: noElectorForAdmins,
    personas: MEMBERS_SEE,
    request: () => ({ payload: { choice: 'nein' } }),
    check: (_c, res) =>
      expect(res.json()).toMatchObject({
        data: { own: { elector: true, voted: true, choice: 'nein' }, counts: null },
        message: MOTION_MESSAGES.voted,
      }),
  },
  // The committee's rules stop an Umlaufverfahren at the first objection.
  'POST /api/v1/motions/:id/objection': {
    access: 'user',
    object: 'motion',
    disposable: true,
    fresh: (w) => w.fresh.motion('umlauf'),
    status: noElectorForAdmins,
    personas: MEMBERS_SEE,
    request: () => ({ payload: { reason: 'Bitte in der Sitzung beraten.' } }),
    check: (_c, res) =>
      expect(res.json()).toMatchObject({
        data: { state: 'widersprochen', own: { objected: true } },
        message: MOTION_MESSAGES.objectionStopped,
      }),
  },
  // The Mitglied's conflict: their own declaration, or the Vorsitz's (admins') for them.
  'POST /api/v1/motions/:id/conflict': {
    access: 'user',
    object: 'motion',
    disposable: true,
    fresh: (w) => w.fresh.motion('abstimmung'),
    personas: { mitglied: 200, schriftfuehrung: 403, vorsitz: 200 },
    request: ({ w }) => ({ payload: { user_id: w.users.mitglied.id } }),
    check: ({ w }, res) => {
      const conflicts = (res.json().data as Motion).conflicts;
      expect(conflicts).toHaveLength(1);
      expect(conflicts[0]).toContain(w.users.mitglied.lastname);
    },
  },
  'POST /api/v1/motions/:id/hand-count': {
    access: 'user',
    object: 'motion',
    disposable: true,
    fresh: (w) => w.fresh.motion('abstimmung'),
    personas: MAY_MANAGE,
    request: () => ({ payload: { ja: 2, nein: 1, enthaltung: 0 } }),
    check: (_c, res) =>
      expect((res.json().data as Motion).hand_count).toEqual({ ja: 2, nein: 1, enthaltung: 0 }),
  },
  'POST /api/v1/motions/:id/close': {
    access: 'user',
    object: 'motion',
    disposable: true,
    fresh: (w) => w.fresh.motion('abstimmung'),
    personas: MAY_MANAGE,
    check: (_c, res) =>
      expect(res.json().data).toMatchObject({
        state: 'geschlossen',
        counts: { ja: 0, nein: 0, enthaltung: 0 },
      }),
  },
  'POST /api/v1/motions/:id/withdraw': {
    access: 'user',
    object: 'motion',
    disposable: true,
    personas: MAY_MANAGE,
    check: (_c, res) => expect(res.json().data).toMatchObject({ state: 'zurueckgezogen' }),
  },
  // Everyone of a fresh Umlaufverfahren has yet to vote: all three are reminded.
  'POST /api/v1/motions/:id/reminders': {
    access: 'user',
    object: 'motion',
    disposable: true,
    fresh: (w) => w.fresh.motion('umlauf'),
    personas: MAY_MANAGE,
    check: (_c, res) => expect(res.json()).toEqual({ message: MOTION_MESSAGES.reminded(3) }),
  },
  // The Vorsitz with the current code; anyone else (admins too) is refused before any code counts.
  'POST /api/v1/motions/:id/establish': {
    access: 'user',
    object: 'motion',
    disposable: true,
    fresh: (w) => w.fresh.motion('geschlossen'),
    status: (p, kind) => (isAdminPrincipal(p) && kind === 'visible' ? 403 : undefined),
    personas: { mitglied: 403, schriftfuehrung: 403, vorsitz: 200 },
    request: async ({ w, p }) => ({ payload: { code: p === 'vorsitz' ? await w.board.code() : '123456' } }),
    check: ({ w, target }, res) => {
      const data = res.json().data as Resolution;
      expect(data).toMatchObject({ motion_id: target.value, committee: { id: w.board.committee.id } });
      expect(data.number).toMatch(/^AR 2026\/\d{2}$/);
    },
  },
  'GET /api/v1/resolutions': {
    access: 'user',
    personas: MEMBERS_SEE,
    check: ({ w, p }, res) => {
      const list = res.json().data as Resolution[];
      const ids = list.map((resolution) => resolution.id);
      const r = w.board.resolutions;
      if (isAdminPrincipal(p)) expect(ids).toEqual(expect.arrayContaining([r.established, r.foreign]));
      else if (isPersona(p)) {
        expect(ids).toContain(r.established);
        expect(ids).not.toContain(r.foreign);
      } else expect(ids, p).toEqual([]);
      const established = list.find((resolution) => resolution.id === r.established);
      if (established) expect(fileIdsOf(established), p).toEqual(linkedFilesFor(w, p));
    },
  },
  'GET /api/v1/resolutions.csv': {
    access: 'user',
    personas: MEMBERS_SEE,
    check: ({ w, p }, res) => {
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename=/);
      expect(res.headers['cache-control']).toBe('private, no-store');
      expect(res.body.includes(w.board.establishedTitle), p).toBe(isAdminPrincipal(p) || isPersona(p));
    },
  },
  // The PDF's pages are compressed: their text is read out and checked like an answer.
  'GET /api/v1/resolutions.pdf': {
    access: 'user',
    personas: MEMBERS_SEE,
    check: async ({ w, p }, res) => {
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['cache-control']).toBe('private, no-store');
      const pdf = await readPdf(res.rawPayload);
      const text = pdf.pages.join('\n');
      expectNoLeakIn(w, p, text, `Beschlussbuch als PDF für ${p}`);
      const user = w.users[p as Exclude<PrincipalKey, 'anonymous'>];
      for (const page of pdf.pages) expect(page, p).toContain(user.lastname);
      expect(text.includes(w.board.establishedTitle), p).toBe(isAdminPrincipal(p) || isPersona(p));
    },
  },
  'GET /api/v1/resolutions/:id': {
    access: 'user',
    object: 'resolution',
    personas: MEMBERS_SEE,
    check: ({ w, p, target }, res) => {
      const data = res.json().data as Resolution;
      expect(data.id).toBe(target.value);
      if (target.value === w.board.resolutions.established) {
        expect(fileIdsOf(data), p).toEqual(linkedFilesFor(w, p));
        expect(data.names?.map((n) => n.choice)).toEqual(['ja', 'ja', 'ja']);
      }
    },
  },
  'PUT /api/v1/resolutions/:id/follow-up': {
    access: 'user',
    object: 'resolution',
    personas: MAY_WRITE_DRAFT,
    request: ({ w }) => ({
      payload: {
        responsible_id: w.users.schriftfuehrung.id,
        due_on: '2027-03-31',
        status: 'offen',
        note: '',
      },
    }),
    check: ({ w, target }, res) =>
      expect(res.json().data).toMatchObject({
        id: target.value,
        follow_up: { responsible: { id: w.users.schriftfuehrung.id }, due_on: '2027-03-31', status: 'offen' },
      }),
  },
  // A correction is a new entry of the chain; the corrected one stays as it was.
  'POST /api/v1/resolutions/:id/correction': {
    access: 'user',
    object: 'resolution',
    ok: 201,
    status: (p, kind) => (isAdminPrincipal(p) && kind === 'visible' ? 403 : undefined),
    personas: { mitglied: 403, schriftfuehrung: 403, vorsitz: 201 },
    request: ({ w }) => ({
      payload: {
        text: `Das Gremium beschließt berichtigt: ${w.newSecret('Berichtigung', [...PERSONAS])}.`,
        reason: 'Schreibfehler im Beschlusstext',
      },
    }),
    check: ({ target }, res) => {
      const data = res.json().data as Resolution;
      expect(data.corrects?.id).toBe(target.value);
      expect(data.title).toMatch(/^Berichtigung zu AR 2026\/\d{2}$/);
    },
  },

  // --- Papierkorb (decision 125; admins list and restore, only a Super-Admin purges) -----------------
  'GET /api/v1/trash': {
    access: 'admin-hidden',
    trashView: true,
    // One page of all entries: the matrix's deletes add to the world's three.
    request: () => ({ query: { per_page: '100' } }),
    check: ({ w, p }, res) => {
      const body = res.json() as { data: { type: string; object_id: number; title: string }[] };
      const entries = body.data.map((item) => `${item.type}/${item.object_id}`);
      expect(entries).toEqual(
        expect.arrayContaining([
          `file/${w.trash.file.id}`,
          `folder/${w.trash.folder.id}`,
          `event/${w.trash.event.id}`,
        ]),
      );
      // What lies inside a trashed folder is part of its entry, not an entry of its own.
      expect(entries).not.toContain(`file/${w.trash.folderFile.id}`);
      expect(res.json().meta.may_purge).toBe(p === 'superAdmin');
    },
  },
  'POST /api/v1/trash/:type/:id/restore': {
    access: 'admin-hidden',
    object: 'trashItem',
    disposable: true,
    trashView: true,
    status: (p, kind) => (kind === 'gone' && isAdminPrincipal(p) ? 409 : undefined),
    check: ({ w, target }, res) => {
      const [type, id] = String(target.value).split('/') as ['file' | 'folder' | 'event', string];
      expect(res.json().data).toMatchObject({ type, id: Number(id), renamed: false });
      w.markTrashed(type, Number(id), false);
    },
  },
  'DELETE /api/v1/trash/:type/:id': {
    access: 'admin-hidden',
    object: 'trashItem',
    disposable: true,
    ok: 204,
    status: (p, kind) => (p === 'admin' ? 403 : p === 'superAdmin' && kind === 'gone' ? 409 : undefined),
  },
  // Last: it empties the Papierkorb, whose entries the routes above list and restore.
  'DELETE /api/v1/trash': {
    access: 'admin-hidden',
    status: (p) => (p === 'admin' ? 403 : undefined),
    check: async ({ w }, res) => {
      expect(res.json().data.removed).toBeGreaterThanOrEqual(3);
      const after = await w.inject('superAdmin', { method: 'GET', url: '/api/v1/trash' });
      expect(after.json().meta.all).toBe(0);
    },
  },
};

/** The documents of an agenda answer, in reading order. */
const agendaFileIds = (res: LightMyRequestResponse) =>
  (res.json().data as { files: { id: number }[] }[]).flatMap((item) => item.files.map((file) => file.id));

/**
 * The text of a Sitzungsmappe (pages and bookmarks), checked for what is hidden from the caller and
 * for the caller's name in the footer of every page.
 */
async function bookText(w: World, p: PrincipalKey, bytes: Buffer, what: string) {
  const book = await readPdf(bytes);
  const outline = (marks: ReadPdf['outline']): string[] =>
    marks.flatMap((mark) => [mark.title, ...outline(mark.children)]);
  expectNoLeakIn(w, p, [...book.pages, ...outline(book.outline)].join('\n'), what);
  const user = w.users[p as Exclude<PrincipalKey, 'anonymous'>];
  for (const page of book.pages) expect(page, what).toContain(`Vertraulich – Erika ${user.lastname} – `);
  return book;
}

/** Cover, contents and each document's one page, in agenda order, each naming its document. */
function expectBookOf(book: ReadPdf, files: readonly { title: string }[]) {
  expect(book.pages).toHaveLength(2 + files.length);
  files.forEach((file, index) => expect(book.pages[2 + index]).toContain(`Inhalt von ${file.title}`));
}

const worldAgendas = new WeakMap<World, Promise<void>>();

/**
 * The agenda of the event both roles see, once per world: documents of every visibility, so each
 * principal's answer shows only its own share (and the leak check finds any other).
 */
function worldAgenda(w: World): Promise<void> {
  let done = worldAgendas.get(w);
  if (!done) {
    const d = w.files;
    done = w
      .inject('superAdmin', {
        method: 'PUT',
        url: `/api/v1/events/${w.events.both.id}/agenda`,
        payload: {
          items: [
            { title: 'Begrüßung', file_ids: [d.mixedBoth.id, d.mixedAr.id] },
            {
              title: 'Berichte',
              file_ids: [d.ar.id],
              children: [{ title: 'Bericht der Vertreter', file_ids: [d.vt.id, d.vtInAr.id] }],
            },
          ],
        },
      })
      .then((res) => expect(res.statusCode, res.body).toBe(200));
    worldAgendas.set(w, done);
  }
  return done;
}

/** Publishes a Protokoll on an event as the Super-Admin; answers its download key. */
async function publishMinutes(w: World, eventId: number): Promise<string> {
  const res = await w.inject('superAdmin', {
    method: 'POST',
    url: `/api/v1/events/${eventId}/minutes`,
    payload: { data: dataUrl(pdfBytes('Protokoll')), confirm_future: true },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.external as string;
}

/** Protokoll keys of the world's events, one in the Papierkorb and one purged (filled in beforeAll). */
const minutesKeys = { ar: '', vt: '', both: '', trashed: '' };

function targetsFor(
  w: World,
  type: ObjectType,
  p: PrincipalKey,
  deleted: Partial<Record<ObjectType, string | number>>,
) {
  const f = w.folders;
  const d = w.files;
  const e = w.events;
  const u = w.users;
  const x = w.trash;
  const c = w.committees;
  const trashEntries = [`file/${x.file.id}`, `folder/${x.folder.id}`, `event/${x.event.id}`];
  const inTrash = trashEntries.map((value) => ({ visible: [value], hidden: [] }));
  const m = w.board.motions;
  const r = w.board.resolutions;
  // Only the principals of the matrix's own loop (PRINCIPALS) have targets of every type.
  const lists: Record<
    ObjectType,
    Partial<Record<PrincipalKey, { visible: (string | number)[]; hidden: (string | number)[] }>>
  > = {
    // A Gremium's folder has the Gremium's role, which its members hold through the membership.
    folder: {
      anonymous: { visible: [f.vt.id], hidden: [f.ar.id] },
      vertreter: {
        visible: [f.vt.id, f.mixed.id, f.mixedVt.id, c.vt.folderId],
        hidden: [f.ar.id, f.arVt.id, f.mixedAr.id, c.ar.folderId],
      },
      aufsichtsrat: {
        visible: [f.ar.id, f.mixed.id, f.mixedAr.id, c.ar.folderId],
        hidden: [f.vt.id, f.arVt.id, f.mixedVt.id, c.vt.folderId],
      },
      admin: { visible: [f.ar.id, f.arVt.id, c.ar.folderId], hidden: [] },
      superAdmin: { visible: [f.ar.id, f.arVt.id], hidden: [] },
      stripped: { visible: [1], hidden: [f.ar.id, f.vt.id, f.mixed.id, c.ar.folderId] },
    },
    file: {
      anonymous: { visible: [d.vt.id], hidden: [d.ar.id] },
      vertreter: {
        visible: [d.vt.id, d.mixedVt.id, d.mixedBoth.id],
        hidden: [d.ar.id, d.arVt.id, d.vtInAr.id, d.mixedAr.id],
      },
      aufsichtsrat: {
        visible: [d.ar.id, d.vtInAr.id, d.mixedBoth.id],
        hidden: [d.vt.id, d.arVt.id, d.mixedVt.id],
      },
      admin: { visible: [d.ar.id, d.arVt.id], hidden: [] },
      superAdmin: { visible: [d.ar.id, d.arVt.id], hidden: [] },
      stripped: { visible: [], hidden: [d.ar.id, d.vt.id, d.mixedBoth.id] },
    },
    fileKey: {
      anonymous: { visible: [d.vt.external], hidden: [d.ar.external] },
      vertreter: {
        visible: [d.vt.external, d.mixedBoth.external],
        hidden: [d.ar.external, d.arVt.external, d.vtInAr.external],
      },
      aufsichtsrat: { visible: [d.ar.external, d.vtInAr.external], hidden: [d.vt.external, d.arVt.external] },
      admin: { visible: [d.ar.external, d.arVt.external], hidden: [] },
      superAdmin: { visible: [d.arVt.external], hidden: [] },
      stripped: { visible: [], hidden: [d.ar.external, d.vt.external, d.mixedBoth.external] },
    },
    event: {
      anonymous: { visible: [e.vt.id], hidden: [e.ar.id] },
      vertreter: { visible: [e.vt.id, e.both.id], hidden: [e.ar.id] },
      aufsichtsrat: { visible: [e.ar.id, e.both.id], hidden: [e.vt.id] },
      admin: { visible: [e.ar.id], hidden: [] },
      superAdmin: { visible: [e.vt.id], hidden: [] },
      stripped: { visible: [], hidden: [e.ar.id, e.vt.id, e.both.id] },
    },
    eventKey: {
      anonymous: { visible: [e.vt.external], hidden: [e.ar.external] },
      vertreter: { visible: [e.vt.external, e.both.external], hidden: [e.ar.external] },
      aufsichtsrat: { visible: [e.ar.external], hidden: [e.vt.external] },
      admin: { visible: [e.ar.external], hidden: [] },
      superAdmin: { visible: [e.both.external], hidden: [] },
      stripped: { visible: [], hidden: [e.ar.external, e.vt.external, e.both.external] },
    },
    minutesKey: {
      anonymous: { visible: [minutesKeys.vt], hidden: [minutesKeys.ar] },
      vertreter: { visible: [minutesKeys.vt, minutesKeys.both], hidden: [minutesKeys.ar] },
      aufsichtsrat: { visible: [minutesKeys.ar], hidden: [minutesKeys.vt] },
      admin: { visible: [minutesKeys.ar], hidden: [] },
      superAdmin: { visible: [minutesKeys.both], hidden: [] },
      stripped: { visible: [], hidden: [minutesKeys.ar, minutesKeys.vt, minutesKeys.both] },
    },
    user: {
      anonymous: { visible: [u.vertreter.id], hidden: [u.admin.id] },
      vertreter: { visible: [u.vertreter.id], hidden: [u.aufsichtsrat.id, u.superAdmin.id] },
      aufsichtsrat: { visible: [u.aufsichtsrat.id], hidden: [u.vertreter.id] },
      admin: { visible: [u.vertreter.id], hidden: [] },
      superAdmin: { visible: [u.aufsichtsrat.id], hidden: [] },
      stripped: { visible: [u.stripped.id], hidden: [u.vertreter.id, u.admin.id] },
    },
    // Every admin sees the whole Papierkorb; members get 404 for any entry (admin-hidden).
    trashItem: {
      anonymous: inTrash[0]!,
      vertreter: inTrash[0]!,
      aufsichtsrat: inTrash[1]!,
      admin: { visible: trashEntries, hidden: [] },
      superAdmin: { visible: trashEntries, hidden: [] },
      stripped: inTrash[2]!,
    },
    committee: {
      anonymous: { visible: [c.ar.id], hidden: [c.vt.id] },
      vertreter: { visible: [c.vt.id], hidden: [c.ar.id, c.seeded] },
      aufsichtsrat: { visible: [c.ar.id], hidden: [c.vt.id, c.seeded] },
      admin: { visible: [c.ar.id, c.vt.id, c.seeded], hidden: [] },
      superAdmin: { visible: [c.ar.id], hidden: [] },
      stripped: { visible: [], hidden: [c.ar.id, c.vt.id] },
    },
    // Admin routes only: members are refused before any look-up.
    term: {
      anonymous: { visible: [], hidden: [c.ar.termId] },
      vertreter: { visible: [], hidden: [c.ar.termId] },
      aufsichtsrat: { visible: [], hidden: [c.ar.termId] },
      admin: { visible: [c.ar.termId], hidden: [] },
      superAdmin: { visible: [c.ar.termId], hidden: [] },
      stripped: { visible: [], hidden: [c.ar.termId] },
    },
    membership: {
      anonymous: { visible: [], hidden: [c.ar.memberships[0]!] },
      vertreter: { visible: [], hidden: [c.ar.memberships[0]!, c.vt.memberships[0]!] },
      aufsichtsrat: { visible: [], hidden: [c.ar.memberships[0]!] },
      admin: { visible: [c.ar.memberships[0]!], hidden: [] },
      superAdmin: { visible: [c.ar.memberships[0]!], hidden: [] },
      stripped: { visible: [], hidden: [c.vt.memberships[0]!] },
    },
    // Beschlüsse (decision 190): no principal but the admins belongs to either Gremium of motions;
    // the role Aufsichtsrat (the principal aufsichtsrat) makes nobody a member of an Aufsichtsrat.
    // The personas see their Gremium's, never the foreign one's.
    motion: {
      anonymous: { visible: [], hidden: [m.running] },
      vertreter: { visible: [], hidden: [m.draft, m.running, m.closed, m.established, m.foreign] },
      aufsichtsrat: { visible: [], hidden: [m.running, m.established, m.foreign] },
      admin: { visible: [m.running, m.foreign], hidden: [] },
      superAdmin: { visible: [m.established], hidden: [] },
      stripped: { visible: [], hidden: [m.draft, m.running] },
      mitglied: { visible: [m.running], hidden: [m.foreign] },
      schriftfuehrung: { visible: [m.draft], hidden: [m.foreign] },
      vorsitz: { visible: [m.closed], hidden: [m.foreign] },
    },
    resolution: {
      anonymous: { visible: [], hidden: [r.established] },
      vertreter: { visible: [], hidden: [r.established, r.foreign] },
      aufsichtsrat: { visible: [], hidden: [r.established, r.foreign] },
      admin: { visible: [r.established], hidden: [] },
      superAdmin: { visible: [r.foreign], hidden: [] },
      stripped: { visible: [], hidden: [r.established] },
      mitglied: { visible: [r.established], hidden: [r.foreign] },
      schriftfuehrung: { visible: [r.established], hidden: [r.foreign] },
      vorsitz: { visible: [r.established], hidden: [r.foreign] },
    },
  };
  // In the Papierkorb, or inside a folder that is: for every principal as if it did not exist.
  const trashed: Record<ObjectType, (string | number)[]> = {
    folder: [x.folder.id, x.folderChild.id],
    file: [x.file.id, x.folderFile.id],
    fileKey: [x.file.external, x.folderFile.external],
    event: [x.event.id],
    eventKey: [x.event.external],
    minutesKey: [minutesKeys.trashed],
    user: [],
    trashItem: [],
    committee: [],
    term: [],
    membership: [],
    motion: [],
    resolution: [],
  };
  const own = lists[type][p];
  if (!own) throw new Error(`Keine Ziele vom Typ ${type} für ${p}`);
  const { visible, hidden } = own;
  const nonexistentValue =
    type === 'fileKey' || type === 'eventKey' || type === 'minutesKey'
      ? randomKey()
      : type === 'trashItem'
        ? `file/${NONEXISTENT_ID}`
        : NONEXISTENT_ID;
  return [
    ...visible.map((value): Target => ({ kind: 'visible', label: `sichtbar ${value}`, value })),
    ...hidden.map((value): Target => ({ kind: 'hidden', label: `verborgen ${value}`, value })),
    ...trashed[type].map((value): Target => ({ kind: 'trashed', label: `im Papierkorb ${value}`, value })),
    { kind: 'nonexistent', label: 'gibt es nicht', value: nonexistentValue },
    // Resolutions are never deleted.
    ...(deleted[type] === undefined
      ? []
      : [
          type === 'trashItem'
            ? { kind: 'gone' as const, label: 'endgültig gelöscht', value: deleted[type] }
            : { kind: 'nonexistent' as const, label: 'endgültig gelöscht', value: deleted[type] },
        ]),
  ] satisfies Target[];
}

function expectedStatus(entry: Entry, p: PrincipalKey, kind: Kind): number {
  const special = entry.status?.(p, kind);
  if (special !== undefined) return special;
  if (isPersona(p)) {
    if (!entry.personas) throw new Error(`Kein Status der Personen des Gremiums für ${p}`);
    return kind === 'visible' || kind === 'none' ? entry.personas[p] : (entry.missing ?? 404);
  }
  if (entry.access === 'public') return entry.ok ?? 200;
  if (p === 'anonymous') return 401;
  if (entry.access === 'admin' && !isAdminPrincipal(p)) return 403;
  if (entry.access === 'admin-hidden' && !isAdminPrincipal(p)) return 404;
  if (kind === 'visible' || kind === 'none') return entry.ok ?? 200;
  return entry.missing ?? 404;
}

let trashedSerial = 0;

/** A disposable object deleted into the Papierkorb, as `type/id`; kinds take turns unless named. */
async function freshTrashItem(
  w: World,
  kind = (['file', 'folder', 'event'] as const)[(trashedSerial += 1) % 3]!,
): Promise<string> {
  const { id } = await w.fresh[kind]();
  const res = await w.inject('superAdmin', { method: 'DELETE', url: `/api/v1/${kind}s/${id}` });
  expect(res.statusCode, res.body).toBe(204);
  w.markTrashed(kind, id);
  return `${kind}/${id}`;
}

async function freshValue(w: World, type: ObjectType): Promise<string | number> {
  switch (type) {
    case 'trashItem':
      return freshTrashItem(w);
    case 'folder':
      return (await w.fresh.folder()).id;
    case 'file':
      return (await w.fresh.file()).id;
    case 'fileKey':
      return (await w.fresh.file()).external;
    case 'event':
      return (await w.fresh.event()).id;
    case 'eventKey':
      return (await w.fresh.event()).external;
    case 'minutesKey':
      return publishMinutes(w, (await w.fresh.event()).id);
    case 'user':
      return (await w.fresh.user()).id;
    case 'committee':
      return (await w.fresh.committee()).id;
    case 'term':
      return (await w.fresh.term({ archived: true })).id;
    case 'membership':
      return (await w.fresh.membership()).id;
    case 'motion':
      return w.fresh.motion();
    case 'resolution':
      throw new Error('Beschlüsse werden nie gelöscht oder geändert: kein Wegwerfobjekt');
  }
}

const urlFor = (path: string, value: string | number | undefined) =>
  path.includes('/trash/:type/:id')
    ? path.replace(':type/:id', String(value))
    : path
        .replace(':type', 'file')
        .replace(':version', '1')
        .replace(/:(id|key)/, encodeURIComponent(String(value)));

/** With DOWNLOAD_OFFLOAD=s3 an allowed GET of content is a redirect to the store. */
function offloaded(status: number, method: string, offload?: Offload): number {
  return offload?.mode === 's3' && method === 'GET' && status === 200 ? 303 : status;
}

/**
 * Only an allowed GET hands its bytes over: to nginx with X-Accel-Redirect and no body, or to the
 * store with a short-lived address. A refusal or a HEAD hands over nothing.
 */
function expectHandedOver(offload: Offload, res: LightMyRequestResponse, method: string, what: string) {
  const allowed = method === 'GET' && (res.statusCode === 200 || res.statusCode === 303);
  if (!allowed) {
    expect(res.headers['x-accel-redirect'], what).toBeUndefined();
    expect(res.headers.location, what).toBeUndefined();
    return;
  }
  if (offload.mode === 'nginx') {
    expect(res.headers['x-accel-redirect'], what).toMatch(/^\/_offload\/[A-Za-z0-9_-]{16,64}$/);
    expect(res.body, what).toBe('');
    expect(res.headers['content-disposition'], what).toMatch(/^(inline|attachment); filename=/);
    expect(res.headers['cache-control'], what).toBe('private, no-store');
  } else {
    offload.checkRedirect(res.headers);
    expect(res.body, what).toBe('');
  }
}

/** API-Schlüssel of the Super-Admin (decision 136): one per scope, one with every other scope each, one with all. */
type MatrixKeys = Record<ApiKeyScope | 'all', string> & { allBut: Record<ApiKeyScope, string> };

interface MatrixState {
  t: TestApp;
  w: World;
  deleted: Partial<Record<ObjectType, string | number>>;
  keys: MatrixKeys;
}

/**
 * The app with its world, and things that existed once: their ids and keys must answer like ids
 * that never existed.
 */
async function setUpMatrix(env: Record<string, string> = {}): Promise<MatrixState> {
  const t = await buildTestApp({ env });
  const w = await buildWorld(t);
  const deleted: Partial<Record<ObjectType, string | number>> = {};
  // Deleted, then removed from the Papierkorb for good (users do not go there).
  const su = (options: InjectOptions) => w.inject('superAdmin', options);
  const folder = await w.fresh.folder();
  const file = await w.fresh.file();
  const event = await w.fresh.event();
  const user = await w.fresh.user();
  const purged = await w.fresh.event();
  // Protokolle (decision 130): on the world's events, on one in the Papierkorb and on one purged.
  const secretOf = (title: string) => w.secrets.find((secret) => secret.texts[0] === title)!;
  for (const key of ['ar', 'vt', 'both'] as const) {
    minutesKeys[key] = await publishMinutes(w, w.events[key].id);
    secretOf(w.events[key].title).texts.push(minutesKeys[key]);
  }
  const trashedWithMinutes = await w.fresh.event();
  minutesKeys.trashed = await publishMinutes(w, trashedWithMinutes.id);
  secretOf(trashedWithMinutes.title).texts.push(minutesKeys.trashed);
  expect((await su({ method: 'DELETE', url: `/api/v1/events/${trashedWithMinutes.id}` })).statusCode).toBe(
    204,
  );
  w.markTrashed('event', trashedWithMinutes.id);
  const purgedMinutes = await publishMinutes(w, event.id);
  secretOf(event.title).texts.push(purgedMinutes);
  for (const url of [
    `/api/v1/folders/${folder.id}`,
    `/api/v1/files/${file.id}`,
    `/api/v1/events/${event.id}`,
    `/api/v1/user/${user.id}`,
    `/api/v1/events/${purged.id}`,
    `/api/v1/trash/folder/${folder.id}`,
    `/api/v1/trash/file/${file.id}`,
    `/api/v1/trash/event/${event.id}`,
    `/api/v1/trash/event/${purged.id}`,
  ]) {
    const res = await su({ method: 'DELETE', url });
    expect(res.statusCode, `${url}: ${res.body}`).toBe(204);
  }
  // A Gremium, an Amtsperiode and a membership, each deleted again.
  const goneCommittee = await w.fresh.committee();
  const goneTerm = await w.fresh.term();
  const goneMembership = await w.fresh.membership();
  for (const url of [
    `/api/v1/committees/${goneCommittee.id}`,
    `/api/v1/terms/${goneTerm.id}`,
    `/api/v1/memberships/${goneMembership.id}`,
  ]) {
    const res = await su({ method: 'DELETE', url });
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  }
  Object.assign(deleted, {
    committee: goneCommittee.id,
    term: goneTerm.id,
    membership: goneMembership.id,
    folder: folder.id,
    file: file.id,
    fileKey: file.external,
    event: event.id,
    eventKey: event.external,
    user: user.id,
    trashItem: `event/${purged.id}`,
    minutesKey: purgedMinutes,
    motion: w.board.motions.gone,
  });
  const keys = { allBut: {} } as MatrixKeys;
  const issue = async (scopes: readonly ApiKeyScope[]) => {
    const res = await su({
      method: 'POST',
      url: '/api/v1/api-keys',
      payload: { name: `Matrix ${scopes.join(' ')}`, scopes },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.token as string;
  };
  keys.all = await issue(API_KEY_SCOPES);
  for (const scope of API_KEY_SCOPES) {
    keys[scope] = await issue([scope]);
    keys.allBut[scope] = await issue(API_KEY_SCOPES.filter((other) => other !== scope));
  }
  return { t, w, deleted, keys };
}

/**
 * One entry of the matrix: every principal, every target, GET and HEAD for a GET route. With an
 * offload (decision 135) the download routes answer the same, except that the bytes of an
 * allowed GET are handed over (`expectHandedOver`).
 */
async function checkEntry(state: MatrixState, key: string, offload?: Offload): Promise<void> {
  const { w, deleted, keys } = state;
  const entry = ENTRIES[key]!;
  const [method, path] = key.split(' ') as [string, string];
  const methods = method === 'GET' ? ['GET', 'HEAD'] : [method];
  const failures: string[] = [];

  /**
   * Calls the route as `p` on every target (or the first only) and checks each answer; `as` is an
   * API-Schlüssel of `p`'s account whose token replaces the session (decision 136), `expected` then
   * what it must answer.
   */
  async function callAs(
    p: PrincipalKey,
    as?: { label: string; token: string; expected: (kind: Kind) => number; firstOnly?: boolean },
  ) {
    const all: Target[] = entry.object
      ? targetsFor(w, entry.object, p, deleted)
      : [{ kind: 'none', label: 'ohne Objekt' }];
    const targets = as?.firstOnly ? all.slice(0, 1) : all;
    for (const httpMethod of methods) {
      const answers: { target: Target; res: LightMyRequestResponse }[] = [];
      for (const original of targets) {
        let target = original;
        if (entry.disposable && original.kind === 'visible' && (isAdminPrincipal(p) || isPersona(p))) {
          target = { ...original, value: await (entry.fresh?.(w) ?? freshValue(w, entry.object!)) };
        }
        const call: Call = { w, p, target };
        const extra = (await entry.request?.(call)) ?? {};
        const res = await w.inject(p, {
          ...extra,
          ...(as ? { headers: { ...extra.headers, authorization: `Bearer ${as.token}` } } : {}),
          method: httpMethod as InjectOptions['method'],
          url: entry.url ? await entry.url(call) : urlFor(path, target.value),
        });
        const expected = offloaded(
          as ? as.expected(target.kind) : expectedStatus(entry, p, target.kind),
          httpMethod,
          offload,
        );
        const what = `${httpMethod} ${path} als ${as?.label ?? p}, ${target.label}`;
        if (res.statusCode !== expected) {
          failures.push(`${what}: ${res.statusCode} statt ${expected} (${res.body.slice(0, 200)})`);
          continue;
        }
        if (offload) expectHandedOver(offload, res, httpMethod, what);
        expect(res.statusCode, `${what}: nie 5xx`).toBeLessThan(500);
        expectNoLeak(w, p, res, what, entry.trashView, entry.cancelledView);
        if (httpMethod === 'HEAD') expect(res.body, what).toBe('');
        else if (res.statusCode >= 400) {
          const body = res.json() as { message?: unknown; errors?: unknown };
          expect(typeof body.message === 'string' && body.message.length > 0, what).toBe(true);
          expect(
            Object.keys(body).filter((k) => k !== 'message' && k !== 'errors'),
            what,
          ).toEqual([]);
          if (as && res.statusCode === 403) expect(body.message, what).toBe(API_KEY_MESSAGES.outOfScope);
        } else await entry.check?.(call, res);
        answers.push({ target, res });
      }
      // Hidden, nonexistent and trashed are indistinguishable: same status, same body, same
      // type. A member finds nothing at all behind an admin-hidden route, visible or not.
      const unseen = answers.filter(
        ({ target }) =>
          target.kind === 'hidden' ||
          target.kind === 'nonexistent' ||
          // Unless the entry lets this principal see it in the Papierkorb (a cancellation).
          (target.kind === 'trashed' &&
            expectedStatus(entry, p, 'trashed') === expectedStatus(entry, p, 'nonexistent')) ||
          (entry.access === 'admin-hidden' && !isAdminPrincipal(p)),
      );
      const shape = ({ res }: { res: LightMyRequestResponse }) => ({
        status: res.statusCode,
        body: res.body,
        type: res.headers['content-type'],
        length: res.headers['content-length'],
      });
      for (const answer of unseen.slice(1)) {
        expect(
          shape(answer),
          `${httpMethod} ${path} als ${p}: ${answer.target.label} wie ${unseen[0]!.target.label}`,
        ).toEqual(shape(unseen[0]!));
      }
    }
  }

  for (const p of PRINCIPALS) await callAs(p);
  if (entry.personas) for (const p of PERSONAS) await callAs(p);

  // API-Schlüssel of the Super-Admin: with the route's scope exactly what the Super-Admin gets;
  // with every other scope, or on a route no key may call, the scope's 403 before any lookup.
  // Public routes do not look at the token at all.
  const scope = scopeForRoute(method, path);
  const superAdmin = (kind: Kind) => expectedStatus(entry, 'superAdmin', kind);
  if (entry.access === 'public') {
    await callAs('superAdmin', {
      label: 'API-Schlüssel',
      token: keys.all,
      expected: superAdmin,
      firstOnly: true,
    });
  } else if (scope) {
    await callAs('superAdmin', { label: `API-Schlüssel ${scope}`, token: keys[scope], expected: superAdmin });
    await callAs('superAdmin', {
      label: `API-Schlüssel ohne ${scope}`,
      token: keys.allBut[scope],
      expected: () => 403,
      firstOnly: true,
    });
  } else {
    await callAs('superAdmin', {
      label: 'API-Schlüssel mit allen Berechtigungen',
      token: keys.all,
      expected: () => 403,
      firstOnly: true,
    });
  }
  expect(failures).toEqual([]);
}

describe('authorization matrix', () => {
  let t: TestApp;
  let w: World;
  let state: MatrixState;

  beforeAll(async () => {
    state = await setUpMatrix();
    ({ t, w } = state);
  }, 60_000);
  afterAll(() => t?.close());

  it('has an entry for every registered API route, and a route for every entry', () => {
    const registered = apiRoutes(t.app).map(routeKey);
    const covered = (key: string) =>
      key in ENTRIES || (key.startsWith('HEAD ') && `GET ${key.slice(5)}` in ENTRIES);
    expect(
      registered.filter((key) => !covered(key)),
      'Routen ohne Eintrag in der Matrix',
    ).toEqual([]);
    expect(
      Object.keys(ENTRIES).filter((key) => !registered.includes(key)),
      'Einträge ohne Route',
    ).toEqual([]);
    // Sanity of the enumeration itself: it sees the routes and their HEAD variants.
    expect(registered).toContain('GET /api/v1/download/:key');
    expect(registered).toContain('HEAD /api/v1/download/:key');
    expect(registered.length).toBeGreaterThan(40);
  });

  it('serves nothing outside /api/v1 but the API description', () => {
    const others = registeredRoutes(t.app).filter((route) => !route.url.startsWith('/api/v1/'));
    expect(others.filter((route) => !route.url.startsWith('/api/docs'))).toEqual([]);
  });

  // Before the matrix: its last entry empties the Papierkorb, after which these would be vacuous.
  it('refuses a folder in the Papierkorb as a target, as one that does not exist', async () => {
    const targets = [w.trash.folder.id, w.trash.folderChild.id];
    const writes: [string, (folderId: number) => Promise<InjectOptions>][] = [
      [
        'neuer Ordner',
        async (folderId) => ({
          method: 'POST',
          url: '/api/v1/folders',
          payload: { folder_id: folderId, title: 'Ordner im Papierkorb' },
        }),
      ],
      [
        'Wahlperiode',
        async (folderId) => ({
          method: 'POST',
          url: '/api/v1/period',
          payload: { folder_id: folderId, start: 2040, end: 2041 },
        }),
      ],
      [
        'Upload',
        async (folderId) => ({
          method: 'POST',
          url: '/api/v1/files',
          payload: {
            title: 'Datei im Papierkorb',
            file: dataUrl(pdfBytes('Ziel')),
            permissions: ['Aufsichtsrat'],
            folder_id: folderId,
          },
        }),
      ],
      [
        'Ordner verschieben',
        async (folderId) => ({
          method: 'PUT',
          url: `/api/v1/folders/${(await w.fresh.folder()).id}`,
          payload: { title: 'Verschoben', parent_id: folderId },
        }),
      ],
      [
        'Datei verschieben',
        async (folderId) => ({
          method: 'PUT',
          url: `/api/v1/files/${(await w.fresh.file()).id}`,
          payload: { title: 'Verschoben', folder_id: folderId },
        }),
      ],
      [
        'Wiederherstellen dorthin',
        async (folderId) => ({
          method: 'POST',
          url: `/api/v1/trash/${await freshTrashItem(w, 'file')}/restore`,
          payload: { folder_id: folderId },
        }),
      ],
    ];
    const before = await t.db.kysely.selectFrom('trash_items').select('id').execute();
    for (const p of ['admin', 'superAdmin'] as const) {
      for (const [label, request] of writes) {
        const missing = await w.inject(p, await request(NONEXISTENT_ID));
        expect(missing.statusCode, `${label} als ${p}: ${missing.body}`).toBeGreaterThanOrEqual(400);
        expect(missing.statusCode, `${label} als ${p}: ${missing.body}`).toBeLessThan(500);
        for (const folderId of targets) {
          const res = await w.inject(p, await request(folderId));
          expect(
            { status: res.statusCode, body: res.body },
            `${label} als ${p} in Ordner ${folderId} im Papierkorb`,
          ).toEqual({ status: missing.statusCode, body: missing.body });
        }
      }
    }
    // The world's entries are still in the Papierkorb, untouched.
    const after = await t.db.kysely.selectFrom('trash_items').select('id').execute();
    expect(after.map((row) => row.id)).toEqual(expect.arrayContaining(before.map((row) => row.id)));
    expect(await t.db.kysely.selectFrom('folders').select('id').where('id', 'in', targets).execute()).toEqual(
      [],
    );
  });

  it('lets every admin change an Amtsperiode, and only a Super-Admin reopen or close an archived one', async () => {
    const open = await w.fresh.term();
    const moved = await w.inject('admin', {
      method: 'PUT',
      url: `/api/v1/terms/${open.id}`,
      payload: { start: '2026-01-01', end: '2031-06-30' },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().data).toMatchObject({ end: '2031-06-30', archived: false });
    const archived = await w.fresh.term({ archived: true });
    const dates = { start: '2020-01-01', end: '2023-12-31' };
    const put = (p: PrincipalKey, archivedValue?: boolean) =>
      w.inject(p, {
        method: 'PUT',
        url: `/api/v1/terms/${archived.id}`,
        payload: { ...dates, ...(archivedValue === undefined ? {} : { archived: archivedValue }) },
      });
    // Its dates stay an admin's to correct; whether it is open is not.
    expect((await put('admin')).statusCode).toBe(200);
    const byAdmin = await put('admin', false);
    expect({ status: byAdmin.statusCode, body: byAdmin.json() }).toEqual({
      status: 403,
      body: { message: COMMITTEE_MESSAGES.reopenSuperAdmin },
    });
    expect((await put('superAdmin', false)).json().data).toMatchObject({ archived: true, reopened: true });
    const closeByAdmin = await put('admin', true);
    expect(closeByAdmin.statusCode).toBe(403);
    expect((await put('superAdmin', true)).json().data).toMatchObject({ archived: true, reopened: false });
  });

  it.each(Object.keys(ENTRIES))('%s', (key) => checkEntry(state, key));

  // --- Beschlüsse (decision 190): the cases behind the matrix's rows, one by one -----------------
  it('a Vertreter cannot see or vote on an Aufsichtsrat motion: 404', async () => {
    const running = await w.fresh.motion('abstimmung');
    const umlauf = await w.fresh.motion('umlauf');
    const calls: [InjectOptions['method'], string, number, object | undefined][] = [
      ['GET', '', running, undefined],
      ['POST', '/votes', running, { choice: 'ja' }],
      ['POST', '/conflict', running, {}],
      ['POST', '/objection', umlauf, { reason: 'Ich widerspreche.' }],
      ['POST', '/votes', umlauf, { choice: 'nein' }],
    ];
    for (const [method, suffix, id, payload] of calls) {
      const call = (motionId: number) =>
        w.inject('vertreter', {
          method,
          url: `/api/v1/motions/${motionId}${suffix}`,
          ...(payload ? { payload } : {}),
        });
      const [hidden, missing] = [await call(id), await call(NONEXISTENT_ID)];
      expect({ status: hidden.statusCode, body: hidden.json() }, `${method} ${suffix}`).toEqual({
        status: 404,
        body: missing.json(),
      });
    }
    // Nothing was counted, nothing listed.
    for (const id of [running, umlauf]) {
      const seen = (await w.inject('vorsitz', { method: 'GET', url: `/api/v1/motions/${id}` })).json()
        .data as Motion;
      expect(seen.state).toBe('abstimmung');
      expect(seen.electorate?.map((e) => [e.voted, e.objected, e.conflicted])).toEqual([
        [false, false, false],
        [false, false, false],
        [false, false, false],
      ]);
    }
    for (const query of [`committee_id=${w.board.committee.id}`, 'pending=1']) {
      const listed = await w.inject('vertreter', { method: 'GET', url: `/api/v1/motions?${query}` });
      expect(listed.json(), query).toEqual({ data: [] });
    }
    const register = await w.inject('vertreter', {
      method: 'GET',
      url: `/api/v1/resolutions?committee_id=${w.board.committee.id}`,
    });
    expect(register.json()).toEqual({ data: [] });
  });

  it('answers a new motion in a Gremium the caller does not belong to like one in no Gremium', async () => {
    for (const p of ['vertreter', 'aufsichtsrat', 'stripped'] as const) {
      const post = (committeeId: number) =>
        w.inject(p, {
          method: 'POST',
          url: '/api/v1/motions',
          payload: { ...motionBody(w), committee_id: committeeId },
        });
      const [foreign, missing] = [await post(w.board.committee.id), await post(NONEXISTENT_ID)];
      expect({ status: foreign.statusCode, body: foreign.json() }, p).toEqual({
        status: 404,
        body: missing.json(),
      });
    }
    const byMember = await w.inject('mitglied', {
      method: 'POST',
      url: '/api/v1/motions',
      payload: motionBody(w),
    });
    expect({ status: byMember.statusCode, body: byMember.json() }).toEqual({
      status: 403,
      body: { message: MOTION_MESSAGES.onlyChairOrSecretary },
    });
  });

  // The links of a draft are checked too: never before the motion is found visible, or a change of
  // a motion one cannot see would tell which documents and meetings hidden from one exist.
  it('answers a change of a motion the caller cannot see with 404, whatever documents or meetings it names', async () => {
    const cases: [string, Record<string, unknown>][] = [
      ['verborgene Datei', { file_ids: [w.files.ar.id] }],
      ['fehlende Datei', { file_ids: [NONEXISTENT_ID] }],
      ['verborgene Sitzung', { event_id: w.events.ar.id }],
      ['fehlende Sitzung', { event_id: NONEXISTENT_ID }],
    ];
    for (const p of ['vertreter', 'stripped'] as const) {
      const missing = await w.inject(p, {
        method: 'PUT',
        url: `/api/v1/motions/${NONEXISTENT_ID}`,
        payload: {},
      });
      expect(missing.statusCode).toBe(404);
      for (const id of [w.board.motions.running, NONEXISTENT_ID]) {
        for (const [label, payload] of cases) {
          const res = await w.inject(p, { method: 'PUT', url: `/api/v1/motions/${id}`, payload });
          expect({ status: res.statusCode, body: res.body }, `${p}, Vorlage ${id}, ${label}`).toEqual({
            status: 404,
            body: missing.body,
          });
        }
      }
    }
  });

  it('lets the Schriftführung write drafts but not change a running vote, which only the Vorsitz may void', async () => {
    const draft = await w.fresh.motion('entwurf');
    const byMember = await w.inject('mitglied', {
      method: 'PUT',
      url: `/api/v1/motions/${draft}`,
      payload: { title: 'Vom Mitglied geändert' },
    });
    expect({ status: byMember.statusCode, body: byMember.json() }).toEqual({
      status: 403,
      body: { message: MOTION_MESSAGES.onlyChairOrSecretary },
    });
    const running = await w.fresh.motion('abstimmung');
    const title = w.newSecret('UngueltigeAbstimmung', [...PERSONAS]);
    const bySecretary = await w.inject('schriftfuehrung', {
      method: 'PUT',
      url: `/api/v1/motions/${running}`,
      payload: { title },
    });
    expect({ status: bySecretary.statusCode, body: bySecretary.json() }).toEqual({
      status: 403,
      body: { message: MOTION_MESSAGES.onlyChair },
    });
    const unchanged = (await w.inject('vorsitz', { method: 'GET', url: `/api/v1/motions/${running}` })).json()
      .data as Motion;
    expect(unchanged.state).toBe('abstimmung');
    expect(unchanged.title).not.toBe(title);
    const byChair = await w.inject('vorsitz', {
      method: 'PUT',
      url: `/api/v1/motions/${running}`,
      payload: { title },
    });
    expect(byChair.statusCode, byChair.body).toBe(200);
    expect(byChair.json()).toMatchObject({
      data: { state: 'entwurf', title },
      message: MOTION_MESSAGES.voided,
    });
  });

  it('lets only the Vorsitz establish a result, with the current code of the authenticator app', async () => {
    const closed = await w.fresh.motion('geschlossen');
    const establish = (p: PrincipalKey, code: string) =>
      w.inject(p, { method: 'POST', url: `/api/v1/motions/${closed}/establish`, payload: { code } });
    for (const p of ['admin', 'superAdmin', 'schriftfuehrung', 'mitglied'] as const) {
      const res = await establish(p, await w.board.code());
      expect({ status: res.statusCode, body: res.json() }, p).toEqual({
        status: 403,
        body: { message: MOTION_MESSAGES.onlyChair },
      });
    }
    for (const wrong of ['000000', 'abcd-efgh-ijkl']) {
      const res = await establish('vorsitz', wrong);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().errors).toEqual({ code: [MOTION_MESSAGES.codeInvalid] });
    }
    const still = (await w.inject('vorsitz', { method: 'GET', url: `/api/v1/motions/${closed}` })).json()
      .data as Motion;
    expect(still).toMatchObject({ state: 'geschlossen', resolution: null });
    const done = await establish('vorsitz', await w.board.code());
    expect(done.statusCode, done.body).toBe(200);
    const again = await establish('vorsitz', await w.board.code());
    expect(again.statusCode, again.body).toBe(409);
    const after = (await w.inject('mitglied', { method: 'GET', url: `/api/v1/motions/${closed}` })).json()
      .data as Motion;
    expect(after).toMatchObject({ state: 'festgestellt', resolution: { id: done.json().data.id } });
  });

  it('keeps the roles of the stripped principal removed and its sessions working', async () => {
    const res = await w.inject('stripped', { method: 'GET', url: '/api/v1/account' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.roles).toEqual([]);
  });

  it('mails notifications only to those who may see the item, and nothing after a role is gone', async () => {
    // The stripped principal chose the daily digest: the next morning's run must mail it nothing
    // of what it was told about while it still held its roles (decision 131).
    const queuedForStripped = await t.db.kysely
      .selectFrom('notification_queue')
      .select('id')
      .where('user_id', '=', w.users.stripped.id)
      .execute();
    expect(queuedForStripped.length).toBeGreaterThan(0);
    t.clock.set(new Date(t.clock.now().getTime() + 24 * 60 * 60_000));
    await t.app.digests.run();
    const sent = await t.flushMail();
    for (const p of ['vertreter', 'aufsichtsrat', 'stripped'] as const) {
      const mails = sent
        .map((mail, index) => ({ ...mail, index }))
        .filter((mail) => mail.to.toLowerCase().includes(w.users[p].email));
      const relevant = p === 'stripped' ? mails.filter((mail) => mail.index >= w.strippedAt) : mails;
      const text = relevant.map((mail) => `${mail.subject}\n${mail.text}`).join('\n');
      const leaked = hiddenTexts(w, p).filter(({ text: secret }) => text.includes(secret));
      expect(
        leaked.map(({ name }) => name),
        `E-Mails an ${p}`,
      ).toEqual([]);
      if (p === 'stripped') {
        // The reset link the matrix asked for goes to the account itself; nothing else may.
        const notifications = relevant.filter((mail) => !mail.subject.startsWith('Passwort zurücksetzen'));
        expect(notifications, 'E-Mails nach dem Entzug der Rollen').toEqual([]);
      }
    }
    // The notifications that should arrive did arrive, so the check above is not vacuous.
    const toVertreter = sent.filter((mail) => mail.to.includes(w.users.vertreter.email));
    for (const title of [w.files.vt.title, w.files.mixedBoth.title, w.events.vt.title, w.events.both.title]) {
      expect(
        toVertreter.some((mail) => mail.text.includes(title) || mail.subject.includes(title)),
        title,
      ).toBe(true);
    }
    const toAufsichtsrat = sent.filter((mail) => mail.to.includes(w.users.aufsichtsrat.email));
    const reached = (title: string) =>
      toAufsichtsrat.some((mail) => mail.text.includes(title) || mail.subject.includes(title));
    for (const title of [w.files.ar.title, w.files.vtInAr.title, w.events.ar.title]) {
      expect(reached(title), title).toBe(true);
    }
    // The uploads of the matrix (by Admin, Super-Admin and a key) notified the Aufsichtsrat after the
    // stripped principal had lost that role.
    const uploaded = w.secrets.filter((secret) => secret.name === 'NeueDatei').map((s) => s.texts[0]!);
    // Three: Admin, Super-Admin and the Super-Admin's API-Schlüssel with `inhalte:schreiben`.
    expect(uploaded.filter(reached)).toHaveLength(3);
    // Every batch's document reached them, completed by its call or a quiet period later (decision 182).
    const batched = w.secrets.filter((secret) => secret.name === 'Stapel').map((s) => s.texts[0]!);
    expect(batched.length).toBeGreaterThan(0);
    for (const title of batched) expect(reached(title), title).toBe(true);
  });
});

/**
 * The routes that send stored content (`sendDownload`): under DOWNLOAD_OFFLOAD=nginx and s3 they
 * answer every principal and target as above, and only an allowed GET hands its bytes over
 * (decision 135).
 */
const DOWNLOAD_ROUTES = [
  'GET /api/v1/download/:key',
  'GET /api/v1/files/:id/versions/:version/download',
  'GET /api/v1/info/:key',
  'GET /api/v1/minutes/:key',
] as const;

describe.each(['nginx', 's3'] as const)(
  'authorization matrix of the downloads, DOWNLOAD_OFFLOAD=%s',
  (mode) => {
    let state: MatrixState;
    let offload: Offload;

    beforeAll(async () => {
      offload = await Offload.create(mode);
      state = await setUpMatrix(offload.env);
    }, 60_000);
    afterAll(async () => {
      await state?.t.close();
      await offload?.close();
    });

    it('covers every route that answers with stored content', () => {
      // Download routes are the ones documented with a 206 (plugins/openapi.ts, describeDownload).
      const paths = (
        state.t.app.swagger() as unknown as { paths: Record<string, Record<string, { responses: object }>> }
      ).paths;
      const downloads = Object.entries(paths)
        .filter(([, operations]) => operations.get && '206' in operations.get.responses)
        .map(([path]) => `GET ${path.replace(/\{([^}]+)\}/g, ':$1')}`);
      expect(downloads.sort()).toEqual([...DOWNLOAD_ROUTES].sort());
    });

    it.each(DOWNLOAD_ROUTES)('%s', (key) => checkEntry(state, key, offload));
  },
);
