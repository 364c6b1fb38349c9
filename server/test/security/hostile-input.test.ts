// Over 300 lines: the hostile cases of every route (ENTRIES), their payload and multipart generators and the
// one seeded app with its id pools make one run; split, the pools and the seed would pass between files.
import { createApiKeyBodySchema } from '@gremienportal/contracts/api-keys';
import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  auditExportQuerySchema,
  auditListQuerySchema,
  pageQuerySchema,
} from '@gremienportal/contracts/audit';
import { updateAccountBodySchema } from '@gremienportal/contracts/account';
import {
  forgotPasswordBodySchema,
  loginBodySchema,
  passwordResetBodySchema,
} from '@gremienportal/contracts/auth';
import { createEventBodySchema, updateEventBodySchema } from '@gremienportal/contracts/events';
import { agendaCheckBodySchema, putAgendaBodySchema } from '@gremienportal/contracts/meetings';
import {
  createFileBodySchema,
  downloadQuerySchema,
  fileListQuerySchema,
  updateFileBodySchema,
} from '@gremienportal/contracts/files';
import {
  createFolderBodySchema,
  periodBodySchema,
  updateFolderBodySchema,
} from '@gremienportal/contracts/folders';
import { trashListQuerySchema, trashRestoreBodySchema } from '@gremienportal/contracts/trash';
import { createUserBodySchema, updateUserBodySchema } from '@gremienportal/contracts/users';
import {
  disableTwoFactorBodySchema,
  passkeyOptionsBodySchema,
  passkeyRegistrationBodySchema,
  resetTwoFactorBodySchema,
  totpConfirmBodySchema,
  twoFactorBodySchema,
  webauthnLoginBodySchema,
  webauthnLoginOptionsBodySchema,
} from '@gremienportal/contracts/two-factor';
import { searchQuerySchema, suggestQuerySchema } from '@gremienportal/contracts/search';
import { minutesUploadBodySchema, putAttendanceBodySchema } from '@gremienportal/contracts/meetings';
import { markReadBodySchema } from '@gremienportal/contracts/news';
import {
  createCommitteeBodySchema,
  createMembershipBodySchema,
  createTermBodySchema,
  importQuerySchema,
  membersQuerySchema,
  updateCommitteeBodySchema,
  updateMembershipBodySchema,
  updateTermBodySchema,
} from '@gremienportal/contracts/committees';
import { putNotificationSettingsBodySchema } from '@gremienportal/contracts/notifications';
import {
  conflictBodySchema,
  createMotionBodySchema,
  establishBodySchema,
  handCountBodySchema,
  motionListQuerySchema,
  objectionBodySchema,
  openMotionBodySchema,
  updateMotionBodySchema,
  voteBodySchema,
} from '@gremienportal/contracts/resolutions';
import {
  correctionBodySchema,
  followUpBodySchema,
  resolutionListQuerySchema,
} from '@gremienportal/contracts/beschlussbuch';
import {
  addPasskey,
  challengeOf,
  createPasskeyUser,
  createTotpUser,
  freshCode,
  passkeyPromptOf,
  type TotpUser,
} from '../support/two-factor.fixtures.ts';
import { SoftAuthenticator } from '../support/soft-authenticator.ts';
import { buildTestApp, type TestApp } from '../support/build-test-app.ts';
import { createUser, sessionFor, TEST_PASSWORD, type TestUser } from '../support/factories.ts';
import { dataUrl, pdfBytes } from '../support/files.fixtures.ts';
import {
  applyMutation,
  arbitraryOf,
  bodyMutation,
  HOSTILE_PATH_SEGMENTS,
  hostileString,
  hostileValue,
  RAW_JSON_BODIES,
  WRONG_CONTENT_TYPES,
  type Hints,
} from './arbitraries.ts';
import { apiRoutes, routeKey } from './route-inventory.ts';
import { changes, errorBodyProblems, NO_CHANGES, snapshot, type TableName } from './state.ts';

/**
 * Hostile input (issue item 2): every route that takes input gets values generated from its
 * contract schema and then spoilt — wrong types, missing and extra fields, empty and very long
 * strings, Unicode and NUL, path traversal and SQL in names, huge numbers, deep nesting, broken
 * JSON, multipart bodies and data URLs, wrong content types, malformed ids and keys. Every answer
 * is 2xx or a 4xx with a German `{ message, errors? }`, never 5xx; a refused request leaves the
 * database and the stored files as they were.
 *
 * Runs are seeded: `SECURITY_SEED` picks another sequence (`random` a new one each run; a
 * failure prints the seed and the case), `SECURITY_RUNS` scales the cases per route (default 30).
 * A route's seed is `SECURITY_SEED` plus a hash of its method and path, so that adding a route
 * changes no other route's cases.
 */
const SEED =
  process.env.SECURITY_SEED === 'random'
    ? Date.now() % 2 ** 31
    : Number.parseInt(process.env.SECURITY_SEED ?? '20261121', 10);
if (!Number.isSafeInteger(SEED)) throw new Error('SECURITY_SEED muss eine ganze Zahl oder "random" sein.');
const RUNS = Math.max(1, Number(process.env.SECURITY_RUNS ?? 30));

/** `SEED` plus the route key's FNV-1a hash, as a 32-bit integer for fast-check. */
function routeSeed(key: string): number {
  let hash = 0x811c9dc5;
  for (const char of key) hash = Math.imul(hash ^ char.codePointAt(0)!, 0x01000193);
  return (SEED + hash) | 0;
}
/** Small, so an over-long upload is cheap to send. */
const MAX_UPLOAD_MB = 1;
const UPLOAD_LIMIT = MAX_UPLOAD_MB * 1024 * 1024;
const NONEXISTENT_ID = '2147483000';

const HTML_WITH_SCRIPT = '<!doctype html><title>x</title><script>localStorage.pwned = 1</script>';
const SVG_WITH_SCRIPT =
  '<svg xmlns="http://www.w3.org/2000/svg"><script>localStorage.pwned = 1</script></svg>';
const TOO_LARGE = Buffer.alloc(UPLOAD_LIMIT + 1, 0x41);

type Payload =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'raw'; body: string | Buffer; contentType?: string }
  | { kind: 'multipart'; fields: [string, unknown][]; file?: FilePart; breakage: Breakage };

interface FilePart {
  field: string;
  filename: string;
  contentType: string;
  content: string | Buffer;
}

type Breakage =
  | 'none'
  | 'truncate'
  | 'boundary'
  | 'noClose'
  | 'twoFiles'
  | 'manyParts'
  | 'bigField'
  | 'noDisposition'
  | 'preamble';

interface Case {
  params: Record<string, string>;
  query: string;
  payload: Payload;
}

interface Pools {
  folderIds: string[];
  fileIds: string[];
  eventIds: string[];
  userIds: string[];
  /** What the DELETE routes may remove; the others stay for the reads and updates. */
  spareFolderIds: string[];
  spareFileIds: string[];
  spareEventIds: string[];
  spareUserIds: string[];
  fileKeys: string[];
  eventKeys: string[];
  roleRefs: unknown[];
  emails: string[];
  /** A document replaced once: version 1 is old, 2 current. Not in `fileIds`, which deletes may hit. */
  versionedFileIds: string[];
  /** Version numbers: real ones (1 and 2), zero, huge. */
  versions: string[];
  /** Ids of documents, folders and events in the Papierkorb (and live and unknown ones). */
  trashIds: string[];
  /** Download keys of Protokolle (decision 130), on an event no other route changes. */
  minutesKeys: string[];
  /** Upload batches (decision 182): an open and a completed one of the actor's, an unknown one. */
  batchIds: string[];
  /**
   * Gremien (decision 189): one with an Amtsperiode and members, the two seeded ones, an unknown
   * one; Amtsperioden (one with members, one archived) and memberships. The spare ones are what the
   * DELETE routes may remove (or are refused: a Gremium with Amtsperioden, an Amtsperiode with members).
   */
  committeeIds: string[];
  termIds: string[];
  membershipIds: string[];
  spareCommitteeIds: string[];
  spareTermIds: string[];
  spareMembershipIds: string[];
  /**
   * Beschlüsse (decision 190): the Aufsichtsrat of the motions (its Vorsitz `chair` the only
   * elector) beside the other Gremien and an unknown one; its motions in every state (a draft, a
   * vote in the meeting, an Umlaufverfahren, a closed, an established and a withdrawn one) and an
   * unknown id; drafts the DELETE route may remove; its resolution and an unknown one; who may
   * vote (the Vorsitz) and who may not (the actor, other accounts, an unknown id).
   */
  motionCommitteeIds: string[];
  motionIds: string[];
  spareMotionIds: string[];
  resolutionIds: string[];
  electorIds: string[];
}

interface Spec {
  /** Path parameters: a pool of real values; hostile segments are mixed in. */
  params?: (pools: Pools) => Record<string, string[]>;
  query?: { schema: z.ZodType; hints?: (pools: Pools) => Hints };
  body?: { schema: z.ZodType; hints?: (pools: Pools) => Hints; upload?: 'files' | 'events' };
  /** `chair`: the Vorsitz of the Beschlüsse' Aufsichtsrat (with an authenticator app), an elector. */
  principal?: 'superAdmin' | 'anonymous' | 'chair';
  /** Tables a refusal may still write (a failed login is logged). */
  mayChange?: TableName[];
  /** The call ends the session it is made with: use a new one each time. */
  freshSession?: boolean;
  /** Share of RUNS for this route (reads without input need fewer). */
  weight?: number;
  /** A body that is no JSON (the members' CSV file): its generator, instead of the schema's. */
  raw?: (pools: Pools) => fc.Arbitrary<Payload>;
  /** A request that must succeed (2xx), so the generators are known to reach the real work. */
  valid: (env: Env) => Promise<Partial<InjectOptions>> | Partial<InjectOptions>;
}

interface Env {
  t: TestApp;
  actor: TestUser;
  pools: Pools;
  fresh: {
    folder(): Promise<string>;
    file(): Promise<{ id: string; key: string }>;
    event(): Promise<{ id: string; key: string }>;
    user(): Promise<string>;
    /** Deleted into the Papierkorb: its id (for `/trash/:type/:id`). */
    trashed(kind: 'file' | 'folder' | 'event'): Promise<string>;
    /** A Gremium without Amtsperioden. */
    committee(): Promise<string>;
    /** An Amtsperiode 2026–2030 of a fresh Gremium, without members. */
    term(): Promise<{ id: string; committeeId: string }>;
    /** A Mitglied for the whole term; `successor`: ended early, with an Ersatzmitglied to move up. */
    membership(options?: {
      successor?: boolean;
    }): Promise<{ id: string; committeeId: string; termId: string }>;
    /** A motion of the Beschlüsse' Aufsichtsrat, opened (in the meeting or by Umlauf) or closed. */
    motion(state?: 'entwurf' | 'abstimmung' | 'umlauf' | 'geschlossen'): Promise<string>;
  };
  /** The Vorsitz of the Beschlüsse' Aufsichtsrat and a current code of their authenticator app. */
  chair: TotpUser;
  chairCode(): Promise<string>;
}

const pick = <T>(list: readonly T[]): fc.Arbitrary<T> => fc.constantFrom(...list);

/** Mostly real roles, so that many generated requests get past the role check to the writes. */
const roleRef = (pools: Pools) =>
  fc.oneof(
    { weight: 4, arbitrary: pick(pools.roleRefs.slice(0, 8)) },
    { weight: 1, arbitrary: pick(pools.roleRefs) },
  );
const roleHints = (pools: Pools): Hints => ({
  roles: fc.oneof(fc.array(roleRef(pools), { minLength: 1, maxLength: 3 }), roleRef(pools)),
  permissions: fc.array(roleRef(pools), { minLength: 1, maxLength: 3 }),
  notifications: fc.oneof(
    { weight: 3, arbitrary: fc.constant([]) },
    { weight: 1, arbitrary: fc.array(roleRef(pools), { maxLength: 2 }) },
  ),
});
const folderHints = (pools: Pools): Hints => ({
  folder_id: pick(pools.folderIds.map(Number)),
  parent_id: pick(pools.folderIds.map(Number)),
  folders: fc.array(pick(pools.folderIds.map(Number)), { maxLength: 1 }),
});
const eventTime = fc
  .date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2040-12-31T00:00:00Z'), noInvalidDate: true })
  .chain((date) =>
    fc.constantFrom(
      date.toISOString(),
      date.toISOString().slice(0, 16),
      date.toISOString().slice(0, 16).replace('T', ' '),
    ),
  );
const dataUrlValue = fc.oneof(
  {
    weight: 3,
    arbitrary: pick([
      dataUrl(pdfBytes('Hostile')),
      dataUrl(HTML_WITH_SCRIPT, 'text/html'),
      dataUrl(SVG_WITH_SCRIPT, 'image/svg+xml'),
      'data:text/plain;name=..%2F..%2F..%2Fevil.html;base64,SGFsbG8=',
      'data:text/plain,Hallo%20Welt',
    ]),
  },
  {
    weight: 2,
    arbitrary: pick([
      'data:',
      'data:,',
      'data:application/pdf;base64,',
      'data:application/pdf;base64,@@@@',
      'data:application/pdf;base64,QUJ',
      'data:application/pdf;base64,QU=J',
      'data:text/plain,%E0%A4%A',
      'data:text/plain;name=%E0%A4%A;base64,QUJD',
      `data:${'x'.repeat(2000)};base64,QUJD`,
      'javascript:alert(1)',
      'https://example.org/datei.pdf',
      '/etc/passwd',
      dataUrl(TOO_LARGE),
    ]),
  },
  { weight: 1, arbitrary: hostileValue },
);
const eventHints = (pools: Pools): Hints => ({
  ...roleHints(pools),
  start: fc.oneof({ weight: 4, arbitrary: eventTime }, { weight: 1, arbitrary: hostileString }),
  end: fc.oneof({ weight: 4, arbitrary: eventTime }, { weight: 1, arbitrary: hostileString }),
  data: dataUrlValue,
});
const fileHints = (pools: Pools): Hints => ({
  ...roleHints(pools),
  ...folderHints(pools),
  file: dataUrlValue,
  data: dataUrlValue,
  batch_id: fc.oneof(fc.uuid(), pick(pools.batchIds), hostileString),
});
/** A document in the sandbox that begins or joins the batch (decision 182). */
async function uploadInBatch(t: TestApp, actor: TestUser, pools: Pools, batchId: string): Promise<void> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/files',
    headers: actor.headers,
    payload: {
      title: 'Im Stapel',
      file: dataUrl(pdfBytes('Stapel')),
      permissions: ['Vertreter'],
      notifications: ['Vertreter'],
      folder_id: Number(pools.folderIds[4]),
      batch_id: batchId,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
}

/** A fresh event with a Protokoll (decision 130): its id and the Protokoll's download key. */
async function eventWithMinutes({ t, actor, fresh }: Env): Promise<{ id: string; key: string }> {
  const { id } = await fresh.event();
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/events/${id}/minutes`,
    headers: actor.headers,
    payload: { data: dataUrl(pdfBytes('Protokoll')), confirm_future: true },
  });
  expect(res.statusCode, res.body).toBe(200);
  return { id, key: res.json().data.external as string };
}

const emailHints = (pools: Pools): Hints => ({
  email: fc.oneof(fc.emailAddress(), pick(pools.emails), hostileString),
});

const agendaHints = (pools: Pools): Hints => ({
  file_ids: fc.oneof(
    { weight: 4, arbitrary: fc.array(pick(pools.fileIds.map(Number)), { maxLength: 3 }) },
    { weight: 1, arbitrary: fc.array(pick(pools.trashIds.map(Number)), { minLength: 1, maxLength: 2 }) },
  ),
});

let serial = 0;
const uniqueEmail = () => `feindlich${(serial += 1)}-${Date.now()}@example.org`;

/** Switches a document's Kenntnisnahme on (decision 131). */
async function askForAcknowledgement(t: TestApp, actor: TestUser, fileId: string): Promise<void> {
  const res = await t.app.inject({
    method: 'PUT',
    url: `/api/v1/files/${fileId}`,
    headers: actor.headers,
    payload: { acknowledgement_required: true },
  });
  expect(res.statusCode, res.body).toBe(200);
}

// --- Gremien (decision 189) -----------------------------------------------------------------------

/** Days as the contract writes them, mostly around the Amtsperioden of the pools (2026–2030). */
const dayText = fc
  .date({ min: new Date('2019-01-01T00:00:00Z'), max: new Date('2032-12-31T00:00:00Z'), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10));
const dayHint = fc.oneof(
  { weight: 6, arbitrary: dayText },
  {
    weight: 1,
    arbitrary: pick([
      '2026-02-30',
      '30.06.2026',
      '2026-6-1',
      '1899-12-31',
      '2201-01-01',
      '2026-01-01T00:00',
      '',
    ]),
  },
  { weight: 1, arbitrary: hostileString },
);
const termHints = (): Hints => ({ start: dayHint, end: dayHint });
const committeeHints = (pools: Pools): Hints => ({
  folder_id: fc.oneof(pick(pools.folderIds.map(Number)), fc.constant(null)),
  // Names that meet the tree and the roles: an admin role, a folder's title in another case, a
  // slash, the longest name (longer than a role's name may be elsewhere).
  name: fc.oneof(
    { weight: 4, arbitrary: fc.string({ minLength: 2, maxLength: 60 }) },
    {
      weight: 1,
      arbitrary: pick([
        'Aufsichtsrat',
        'Admin',
        'Super-Admin',
        'Vertreter',
        'allgemein',
        'Bau/Technik',
        'Ä'.repeat(100),
      ]),
    },
  ),
});
const membershipHints = (pools: Pools): Hints => ({
  term_id: pick(pools.termIds.map(Number)),
  user_id: pick(pools.userIds.map(Number)),
  from: dayHint,
  until: dayHint,
});

// --- Beschlüsse (decision 190) ----------------------------------------------------------------------

const motionHints = (pools: Pools): Hints => ({
  committee_id: pick(pools.motionCommitteeIds.map(Number)),
  event_id: pick(pools.eventIds.map(Number)),
  agenda_item_id: fc.oneof(fc.integer({ min: 1, max: 40 }), pick([2_147_483_647, Number(NONEXISTENT_ID)])),
  file_ids: fc.oneof(
    { weight: 4, arbitrary: fc.array(pick(pools.fileIds.map(Number)), { maxLength: 3 }) },
    { weight: 1, arbitrary: fc.array(pick(pools.trashIds.map(Number)), { minLength: 1, maxLength: 2 }) },
  ),
});
/** Deadlines: instants before and after the test clock's day, and ones that are no instant. */
const deadlineHint = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .date({
        min: new Date('2020-01-01T00:00:00Z'),
        max: new Date('2040-12-31T00:00:00Z'),
        noInvalidDate: true,
      })
      .chain((date) =>
        fc.constantFrom(
          date.toISOString(),
          date.toISOString().replace('.000Z', '+02:00'),
          date.toISOString().slice(0, 19),
          date.toISOString().slice(0, 10),
        ),
      ),
  },
  {
    weight: 1,
    arbitrary: pick([
      '2027-02-30T10:00:00Z',
      '2027-06-30T24:00:00Z',
      '2027-06-30T10:00:00+25:00',
      '30.06.2027 10:00',
      '0000-01-01T00:00:00Z',
      '9999-12-31T23:59:59.999Z',
      '+275760-09-13T00:00:00Z',
      '1970-01-01T00:00:00Z',
      '',
    ]),
  },
  { weight: 1, arbitrary: hostileString },
);
const openHints = (): Hints => ({ deadline: deadlineHint });
const conflictHints = (pools: Pools): Hints => ({ user_id: pick(pools.electorIds.map(Number)) });
const followUpHints = (pools: Pools): Hints => ({
  responsible_id: fc.oneof(pick(pools.userIds.map(Number)), fc.constant(null)),
  due_on: fc.oneof({ weight: 3, arbitrary: dayHint }, { weight: 1, arbitrary: fc.constant(null) }),
});
const registerQuery = {
  schema: resolutionListQuerySchema,
  hints: (pools: Pools): Hints => ({
    committee_id: pick(pools.motionCommitteeIds),
    term_id: pick(pools.termIds),
    year: fc.oneof(fc.integer({ min: 1890, max: 2210 }), pick(['2026', '1e3', '-1', '20261'])),
  }),
};

const CSV_HEADERS = [
  'Anrede;Vorname;Nachname;E-Mail;Funktion;von;bis;Wahlbezirk;Rang',
  'Vorname,Nachname,E-Mail,Funktion,Rang',
  'vorname;NACHNAME;email;funktion',
  '"Vor;name";Nachname;E-Mail',
  'Name;Mail',
  '',
];
const csvCell = fc.oneof(
  {
    weight: 4,
    arbitrary: pick([
      'Frau',
      'Herr',
      'Ina',
      'Muster',
      'ina@example.org',
      'Mitglied',
      'Ersatzmitglied',
      'stellv. Vorsitz',
      '01.02.2026',
      '2026-13-01',
      '3',
      'Nord',
      '',
    ]),
  },
  { weight: 2, arbitrary: hostileString },
  {
    weight: 1,
    arbitrary: pick(['"', '""', '"a;b"', '"offen', '=SUMME(A1)', '+1', '@x', '\r', '\r\n', ';;;;', '\uFEFF']),
  },
);
const csvText = fc
  .tuple(
    pick(CSV_HEADERS),
    fc.array(
      fc.array(csvCell, { maxLength: 10 }).map((cells) => cells.join(';')),
      { maxLength: 6 },
    ),
    pick(['\n', '\r\n', '\r']),
  )
  .map(([header, rows, end]) => [header, ...rows].join(end));
/** The members' CSV file, spoilt: cells, quotes, line ends, encodings, size, content types. */
const csvPayload = (): fc.Arbitrary<Payload> =>
  fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .tuple(
          csvText,
          pick(['text/csv', 'text/csv; charset=utf-8', 'application/vnd.ms-excel', 'text/plain']),
        )
        .map(([body, contentType]): Payload => ({ kind: 'raw', body, contentType })),
    },
    {
      weight: 1,
      arbitrary: csvText.map((text): Payload => ({
        kind: 'raw',
        body: Buffer.from(`\uFEFF${text}`, 'latin1'),
        contentType: 'application/octet-stream',
      })),
    },
    {
      weight: 1,
      arbitrary: pick<Payload>([
        { kind: 'raw', body: Buffer.alloc(5 * 1024 * 1024 + 1, 0x41), contentType: 'text/csv' },
        {
          kind: 'raw',
          body: `Vorname;Nachname;E-Mail;Funktion\n${'Ina;Muster;x@example.org;Mitglied\n'.repeat(10_001)}`,
          contentType: 'text/csv',
        },
        { kind: 'raw', body: '"nie geschlossen\nVorname;Nachname', contentType: 'text/csv' },
        { kind: 'raw', body: '', contentType: 'text/csv' },
        { kind: 'raw', body: 'Vorname;Nachname;E-Mail;Funktion', contentType: 'text/csv' },
      ]),
    },
  );

/** A file with one new person per line (Windows line ends, as Excel writes them). */
const membersCsv = (count = 1) =>
  [
    'Anrede;Vorname;Nachname;E-Mail;Funktion;von;bis;Wahlbezirk;Rang',
    ...Array.from({ length: count }, (_, i) => {
      const n = (serial += 1);
      return `Frau;Ina;Import ${n};import${n}-${Date.now()}@example.org;${i === 0 ? 'Ersatzmitglied' : 'Mitglied'};01.03.2026;;Nord;${i === 0 ? '1' : ''}`;
    }),
  ].join('\r\n');

/**
 * A route that asks for the password again (decision 147): a wrong one is logged like a failed
 * sign-in, and too many end the session and mail the member.
 */
const PASSWORD_RECHECK: Pick<Spec, 'mayChange' | 'freshSession'> = {
  mayChange: ['audit_log', 'sessions', 'outbox'],
  freshSession: true,
};

const ENTRIES: Record<string, Spec> = {
  'GET /api/v1/health': { principal: 'anonymous', weight: 0.2, valid: () => ({}) },
  'GET /api/v1/legal-links': { principal: 'anonymous', weight: 0.2, valid: () => ({}) },
  'POST /api/v1/auth/login': {
    principal: 'anonymous',
    mayChange: ['audit_log', 'sessions'],
    body: { schema: loginBodySchema, hints: emailHints },
    valid: ({ actor }) => ({ payload: { email: actor.email, password: TEST_PASSWORD } }),
  },
  'POST /api/v1/auth/forgot-password': {
    principal: 'anonymous',
    body: { schema: forgotPasswordBodySchema, hints: emailHints },
    valid: ({ actor }) => ({ payload: { email: actor.email } }),
  },
  'POST /api/v1/auth/password-reset': {
    principal: 'anonymous',
    body: {
      schema: passwordResetBodySchema,
      hints: (pools) => ({ id: fc.oneof(pick(pools.userIds.map(Number)), fc.integer()) }),
    },
    async valid({ t }) {
      const user = await createUser(t, { roles: ['Vertreter'] });
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/forgot-password',
        payload: { email: user.email },
      });
      const mail = (await t.flushMail()).findLast((m) => m.to.includes(user.email))!;
      const link = new URL(/https?:\/\/\S+reset-password\S+/.exec(mail.text)![0]);
      return {
        payload: {
          id: Number(link.searchParams.get('id')),
          token: link.searchParams.get('token'),
          password: 'Ganz-Neues-Kennwort-8',
          password_confirmation: 'Ganz-Neues-Kennwort-8',
        },
      };
    },
  },
  'POST /api/v1/auth/logout': { freshSession: true, weight: 0.3, valid: () => ({}) },
  'POST /api/v1/auth/register': {
    body: { schema: createUserBodySchema, hints: (p) => ({ ...roleHints(p), ...emailHints(p) }) },
    valid: () => ({
      payload: {
        title: 'Frau',
        firstname: 'Regina',
        lastname: 'Register',
        email: uniqueEmail(),
        roles: ['Vertreter'],
      },
    }),
  },
  'GET /api/v1/account': { weight: 0.2, valid: () => ({}) },
  'POST /api/v1/auth/two-factor': {
    principal: 'anonymous',
    // A wrong code writes nothing but, on the fifth, the member's warning mail.
    mayChange: ['outbox'],
    body: { schema: twoFactorBodySchema },
    async valid({ t }) {
      const user = await createTotpUser(t, { roles: ['Vertreter'] });
      const challenge = await challengeOf(t, user);
      return { payload: { challenge, code: await freshCode(t, user.secret) } };
    },
  },
  'POST /api/v1/auth/two-factor/webauthn/options': {
    principal: 'anonymous',
    body: { schema: webauthnLoginOptionsBodySchema },
    async valid({ t }) {
      return {
        payload: { challenge: await challengeOf(t, await createPasskeyUser(t, { roles: ['Vertreter'] })) },
      };
    },
  },
  'POST /api/v1/auth/two-factor/webauthn/verify': {
    principal: 'anonymous',
    mayChange: ['outbox'],
    body: { schema: webauthnLoginBodySchema },
    async valid({ t }) {
      const user = await createPasskeyUser(t, { roles: ['Vertreter'] });
      const challenge = await challengeOf(t, user);
      return { payload: { challenge, response: user.device.assert(await passkeyPromptOf(t, challenge)) } };
    },
  },
  'POST /api/v1/account/two-factor/webauthn/registration-options': {
    ...PASSWORD_RECHECK,
    body: { schema: passkeyOptionsBodySchema },
    valid: () => ({ payload: { current_password: TEST_PASSWORD } }),
  },
  'POST /api/v1/account/two-factor/webauthn/registration': {
    // A refused answer spends the prompt it answered.
    mayChange: ['login_challenges'],
    body: { schema: passkeyRegistrationBodySchema },
    async valid({ t }) {
      const user = await createUser(t, { roles: ['Vertreter'] });
      const options = await t.app.inject({
        method: 'POST',
        url: '/api/v1/account/two-factor/webauthn/registration-options',
        headers: user.headers,
        payload: { current_password: TEST_PASSWORD },
      });
      const device = new SoftAuthenticator(t.config.PUBLIC_URL);
      return {
        headers: user.headers,
        payload: { name: 'Laptop', response: device.register(options.json()) },
      };
    },
  },
  'DELETE /api/v1/account/two-factor/webauthn/:id': {
    params: () => ({ id: ['1', '2', '999999'] }),
    async valid({ t }) {
      const user = await createPasskeyUser(t, { roles: ['Vertreter'] });
      const second = await addPasskey(t, user, user.device, 'Zweiter');
      return { headers: user.headers, url: `/api/v1/account/two-factor/webauthn/${second.passkey.id}` };
    },
  },
  'POST /api/v1/account/two-factor/webauthn/confirm-options': {
    weight: 0.3,
    async valid({ t }) {
      return { headers: (await createPasskeyUser(t, { roles: ['Vertreter'] })).headers };
    },
  },
  'POST /api/v1/account/two-factor/totp': { weight: 0.3, valid: () => ({}) },
  'POST /api/v1/account/two-factor/totp/confirm': {
    ...PASSWORD_RECHECK,
    body: { schema: totpConfirmBodySchema },
    async valid({ t }) {
      const user = await createUser(t, { roles: ['Vertreter'] });
      const setup = await t.app.inject({
        method: 'POST',
        url: '/api/v1/account/two-factor/totp',
        headers: user.headers,
      });
      return {
        headers: user.headers,
        payload: { code: await freshCode(t, setup.json().secret), current_password: TEST_PASSWORD },
      };
    },
  },
  'POST /api/v1/account/two-factor/recovery-codes': {
    weight: 0.3,
    async valid({ t }) {
      return { headers: (await createTotpUser(t, { roles: ['Vertreter'] })).headers };
    },
  },
  'DELETE /api/v1/account/two-factor/trusted-devices/:id': {
    params: () => ({ id: ['1', '2', '999999'] }),
    async valid({ t }) {
      const user = await createTotpUser(t, { roles: ['Vertreter'] });
      const challenge = await challengeOf(t, user);
      const done = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/two-factor',
        payload: { challenge, code: await freshCode(t, user.secret), trust_device: true },
      });
      const headers = { authorization: `Bearer ${done.json().access_token}` };
      const account = await t.app.inject({ method: 'GET', url: '/api/v1/account', headers });
      const id = account.json().data.two_factor.trusted_devices[0].id as number;
      return { headers, url: `/api/v1/account/two-factor/trusted-devices/${id}` };
    },
  },
  'DELETE /api/v1/account/two-factor': {
    ...PASSWORD_RECHECK,
    body: { schema: disableTwoFactorBodySchema },
    async valid({ t }) {
      const user = await createTotpUser(t, { roles: ['Vertreter'] });
      return {
        headers: user.headers,
        payload: { password: TEST_PASSWORD, code: await freshCode(t, user.secret) },
      };
    },
  },
  'PUT /api/v1/account': {
    ...PASSWORD_RECHECK,
    body: { schema: updateAccountBodySchema, hints: emailHints },
    valid: () => ({ payload: { firstname: 'Feindlich', lastname: 'Getestet' } }),
  },
  'GET /api/v1/roles': { weight: 0.2, valid: () => ({}) },
  'GET /api/v1/settings': { weight: 0.2, valid: () => ({}) },
  'GET /api/v1/user': { weight: 0.2, valid: () => ({}) },
  'POST /api/v1/user': {
    body: { schema: createUserBodySchema, hints: (p) => ({ ...roleHints(p), ...emailHints(p) }) },
    valid: () => ({
      payload: { title: 'Herr', firstname: 'Norbert', lastname: 'Neu', email: uniqueEmail(), roles: [4] },
    }),
  },
  'GET /api/v1/user/:id': {
    params: (p) => ({ id: p.userIds }),
    weight: 0.5,
    valid: ({ pools }) => ({ url: `/api/v1/user/${pools.userIds[0]}` }),
  },
  'PUT /api/v1/user/:id': {
    params: (p) => ({ id: p.userIds }),
    body: { schema: updateUserBodySchema, hints: (p) => ({ ...roleHints(p), ...emailHints(p) }) },
    valid: async ({ fresh }) => ({
      url: `/api/v1/user/${await fresh.user()}`,
      payload: {
        title: 'Frau',
        firstname: 'Geändert',
        lastname: 'Nachname',
        email: uniqueEmail(),
        roles: ['Vertreter'],
      },
    }),
  },
  'DELETE /api/v1/user/:id': {
    params: (p) => ({ id: p.spareUserIds }),
    valid: async ({ fresh }) => ({ url: `/api/v1/user/${await fresh.user()}` }),
  },
  'DELETE /api/v1/user/:id/two-factor': {
    params: (p) => ({ id: p.userIds }),
    body: { schema: resetTwoFactorBodySchema },
    // Ends the member's sessions and mails them; a refused call does neither. The acting admin
    // confirms with their own second factor (decision 146).
    async valid({ t }) {
      const user = await createTotpUser(t, { roles: ['Vertreter'] });
      const admin = await createTotpUser(t, { roles: ['Super-Admin'] });
      return {
        headers: admin.headers,
        url: `/api/v1/user/${user.id}/two-factor`,
        payload: { code: await freshCode(t, admin.secret) },
      };
    },
  },
  'POST /api/v1/user/:id/invitation': {
    params: (p) => ({ id: p.userIds }),
    valid: async ({ fresh }) => ({ url: `/api/v1/user/${await fresh.user()}/invitation` }),
  },
  'GET /api/v1/folders': { weight: 0.2, valid: () => ({}) },
  'POST /api/v1/folders': {
    body: { schema: createFolderBodySchema, hints: (p) => ({ ...roleHints(p), ...folderHints(p) }) },
    valid: ({ pools }) => ({
      payload: { folder_id: Number(pools.folderIds[4]), title: `Neu ${(serial += 1)}` },
    }),
  },
  'GET /api/v1/folders/:id': {
    params: (p) => ({ id: p.folderIds }),
    weight: 0.5,
    valid: () => ({ url: '/api/v1/folders/1' }),
  },
  'PUT /api/v1/folders/:id': {
    params: (p) => ({ id: p.folderIds }),
    body: { schema: updateFolderBodySchema, hints: (p) => ({ ...roleHints(p), ...folderHints(p) }) },
    valid: async ({ fresh }) => ({
      url: `/api/v1/folders/${await fresh.folder()}`,
      payload: { title: `Umbenannt ${(serial += 1)}` },
    }),
  },
  'DELETE /api/v1/folders/:id': {
    params: (p) => ({ id: p.spareFolderIds }),
    valid: async ({ fresh }) => ({ url: `/api/v1/folders/${await fresh.folder()}` }),
  },
  'GET /api/v1/folders/:id/files': {
    params: (p) => ({ id: p.folderIds }),
    weight: 0.5,
    valid: ({ pools }) => ({ url: `/api/v1/folders/${pools.folderIds[4]}/files` }),
  },
  'GET /api/v1/root/files': { weight: 0.2, valid: () => ({}) },
  'GET /api/v1/tree': { weight: 0.2, valid: () => ({}) },
  'GET /api/v1/breadcrumbs/:id': {
    params: (p) => ({ id: p.folderIds }),
    weight: 0.5,
    valid: ({ pools }) => ({ url: `/api/v1/breadcrumbs/${pools.folderIds[4]}` }),
  },
  'GET /api/v1/file-breadcrumbs': { weight: 0.2, valid: () => ({}) },
  'POST /api/v1/period': {
    body: { schema: periodBodySchema, hints: folderHints },
    valid: ({ pools }) => ({ payload: { folder_id: Number(pools.folderIds[4]), start: 2026, end: 2027 } }),
  },
  'GET /api/v1/files': {
    query: { schema: fileListQuerySchema },
    weight: 0.5,
    valid: () => ({ url: '/api/v1/files?limit=3' }),
  },
  'POST /api/v1/files': {
    body: { schema: createFileBodySchema, hints: fileHints, upload: 'files' },
    valid: ({ pools }) => ({
      payload: {
        title: 'Gültige Datei',
        file: dataUrl(pdfBytes('gültig')),
        permissions: ['Vertreter'],
        folder_id: Number(pools.folderIds[4]),
      },
    }),
  },
  'POST /api/v1/files/batches/:batch_id/complete': {
    params: (p) => ({ batch_id: p.batchIds }),
    weight: 0.5,
    async valid({ pools, actor, t }) {
      const batchId = randomUUID();
      await uploadInBatch(t, actor, pools, batchId);
      return { url: `/api/v1/files/batches/${batchId}/complete` };
    },
  },
  'GET /api/v1/files/:id': {
    params: (p) => ({ id: p.fileIds }),
    weight: 0.5,
    valid: ({ pools }) => ({ url: `/api/v1/files/${pools.fileIds[0]}` }),
  },
  'PUT /api/v1/files/:id': {
    params: (p) => ({ id: p.fileIds }),
    body: { schema: updateFileBodySchema, hints: fileHints, upload: 'files' },
    valid: async ({ fresh }) => ({
      url: `/api/v1/files/${(await fresh.file()).id}`,
      payload: { title: 'Neuer Titel', file: dataUrl(pdfBytes('ersetzt')) },
    }),
  },
  'DELETE /api/v1/files/:id': {
    params: (p) => ({ id: p.spareFileIds }),
    valid: async ({ fresh }) => ({ url: `/api/v1/files/${(await fresh.file()).id}` }),
  },
  'GET /api/v1/download/:key': {
    params: (p) => ({ key: p.fileKeys }),
    weight: 0.5,
    valid: async ({ fresh }) => ({ url: `/api/v1/download/${(await fresh.file()).key}` }),
  },
  'GET /api/v1/events': { weight: 0.2, valid: () => ({}) },
  'GET /api/v1/search': {
    query: { schema: searchQuerySchema },
    valid: () => ({
      url: '/api/v1/search?q=Bericht%20%22M%C3%A4rz%202026%22&type=file&sort=date&from=2020-01-01&per_page=5',
    }),
  },
  'GET /api/v1/search/suggest': {
    query: { schema: suggestQuerySchema },
    valid: () => ({ url: '/api/v1/search/suggest?q=Pro' }),
  },
  'POST /api/v1/events': {
    body: { schema: createEventBodySchema, hints: eventHints, upload: 'events' },
    valid: () => ({
      payload: {
        title: 'Gültiges Event',
        roles: ['Vertreter'],
        start: '2031-05-01T10:00',
        end: '2031-05-01T12:00',
        location: 'Saal',
        description: 'Beschreibung',
        data: dataUrl(pdfBytes('Einladung')),
      },
    }),
  },
  'GET /api/v1/events/:id': {
    params: (p) => ({ id: p.eventIds }),
    weight: 0.5,
    valid: async ({ fresh }) => ({ url: `/api/v1/events/${(await fresh.event()).id}` }),
  },
  'GET /api/v1/events/:id/ics': {
    params: (p) => ({ id: p.eventIds }),
    weight: 0.5,
    valid: async ({ fresh }) => ({ url: `/api/v1/events/${(await fresh.event()).id}/ics` }),
  },
  'PUT /api/v1/events/:id': {
    params: (p) => ({ id: p.eventIds }),
    body: { schema: updateEventBodySchema, hints: eventHints, upload: 'events' },
    valid: async ({ fresh }) => ({
      url: `/api/v1/events/${(await fresh.event()).id}`,
      payload: {
        title: 'Geändertes Event',
        start: '2031-05-02T10:00',
        end: '2031-05-02T12:00',
        location: 'Saal 2',
        description: 'Neue Beschreibung',
      },
    }),
  },
  'DELETE /api/v1/events/:id': {
    params: (p) => ({ id: p.spareEventIds }),
    valid: async ({ fresh }) => ({ url: `/api/v1/events/${(await fresh.event()).id}` }),
  },
  'GET /api/v1/info/:key': {
    params: (p) => ({ key: p.eventKeys }),
    weight: 0.5,
    // Updates replace the information file and its key: a new event for the valid call.
    valid: async ({ fresh }) => ({ url: `/api/v1/info/${(await fresh.event()).key}` }),
  },
  // Agenda (decision 130): documents mostly real, some unknown or in the Papierkorb.
  'GET /api/v1/events/:id/agenda': {
    params: (p) => ({ id: p.eventIds }),
    weight: 0.5,
    valid: async ({ fresh }) => ({ url: `/api/v1/events/${(await fresh.event()).id}/agenda` }),
  },
  'PUT /api/v1/events/:id/agenda': {
    params: (p) => ({ id: p.eventIds }),
    body: { schema: putAgendaBodySchema, hints: agendaHints },
    // Fresh objects: an earlier route's cases may have deleted the pools' first ones.
    valid: async ({ fresh }) => ({
      url: `/api/v1/events/${(await fresh.event()).id}/agenda`,
      payload: {
        items: [
          {
            title: 'Begrüßung',
            file_ids: [Number((await fresh.file()).id)],
            children: [
              { title: 'Bericht', presenter: 'Vorstand', file_ids: [Number((await fresh.file()).id)] },
            ],
          },
          { title: 'Verschiedenes', description: 'Fragen' },
        ],
      },
    }),
  },
  'GET /api/v1/events/:id/agenda/publish': {
    params: (p) => ({ id: p.eventIds }),
    valid: async ({ fresh }) => ({ url: `/api/v1/events/${(await fresh.event()).id}/agenda/publish` }),
  },
  'POST /api/v1/events/:id/agenda/publish': {
    params: (p) => ({ id: p.eventIds }),
    // Publishing needs an agenda: the valid call gets a fresh event with one item.
    valid: async ({ t, actor, fresh }) => {
      const { id } = await fresh.event();
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/events/${id}/agenda`,
        headers: actor.headers,
        payload: { items: [{ title: 'Begrüßung' }] },
      });
      expect(res.statusCode, res.body).toBe(200);
      return { url: `/api/v1/events/${id}/agenda/publish` };
    },
  },
  'POST /api/v1/events/:id/agenda/check': {
    params: (p) => ({ id: p.eventIds }),
    body: { schema: agendaCheckBodySchema, hints: agendaHints },
    valid: async ({ fresh }) => ({
      url: `/api/v1/events/${(await fresh.event()).id}/agenda/check`,
      payload: { file_ids: [Number((await fresh.file()).id), Number((await fresh.file()).id)] },
    }),
  },
  // --- attendance and Protokoll (decision 130) --------------------------------------------------------
  'PUT /api/v1/events/:id/attendance': {
    params: (p) => ({ id: p.eventIds }),
    body: { schema: putAttendanceBodySchema },
    valid: async ({ fresh }) => ({
      url: `/api/v1/events/${(await fresh.event()).id}/attendance`,
      payload: { status: 'zugesagt', comment: 'Ich komme gern.' },
    }),
  },
  'GET /api/v1/events/:id/attendance': {
    params: (p) => ({ id: p.eventIds }),
    weight: 0.5,
    valid: async ({ fresh }) => ({ url: `/api/v1/events/${(await fresh.event()).id}/attendance` }),
  },
  'GET /api/v1/events/:id/attendance.csv': {
    params: (p) => ({ id: p.eventIds }),
    weight: 0.5,
    valid: async ({ fresh }) => ({ url: `/api/v1/events/${(await fresh.event()).id}/attendance.csv` }),
  },
  // A refusal (409 within the hour) sends and changes nothing.
  'POST /api/v1/events/:id/attendance/reminder': {
    params: (p) => ({ id: p.eventIds }),
    valid: async ({ fresh }) => ({ url: `/api/v1/events/${(await fresh.event()).id}/attendance/reminder` }),
  },
  'POST /api/v1/events/:id/minutes': {
    params: (p) => ({ id: p.eventIds }),
    body: {
      schema: minutesUploadBodySchema,
      hints: () => ({ data: dataUrlValue, file: dataUrlValue }),
      upload: 'files',
    },
    valid: async ({ fresh }) => ({
      url: `/api/v1/events/${(await fresh.event()).id}/minutes`,
      payload: { data: dataUrl(pdfBytes('Protokoll der Sitzung')), confirm_future: true },
    }),
  },
  'DELETE /api/v1/events/:id/minutes': {
    params: (p) => ({ id: p.spareEventIds }),
    valid: async (env) => ({ url: `/api/v1/events/${(await eventWithMinutes(env)).id}/minutes` }),
  },
  'GET /api/v1/minutes/:key': {
    params: (p) => ({ key: p.minutesKeys }),
    weight: 0.5,
    valid: async (env) => ({ url: `/api/v1/minutes/${(await eventWithMinutes(env)).key}` }),
  },
  // --- Neu für Sie and Kenntnisnahme (decision 131) -------------------------------------------------
  'GET /api/v1/news': { weight: 0.3, valid: () => ({}) },
  'POST /api/v1/news/read': {
    body: { schema: markReadBodySchema, hints: (p) => ({ folder_id: pick(p.folderIds.map(Number)) }) },
    valid: ({ pools }) => ({ payload: { folder_id: Number(pools.folderIds[0]) } }),
  },
  // Confirming needs a document that asks for it and a delivery of its content first.
  'POST /api/v1/files/:id/acknowledgement': {
    params: (p) => ({ id: p.fileIds }),
    async valid({ t, actor, fresh }) {
      const file = await fresh.file();
      await askForAcknowledgement(t, actor, file.id);
      await t.app.inject({ method: 'GET', url: `/api/v1/download/${file.key}`, headers: actor.headers });
      return { url: `/api/v1/files/${file.id}/acknowledgement` };
    },
  },
  'GET /api/v1/files/:id/acknowledgements': {
    params: (p) => ({ id: p.fileIds }),
    weight: 0.5,
    valid: async ({ fresh }) => ({ url: `/api/v1/files/${(await fresh.file()).id}/acknowledgements` }),
  },
  'GET /api/v1/files/:id/acknowledgements.csv': {
    params: (p) => ({ id: p.fileIds }),
    weight: 0.5,
    valid: async ({ fresh }) => ({ url: `/api/v1/files/${(await fresh.file()).id}/acknowledgements.csv` }),
  },
  // A refusal (409: no Kenntnisnahme asked, or within the day) sends and changes nothing.
  'POST /api/v1/files/:id/acknowledgements/reminder': {
    params: (p) => ({ id: p.fileIds }),
    async valid({ t, actor, fresh }) {
      const file = await fresh.file();
      await askForAcknowledgement(t, actor, file.id);
      return { url: `/api/v1/files/${file.id}/acknowledgements/reminder` };
    },
  },
  // The calendar feed (decision 130): a new token replaces the old; unknown and malformed ones are 404.
  'GET /api/v1/account/calendar-feed': { weight: 0.2, valid: () => ({}) },
  'POST /api/v1/account/calendar-feed': { weight: 0.3, valid: () => ({}) },
  'DELETE /api/v1/account/calendar-feed': { weight: 0.3, valid: () => ({}) },
  'GET /api/v1/calendar/:token.ics': {
    principal: 'anonymous',
    params: () => ({ token: ['A'.repeat(43), 'B'.repeat(32), 'C'.repeat(64), 'kurz', 'x.y'] }),
    async valid({ t, actor }) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/account/calendar-feed',
        headers: actor.headers,
      });
      return { url: new URL(res.json().data.url as string).pathname };
    },
  },
  // The Sitzungsmappe: hostile ids only (the events have no agenda, so a valid call is a short book).
  'GET /api/v1/events/:id/book.pdf': {
    params: (p) => ({ id: p.eventIds }),
    weight: 0.5,
    valid: async ({ fresh }) => ({ url: `/api/v1/events/${(await fresh.event()).id}/book.pdf` }),
  },
  'GET /api/v1/audit': {
    query: { schema: auditListQuerySchema },
    valid: () => ({ url: '/api/v1/audit?page=1&per_page=5&action=auth.login,file.created&from=2020-01-01' }),
  },
  'GET /api/v1/audit.csv': {
    query: { schema: auditExportQuerySchema },
    valid: () => ({ url: '/api/v1/audit.csv?object_type=file&to=2040-01-01T00:00:00Z' }),
  },
  'GET /api/v1/audit/object/:type/:id': {
    params: (p) => ({ type: ['file', 'event'], id: [...p.fileIds, ...p.eventIds] }),
    query: { schema: pageQuerySchema },
    valid: ({ pools }) => ({ url: `/api/v1/audit/object/file/${pools.fileIds[0]}?page=1` }),
  },
  'GET /api/v1/audit/visible-to/:type/:id': {
    params: (p) => ({ type: ['file', 'folder', 'event'], id: [...p.fileIds, ...p.folderIds] }),
    valid: ({ pools }) => ({ url: `/api/v1/audit/visible-to/folder/${pools.folderIds[4]}` }),
  },
  'GET /api/v1/audit/my-logins': { weight: 0.2, valid: () => ({}) },

  // --- versions and Papierkorb (decision 125) ---------------------------------------------------------
  'GET /api/v1/files/:id/versions': {
    params: (p) => ({ id: p.versionedFileIds }),
    weight: 0.5,
    valid: ({ pools }) => ({ url: `/api/v1/files/${pools.versionedFileIds[0]}/versions` }),
  },
  'GET /api/v1/files/:id/versions/:version/download': {
    params: (p) => ({ id: p.versionedFileIds, version: p.versions }),
    query: { schema: downloadQuerySchema },
    weight: 0.5,
    valid: ({ pools }) => ({
      url: `/api/v1/files/${pools.versionedFileIds[0]}/versions/1/download?purpose=view`,
    }),
  },
  'POST /api/v1/files/:id/versions/:version/restore': {
    params: (p) => ({ id: p.versionedFileIds, version: p.versions }),
    async valid({ t, actor, fresh }) {
      const { id } = await fresh.file();
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/files/${id}`,
        headers: actor.headers,
        payload: { file: dataUrl(pdfBytes('zweite Fassung')) },
      });
      expect(res.statusCode, res.body).toBe(200);
      return { url: `/api/v1/files/${id}/versions/1/restore` };
    },
  },
  'GET /api/v1/trash': {
    query: {
      schema: trashListQuerySchema,
      hints: (p) => ({
        deleted_by: fc.oneof(pick([...p.userIds, '']), fc.integer().map(String)),
        type: fc.oneof(pick(['file', 'folder', 'event', '']), hostileString),
      }),
    },
    valid: () => ({ url: '/api/v1/trash?type=file&page=1&per_page=5&from=2020-01-01&to=2040-01-01' }),
  },
  'POST /api/v1/trash/:type/:id/restore': {
    params: (p) => ({ type: ['file', 'folder', 'event'], id: p.trashIds }),
    body: { schema: trashRestoreBodySchema, hints: folderHints },
    valid: async ({ fresh }) => ({ url: `/api/v1/trash/folder/${await fresh.trashed('folder')}/restore` }),
  },
  'DELETE /api/v1/trash/:type/:id': {
    params: (p) => ({ type: ['file', 'folder', 'event'], id: p.trashIds }),
    valid: async ({ fresh }) => ({ url: `/api/v1/trash/event/${await fresh.trashed('event')}` }),
  },
  // Last: it empties the Papierkorb the two routes above draw their ids from.
  'DELETE /api/v1/trash': {
    weight: 0.3,
    valid: async ({ fresh }) => {
      await fresh.trashed('file');
      return {};
    },
  },
  // --- Benachrichtigungen (decision 131) --------------------------------------------------------------
  'GET /api/v1/account/notifications': { weight: 0.2, valid: () => ({}) },
  'PUT /api/v1/account/notifications': {
    body: { schema: putNotificationSettingsBodySchema },
    valid: () => ({ payload: { files: 'woechentlich', events: 'taeglich' } }),
  },
  // --- Gremien, Amtsperioden, Mitgliedschaften (decision 189) -------------------------------------
  'GET /api/v1/committees': { weight: 0.2, valid: () => ({}) },
  'POST /api/v1/committees': {
    body: { schema: createCommitteeBodySchema, hints: committeeHints },
    valid: () => ({
      payload: {
        name: `Gremium ${(serial += 1)}`,
        kind: 'ausschuss',
        rules: { quorum: 'two_thirds', minutes_signers: ['vorsitz'], notice_days: 21 },
      },
    }),
  },
  'GET /api/v1/committees/:id': {
    params: (p) => ({ id: p.committeeIds }),
    weight: 0.5,
    valid: ({ pools }) => ({ url: `/api/v1/committees/${pools.committeeIds[0]}` }),
  },
  'PUT /api/v1/committees/:id': {
    params: (p) => ({ id: p.committeeIds }),
    body: { schema: updateCommitteeBodySchema, hints: committeeHints },
    valid: async ({ fresh }) => ({
      url: `/api/v1/committees/${await fresh.committee()}`,
      payload: {
        name: `Umbenannt ${(serial += 1)}`,
        kind: 'sonstiges',
        rules: { substitutes_see_papers: true },
      },
    }),
  },
  'DELETE /api/v1/committees/:id': {
    params: (p) => ({ id: p.spareCommitteeIds }),
    valid: async ({ fresh }) => ({ url: `/api/v1/committees/${await fresh.committee()}` }),
  },
  'GET /api/v1/committees/:id/terms': {
    params: (p) => ({ id: p.committeeIds }),
    weight: 0.5,
    valid: ({ pools }) => ({ url: `/api/v1/committees/${pools.committeeIds[0]}/terms` }),
  },
  'POST /api/v1/committees/:id/terms': {
    params: (p) => ({ id: p.committeeIds }),
    body: { schema: createTermBodySchema, hints: termHints },
    valid: async ({ fresh }) => ({
      url: `/api/v1/committees/${await fresh.committee()}/terms`,
      payload: { start: '2026-07-01', end: '2030-06-30' },
    }),
  },
  'PUT /api/v1/terms/:id': {
    params: (p) => ({ id: p.termIds }),
    body: { schema: updateTermBodySchema, hints: termHints },
    valid: async ({ fresh }) => ({
      url: `/api/v1/terms/${(await fresh.term()).id}`,
      payload: { start: '2026-01-01', end: '2031-12-31' },
    }),
  },
  'DELETE /api/v1/terms/:id': {
    params: (p) => ({ id: p.spareTermIds }),
    valid: async ({ fresh }) => ({ url: `/api/v1/terms/${(await fresh.term()).id}` }),
  },
  'GET /api/v1/committees/:id/members': {
    params: (p) => ({ id: p.committeeIds }),
    query: { schema: membersQuerySchema, hints: (p) => ({ term_id: pick(p.termIds) }) },
    weight: 0.5,
    valid: ({ pools }) => ({
      url: `/api/v1/committees/${pools.committeeIds[0]}/members?term_id=${pools.termIds[0]}`,
    }),
  },
  'POST /api/v1/committees/:id/members': {
    params: (p) => ({ id: p.committeeIds }),
    body: { schema: createMembershipBodySchema, hints: membershipHints },
    valid: async ({ fresh }) => {
      const term = await fresh.term();
      return {
        url: `/api/v1/committees/${term.committeeId}/members`,
        payload: {
          term_id: Number(term.id),
          user_id: Number(await fresh.user()),
          function: 'ersatzmitglied',
          rank: 1,
          district: 'Nord',
          from: '2026-03-01',
          until: '2029-12-31',
        },
      };
    },
  },
  'PUT /api/v1/memberships/:id': {
    params: (p) => ({ id: p.membershipIds }),
    body: { schema: updateMembershipBodySchema, hints: membershipHints },
    valid: async ({ fresh }) => ({
      url: `/api/v1/memberships/${(await fresh.membership()).id}`,
      payload: {
        function: 'mitglied',
        from: '2026-01-01',
        until: '2027-06-30',
        reason: 'ruecktritt',
        district: 'Süd',
      },
    }),
  },
  'DELETE /api/v1/memberships/:id': {
    params: (p) => ({ id: p.spareMembershipIds }),
    valid: async ({ fresh }) => ({ url: `/api/v1/memberships/${(await fresh.membership()).id}` }),
  },
  'POST /api/v1/memberships/:id/successor': {
    params: (p) => ({ id: p.membershipIds }),
    valid: async ({ fresh }) => ({
      url: `/api/v1/memberships/${(await fresh.membership({ successor: true })).id}/successor`,
    }),
  },
  // "Mitglieder importieren" (decision 189): the body is the CSV file itself.
  'POST /api/v1/committees/:id/members/import': {
    params: (p) => ({ id: p.committeeIds }),
    query: {
      schema: importQuerySchema,
      hints: (p) => ({ term_id: pick(p.termIds), dry_run: fc.oneof(pick(['true', 'false']), hostileString) }),
    },
    raw: csvPayload,
    valid: async ({ fresh }) => {
      const term = await fresh.term();
      return {
        url: `/api/v1/committees/${term.committeeId}/members/import?term_id=${term.id}&dry_run=false`,
        headers: { 'content-type': 'text/csv; charset=utf-8' },
        payload: membersCsv(2),
      };
    },
  },
  // --- Beschlüsse (decision 190) ------------------------------------------------------------------
  'GET /api/v1/motions': {
    query: {
      schema: motionListQuerySchema,
      hints: (p) => ({ committee_id: pick(p.motionCommitteeIds), event_id: pick(p.eventIds) }),
    },
    weight: 0.5,
    valid: ({ pools }) => ({ url: `/api/v1/motions?committee_id=${pools.motionCommitteeIds[0]}` }),
  },
  'POST /api/v1/motions': {
    body: { schema: createMotionBodySchema, hints: motionHints },
    // A fresh document: the pool's may be in the Papierkorb or purged by the routes before.
    valid: async ({ pools, fresh }) => ({
      payload: {
        committee_id: Number(pools.motionCommitteeIds[0]),
        title: `Vorlage ${(serial += 1)}`,
        text: 'Das Gremium beschließt die Vorlage.',
        justification: 'Weil es nötig ist.',
        mode: 'geheim',
        file_ids: [Number((await fresh.file()).id)],
        majority: 'two_thirds',
      },
    }),
  },
  'GET /api/v1/motions/:id': {
    params: (p) => ({ id: p.motionIds }),
    weight: 0.5,
    valid: ({ pools }) => ({ url: `/api/v1/motions/${pools.motionIds[1]}` }),
  },
  'PUT /api/v1/motions/:id': {
    params: (p) => ({ id: p.motionIds }),
    body: { schema: updateMotionBodySchema, hints: motionHints },
    valid: async ({ fresh }) => ({
      url: `/api/v1/motions/${await fresh.motion()}`,
      payload: {
        title: `Geändert ${(serial += 1)}`,
        event_id: Number((await fresh.event()).id),
        mode: 'namentlich',
        quorum: 'two_thirds',
      },
    }),
  },
  'DELETE /api/v1/motions/:id': {
    params: (p) => ({ id: p.spareMotionIds }),
    valid: async ({ fresh }) => ({ url: `/api/v1/motions/${await fresh.motion()}` }),
  },
  'POST /api/v1/motions/:id/open': {
    params: (p) => ({ id: p.motionIds }),
    body: { schema: openMotionBodySchema, hints: openHints },
    valid: async ({ fresh }) => ({
      url: `/api/v1/motions/${await fresh.motion()}/open`,
      payload: { procedure: 'umlauf', deadline: '2027-01-15T12:00:00+01:00' },
    }),
  },
  'POST /api/v1/motions/:id/votes': {
    principal: 'chair',
    params: (p) => ({ id: p.motionIds }),
    body: { schema: voteBodySchema },
    valid: async ({ fresh }) => ({
      url: `/api/v1/motions/${await fresh.motion('abstimmung')}/votes`,
      payload: { choice: 'enthaltung' },
    }),
  },
  'POST /api/v1/motions/:id/objection': {
    principal: 'chair',
    params: (p) => ({ id: p.motionIds }),
    body: { schema: objectionBodySchema },
    valid: async ({ fresh }) => ({
      url: `/api/v1/motions/${await fresh.motion('umlauf')}/objection`,
      payload: { reason: 'Bitte in der Sitzung beraten.' },
    }),
  },
  'POST /api/v1/motions/:id/conflict': {
    params: (p) => ({ id: p.motionIds }),
    body: { schema: conflictBodySchema, hints: conflictHints },
    valid: async ({ fresh, chair }) => ({
      url: `/api/v1/motions/${await fresh.motion('abstimmung')}/conflict`,
      payload: { user_id: chair.id },
    }),
  },
  'POST /api/v1/motions/:id/hand-count': {
    params: (p) => ({ id: p.motionIds }),
    body: { schema: handCountBodySchema },
    valid: async ({ fresh }) => ({
      url: `/api/v1/motions/${await fresh.motion('abstimmung')}/hand-count`,
      payload: { ja: 1, nein: 0, enthaltung: 0 },
    }),
  },
  'POST /api/v1/motions/:id/close': {
    params: (p) => ({ id: p.motionIds }),
    valid: async ({ fresh }) => ({ url: `/api/v1/motions/${await fresh.motion('abstimmung')}/close` }),
  },
  'POST /api/v1/motions/:id/withdraw': {
    params: (p) => ({ id: p.motionIds }),
    valid: async ({ fresh }) => ({ url: `/api/v1/motions/${await fresh.motion('abstimmung')}/withdraw` }),
  },
  'POST /api/v1/motions/:id/reminders': {
    params: (p) => ({ id: p.motionIds }),
    valid: async ({ fresh }) => ({ url: `/api/v1/motions/${await fresh.motion('umlauf')}/reminders` }),
  },
  // Wrong codes count toward the second factor's lock, which mails the Vorsitz (decision 126).
  'POST /api/v1/motions/:id/establish': {
    principal: 'chair',
    mayChange: ['outbox'],
    params: (p) => ({ id: p.motionIds }),
    body: { schema: establishBodySchema },
    valid: async ({ fresh, chairCode }) => ({
      url: `/api/v1/motions/${await fresh.motion('geschlossen')}/establish`,
      payload: { code: await chairCode() },
    }),
  },
  'GET /api/v1/resolutions': {
    query: registerQuery,
    weight: 0.5,
    valid: ({ pools }) => ({
      url: `/api/v1/resolutions?committee_id=${pools.motionCommitteeIds[0]}&year=2026&q=Vorlage&result=angenommen`,
    }),
  },
  'GET /api/v1/resolutions.csv': {
    query: registerQuery,
    weight: 0.5,
    valid: ({ pools }) => ({ url: `/api/v1/resolutions.csv?committee_id=${pools.motionCommitteeIds[0]}` }),
  },
  // The filter is printed on the cover: a query's text meets the PDF's fonts.
  'GET /api/v1/resolutions.pdf': {
    query: registerQuery,
    weight: 0.5,
    valid: ({ pools }) => ({
      url: `/api/v1/resolutions.pdf?committee_id=${pools.motionCommitteeIds[0]}&q=${encodeURIComponent('Grüße 😀 ẞ')}`,
    }),
  },
  'GET /api/v1/resolutions/:id': {
    params: (p) => ({ id: p.resolutionIds }),
    weight: 0.5,
    valid: ({ pools }) => ({ url: `/api/v1/resolutions/${pools.resolutionIds[0]}` }),
  },
  'PUT /api/v1/resolutions/:id/follow-up': {
    params: (p) => ({ id: p.resolutionIds }),
    body: { schema: followUpBodySchema, hints: followUpHints },
    valid: ({ pools }) => ({
      url: `/api/v1/resolutions/${pools.resolutionIds[0]}/follow-up`,
      payload: {
        responsible_id: Number(pools.userIds[0]),
        due_on: '2027-01-31',
        status: 'offen',
        note: 'Die Geschäftsstelle kümmert sich.',
      },
    }),
  },
  'POST /api/v1/resolutions/:id/correction': {
    principal: 'chair',
    params: (p) => ({ id: p.resolutionIds }),
    body: { schema: correctionBodySchema },
    valid: ({ pools }) => ({
      url: `/api/v1/resolutions/${pools.resolutionIds[0]}/correction`,
      payload: { text: 'Das Gremium beschließt die berichtigte Vorlage.', reason: 'Schreibfehler' },
    }),
  },
  'GET /api/v1/events/:id/agenda/circular-announcement': {
    params: (p) => ({ id: p.eventIds }),
    weight: 0.5,
    valid: ({ pools }) => ({ url: `/api/v1/events/${pools.eventIds[0]}/agenda/circular-announcement` }),
  },
  // --- API-Schlüssel (decision 136); appended for the same reason ------------------------------------
  'GET /api/v1/api-keys': { weight: 0.2, valid: () => ({}) },
  'POST /api/v1/api-keys': {
    body: { schema: createApiKeyBodySchema },
    valid: () => ({ payload: { name: 'Mitgliederverwaltung', scopes: ['nutzer:lesen'], valid_days: 30 } }),
  },
  'DELETE /api/v1/api-keys/:id': {
    params: () => ({ id: ['1', '2', '999999'] }),
    async valid({ t }) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/api-keys',
        headers: (await createUser(t, { roles: ['Super-Admin'] })).headers,
        payload: { name: 'Zum Widerrufen', scopes: ['inhalte:lesen'] },
      });
      return { url: `/api/v1/api-keys/${res.json().data.id as number}` };
    },
  },
};

// ---------------------------------------------------------------------------------------------
// Building requests

const JUNK_QUERIES = [
  '%',
  'a=%E0%A4%A',
  'limit=1&limit=2',
  'limit[]=1',
  '__proto__[isAdmin]=true',
  'constructor.prototype.isAdmin=true',
  `q=${'x'.repeat(5000)}`,
  'page=0&per_page=1000000',
  'limit=1e400',
  'limit=-1',
  'action=auth.login&action=%00',
  'from=2026-02-30&to=1900-01-01',
  '&&&==',
  `${'a=1&'.repeat(2000)}`,
];

/** Percent-encodes the UTF-8 bytes (a lone surrogate becomes U+FFFD, as a browser sends it). */
const encode = (text: string) =>
  [...Buffer.from(text, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');

function queryString(value: unknown): string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return `wert=${encode(JSON.stringify(value) ?? '')}`;
  }
  const parts: string[] = [];
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined) continue;
    for (const single of Array.isArray(item) ? item : [item]) {
      const text = typeof single === 'string' ? single : JSON.stringify(single);
      parts.push(`${encode(key)}=${encode(text ?? '')}`);
    }
  }
  return parts.join('&');
}

const fieldText = (value: unknown) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));

function multipartBody(payload: Extract<Payload, { kind: 'multipart' }>): {
  body: Buffer;
  contentType: string;
} {
  const boundary = `----feindlich${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  const field = (name: string, value: string, disposition = true) =>
    chunks.push(
      Buffer.from(
        `--${boundary}\r\n${disposition ? `Content-Disposition: form-data; name="${name}"\r\n` : ''}\r\n${value}\r\n`,
      ),
    );
  const file = (part: FilePart) =>
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.field}"; filename="${part.filename}"\r\n` +
          `Content-Type: ${part.contentType}\r\n\r\n`,
      ),
      Buffer.isBuffer(part.content) ? part.content : Buffer.from(part.content),
      Buffer.from('\r\n'),
    );
  if (payload.breakage === 'preamble') chunks.push(Buffer.from('Vorspann, der ignoriert wird\r\n'));
  for (const [name, value] of payload.fields) {
    if (value === undefined) continue;
    for (const single of Array.isArray(value) ? value : [value]) field(name, fieldText(single));
  }
  if (payload.breakage === 'noDisposition') field('x', 'ohne Content-Disposition', false);
  if (payload.breakage === 'bigField') field('title', 'T'.repeat(70 * 1024));
  if (payload.breakage === 'manyParts') for (let i = 0; i < 70; i += 1) field(`feld${i}`, String(i));
  if (payload.file) file(payload.file);
  if (payload.breakage === 'twoFiles' && payload.file) file({ ...payload.file, field: 'data' });
  if (payload.breakage !== 'noClose') chunks.push(Buffer.from(`--${boundary}--\r\n`));
  let body = Buffer.concat(chunks);
  if (payload.breakage === 'truncate') body = body.subarray(0, Math.floor(body.length * 0.6));
  const declared = payload.breakage === 'boundary' ? `${boundary}x` : boundary;
  return { body, contentType: `multipart/form-data; boundary=${declared}` };
}

const filePart = (field: string) =>
  fc.record({
    field: fc.constant(field),
    filename: fc.oneof(
      {
        weight: 3,
        arbitrary: pick([
          'bericht.pdf',
          'Protokoll 2026.PDF',
          '../../../../tmp/boese.html',
          '..\\..\\boese.svg',
          '/etc/passwd',
          'a\u0000b.pdf',
          'Grüße 😀.pdf',
          `${'x'.repeat(3000)}.pdf`,
          '',
          'ohne-endung',
          '.htaccess',
          'archiv.tar.gz',
          `datei.${'x'.repeat(20)}`,
          'seite.html',
          'bild.svg',
          "x'; DROP TABLE files; --.pdf",
        ]),
      },
      { weight: 1, arbitrary: hostileString.map((s) => s.replace(/["\r\n]/g, '')) },
    ),
    contentType: pick([
      'application/pdf',
      'text/html',
      'image/svg+xml',
      'application/octet-stream',
      'text/html; charset=utf-7',
      'x/y/z',
      'ungültig',
    ]),
    content: pick<string | Buffer>([pdfBytes('Teil'), HTML_WITH_SCRIPT, SVG_WITH_SCRIPT, '', TOO_LARGE]),
  });

const breakage = fc.oneof(
  { weight: 6, arbitrary: fc.constant<Breakage>('none') },
  {
    weight: 4,
    arbitrary: pick<Breakage>([
      'truncate',
      'boundary',
      'noClose',
      'twoFiles',
      'manyParts',
      'bigField',
      'noDisposition',
      'preamble',
    ]),
  },
);

function payloadArbitrary(spec: Spec, pools: Pools): fc.Arbitrary<Payload> {
  const junk: fc.Arbitrary<Payload> = fc.oneof(
    pick(RAW_JSON_BODIES).map((body): Payload => ({ kind: 'raw', body, contentType: 'application/json' })),
    fc
      .record({ value: hostileValue, contentType: pick(WRONG_CONTENT_TYPES) })
      .map(({ value, contentType }): Payload => ({
        kind: 'raw',
        body: JSON.stringify(value) ?? '',
        contentType,
      })),
    hostileValue.map((value): Payload => ({ kind: 'json', value })),
  );
  if (spec.raw) {
    return fc.oneof(
      { weight: 6, arbitrary: spec.raw(pools) },
      { weight: 2, arbitrary: junk },
      { weight: 1, arbitrary: fc.constant<Payload>({ kind: 'none' }) },
    );
  }
  if (!spec.body) {
    return fc.oneof(
      { weight: 3, arbitrary: fc.constant<Payload>({ kind: 'none' }) },
      { weight: 1, arbitrary: junk },
    );
  }
  const { schema, upload } = spec.body;
  const valid = arbitraryOf(schema, spec.body.hints?.(pools) ?? {});
  const json = fc
    .tuple(valid, bodyMutation)
    .map(([value, mutation]): Payload => ({ kind: 'json', value: applyMutation(value, mutation) }));
  const wrongType = fc.tuple(valid, pick(WRONG_CONTENT_TYPES)).map(([value, contentType]): Payload => ({
    kind: 'raw',
    body: JSON.stringify(value) ?? '',
    contentType,
  }));
  const options: { weight: number; arbitrary: fc.Arbitrary<Payload> }[] = [
    { weight: 6, arbitrary: json },
    { weight: 1, arbitrary: wrongType },
    { weight: 2, arbitrary: junk },
  ];
  if (upload) {
    const fileField = upload === 'files' ? 'file' : 'data';
    const multipart = fc
      .record({
        value: fc.tuple(valid, bodyMutation).map(([value, mutation]) => applyMutation(value, mutation)),
        file: fc.option(filePart(fileField), { nil: undefined, freq: 4 }),
        breakage,
      })
      .map(({ value, file, breakage: broken }): Payload => {
        const fields =
          typeof value === 'object' && value !== null && !Array.isArray(value)
            ? Object.entries(value).filter(([name]) => name !== 'file' && name !== 'data')
            : [['title', value] as [string, unknown]];
        return { kind: 'multipart', fields, file, breakage: broken };
      });
    options.push({ weight: 6, arbitrary: multipart });
  }
  return fc.oneof(...options);
}

function caseArbitrary(key: string, spec: Spec, pools: Pools): fc.Arbitrary<Case> {
  const path = key.split(' ')[1]!;
  const names = [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const pool = spec.params?.(pools) ?? {};
  const params = fc.record(
    Object.fromEntries(
      names.map((name) => [
        name,
        fc.oneof(
          { weight: 3, arbitrary: pick(pool[name] ?? ['1']) },
          { weight: 2, arbitrary: pick(HOSTILE_PATH_SEGMENTS) },
        ),
      ]),
    ),
  );
  const query = fc.oneof(
    { weight: 4, arbitrary: fc.constant('') },
    ...(spec.query
      ? [
          {
            weight: 6,
            arbitrary: fc
              .tuple(arbitraryOf(spec.query.schema, spec.query.hints?.(pools) ?? {}), bodyMutation)
              .map(([value, mutation]) => queryString(applyMutation(value, mutation))),
          },
        ]
      : []),
    { weight: 1, arbitrary: pick(JUNK_QUERIES) },
  );
  return fc.record({ params, query, payload: payloadArbitrary(spec, pools) });
}

function injectOptions(key: string, c: Case, headers: Record<string, string>): InjectOptions {
  const [method, path] = key.split(' ') as [string, string];
  let url = path.replace(/:(\w+)/g, (_m, name: string) => c.params[name] ?? '1');
  if (c.query) url += `?${c.query}`;
  const options: InjectOptions = { method: method as InjectOptions['method'], url, headers: { ...headers } };
  const p = c.payload;
  if (p.kind === 'json') {
    const text = JSON.stringify(p.value);
    options.headers!['content-type'] = 'application/json';
    if (text !== undefined) options.payload = text;
  } else if (p.kind === 'raw') {
    if (p.contentType) options.headers!['content-type'] = p.contentType;
    options.payload = p.body;
  } else if (p.kind === 'multipart') {
    const { body, contentType } = multipartBody(p);
    options.headers!['content-type'] = contentType;
    options.payload = body;
  }
  return options;
}

/** A short, readable account of a case for failure messages. */
function describeCase(options: InjectOptions): string {
  const payload =
    typeof options.payload === 'string'
      ? options.payload
      : Buffer.isBuffer(options.payload)
        ? options.payload.toString('latin1')
        : '';
  const shortened = payload.length > 400 ? `${payload.slice(0, 400)}… (${payload.length} Zeichen)` : payload;
  return `${options.method} ${String(options.url).slice(0, 200)} [${options.headers?.['content-type'] ?? ''}] ${shortened}`;
}

/** The fragments every text field of a valid request is tried with (see TAINT_FRAGMENTS). */
const SWEEP_FRAGMENTS = ['\u0000', "'; DROP TABLE users; --", '../../../etc/passwd', '\uD800', '\u202E😀'];

/** Paths of the texts in a JSON payload: top-level strings and the first item of string lists. */
function textPaths(payload: unknown): string[] {
  if (typeof payload !== 'object' || payload === null || Buffer.isBuffer(payload)) return [];
  return Object.entries(payload).flatMap(([key, value]) =>
    typeof value === 'string' && !value.startsWith('data:')
      ? [key]
      : Array.isArray(value) && typeof value[0] === 'string'
        ? [`${key}.0`]
        : [],
  );
}

function tainted(payload: unknown, path: string, fragment: string): unknown {
  const copy = structuredClone(payload) as Record<string, unknown>;
  const [key, item] = path.split('.') as [string, string | undefined];
  if (item === undefined) copy[key] = `${copy[key] as string}${fragment}`;
  else (copy[key] as string[])[0] = `${(copy[key] as string[])[0]!}${fragment}`;
  return copy;
}

// ---------------------------------------------------------------------------------------------

describe('hostile input', () => {
  let t: TestApp;
  let env: Env;

  beforeAll(async () => {
    t = await buildTestApp({
      env: {
        MAX_UPLOAD_MB: String(MAX_UPLOAD_MB),
        // The password re-checks' wrong guesses (decision 147) come from this one client as well:
        // the per-client limit must not refuse the later routes' valid sign-ins.
        LOGIN_MAX_FAILURES_PER_CLIENT: '100000',
      },
    });
    const actor = await createUser(t, { roles: ['Super-Admin'] });
    const su = async (options: InjectOptions, status: number) => {
      const res = await t.app.inject({ ...options, headers: { ...actor.headers, ...options.headers } });
      expect(res.statusCode, res.body).toBe(status);
      return status === 204 ? undefined : res.json();
    };
    const folder = async (parent: number | string, title: string) =>
      String(
        (
          await su(
            { method: 'POST', url: '/api/v1/folders', payload: { folder_id: Number(parent), title } },
            201,
          )
        ).folder.id,
      );
    const sandbox = await folder(4, 'Sandkasten');
    const inner = await folder(sandbox, 'Innen');
    const file = async () => {
      const created = (
        await su(
          {
            method: 'POST',
            url: '/api/v1/files',
            payload: {
              title: `Datei ${(serial += 1)}`,
              file: dataUrl(pdfBytes('x')),
              permissions: ['Vertreter'],
              folder_id: Number(inner),
            },
          },
          201,
        )
      ).file;
      return { id: String(created.id), key: created.external as string };
    };
    const event = async () => {
      const created = (
        await su(
          {
            method: 'POST',
            url: '/api/v1/events',
            payload: {
              title: `Event ${(serial += 1)}`,
              roles: ['Vertreter'],
              start: '2030-01-01T10:00',
              end: '2030-01-01T11:00',
              location: 'Ort',
              description: 'Text',
              data: dataUrl(pdfBytes('e')),
            },
          },
          201,
        )
      ).event;
      return { id: String(created.id), key: created.external as string };
    };
    const user = async () =>
      String(
        (
          await su(
            {
              method: 'POST',
              url: '/api/v1/user',
              payload: {
                title: 'Herr',
                firstname: 'Ziel',
                lastname: 'Konto',
                email: uniqueEmail(),
                roles: ['Vertreter'],
              },
            },
            201,
          )
        ).user.id,
      );
    const committee = async (kind = 'ausschuss') =>
      String(
        (
          await su(
            {
              method: 'POST',
              url: '/api/v1/committees',
              payload: { name: `Gremium ${(serial += 1)}`, kind },
            },
            201,
          )
        ).data.id,
      );
    const term = async ({ start = '2026-01-01', end = '2030-12-31' } = {}) => {
      const committeeId = await committee();
      const created = await su(
        { method: 'POST', url: `/api/v1/committees/${committeeId}/terms`, payload: { start, end } },
        201,
      );
      return { id: String(created.data.id), committeeId };
    };
    const member = async (at: { id: string; committeeId: string }, body: Record<string, unknown>) =>
      String(
        (
          await su(
            {
              method: 'POST',
              url: `/api/v1/committees/${at.committeeId}/members`,
              payload: { term_id: Number(at.id), user_id: Number(await user()), ...body },
            },
            201,
          )
        ).data.id,
      );
    const membership = async ({
      successor = false,
      term: at,
    }: { successor?: boolean; term?: { id: string; committeeId: string } } = {}) => {
      const where = at ?? (await term());
      if (!successor)
        return { ...where, termId: where.id, id: await member(where, { function: 'mitglied' }) };
      const id = await member(where, { function: 'mitglied', until: '2026-06-30' });
      await member(where, { function: 'ersatzmitglied', rank: 1 });
      return { committeeId: where.committeeId, termId: where.id, id };
    };
    const files = [await file(), await file(), await file()];
    const events = [await event(), await event(), await event()];
    // One replacement, so this file has an old version (1) beside the current one (2).
    const versioned = await file();
    await su(
      {
        method: 'PUT',
        url: `/api/v1/files/${versioned.id}`,
        payload: { file: dataUrl(pdfBytes('zweite Fassung')) },
      },
      200,
    );
    const trashed = async (kind: 'file' | 'folder' | 'event') => {
      const id =
        kind === 'file'
          ? (await file()).id
          : kind === 'event'
            ? (await event()).id
            : await folder(sandbox, `Papierkorb ${(serial += 1)}`);
      await su({ method: 'DELETE', url: `/api/v1/${kind}s/${id}` }, 204);
      return id;
    };
    // A folder with a document inside, so its restore and purge carry stored content.
    const trashedFolder = await folder(sandbox, 'Gelöschter Ordner');
    await su(
      {
        method: 'POST',
        url: '/api/v1/files',
        payload: {
          title: 'Im gelöschten Ordner',
          file: dataUrl(pdfBytes('innen')),
          permissions: ['Vertreter'],
          folder_id: Number(trashedFolder),
        },
      },
      201,
    );
    await su({ method: 'DELETE', url: `/api/v1/folders/${trashedFolder}` }, 204);
    const trashIds = [
      await trashed('file'),
      await trashed('file'),
      await trashed('event'),
      await trashed('folder'),
      trashedFolder,
    ];
    const roles = await t.db.kysely.selectFrom('roles').select(['id', 'name']).execute();
    const spareFiles = [await file(), await file()];
    const spareEvents = [await event(), await event()];
    const pools: Pools = {
      // Index 4 is the sandbox: the valid requests create there.
      folderIds: [
        '1',
        '2',
        '3',
        '4',
        sandbox,
        inner,
        await folder(inner, 'Tiefer'),
        await folder(sandbox, 'Daneben'),
        NONEXISTENT_ID,
      ],
      fileIds: [...files.map((f) => f.id), NONEXISTENT_ID],
      eventIds: [...events.map((e) => e.id), NONEXISTENT_ID],
      // Not the actor's own id: a generated role change could demote the actor for all later cases.
      userIds: [await user(), await user(), await user(), await user(), NONEXISTENT_ID],
      spareFolderIds: [
        '1',
        '2',
        '3',
        '4',
        await folder(sandbox, 'Entbehrlich'),
        await folder(sandbox, 'Auch entbehrlich'),
        NONEXISTENT_ID,
      ],
      spareFileIds: [...spareFiles.map((f) => f.id), NONEXISTENT_ID],
      spareEventIds: [...spareEvents.map((e) => e.id), NONEXISTENT_ID],
      spareUserIds: [await user(), await user(), await user(), String(actor.id), NONEXISTENT_ID],
      fileKeys: [...files.map((f) => f.key), 'AAAAAAAAAAAAAAAAAAAAAA'],
      eventKeys: [...events.map((e) => e.key), 'AAAAAAAAAAAAAAAAAAAAAA'],
      roleRefs: [
        ...roles.map((r) => r.id),
        ...roles.map((r) => r.name),
        ' Vertreter ',
        'Unbekannt',
        999,
        '3',
      ],
      emails: [actor.email, 'admin@example.org'],
      versionedFileIds: [versioned.id, files[1]!.id, NONEXISTENT_ID],
      versions: ['1', '2', '0', '99', '2147483647', '2147483648', '1e3', '01'],
      trashIds: [...trashIds, files[1]!.id, NONEXISTENT_ID],
      minutesKeys: [],
      batchIds: [],
      committeeIds: [],
      termIds: [],
      membershipIds: [],
      spareCommitteeIds: [],
      spareTermIds: [],
      spareMembershipIds: [],
      motionCommitteeIds: [],
      motionIds: [],
      spareMotionIds: [],
      resolutionIds: [],
      electorIds: [],
    };
    // Beschlüsse (decision 190): an Aufsichtsrat whose only member is its Vorsitz, with an
    // authenticator app; the actor (a Super-Admin) writes, opens and closes its motions.
    const boardId = await committee('aufsichtsrat');
    const boardTerm = String(
      (
        await su(
          {
            method: 'POST',
            url: `/api/v1/committees/${boardId}/terms`,
            payload: { start: '2026-01-01', end: '2030-12-31' },
          },
          201,
        )
      ).data.id,
    );
    const chair = await createTotpUser(t);
    await su(
      {
        method: 'POST',
        url: `/api/v1/committees/${boardId}/members`,
        payload: { term_id: Number(boardTerm), user_id: chair.id, function: 'vorsitz' },
      },
      201,
    );
    const chairCode = () => freshCode(t, chair.secret);
    const motion = async (state: 'entwurf' | 'abstimmung' | 'umlauf' | 'geschlossen' = 'entwurf') => {
      const n = (serial += 1);
      const created = await su(
        {
          method: 'POST',
          url: '/api/v1/motions',
          payload: {
            committee_id: Number(boardId),
            title: `Vorlage ${n}`,
            text: `Das Gremium beschließt die Vorlage ${n}.`,
            mode: 'offen',
          },
        },
        201,
      );
      const id = String(created.data.id);
      if (state === 'entwurf') return id;
      await su(
        {
          method: 'POST',
          url: `/api/v1/motions/${id}/open`,
          payload:
            state === 'umlauf'
              ? { procedure: 'umlauf', deadline: '2027-06-30T10:00:00.000Z' }
              : { procedure: 'sitzung' },
        },
        200,
      );
      if (state === 'geschlossen') await su({ method: 'POST', url: `/api/v1/motions/${id}/close` }, 200);
      return id;
    };
    env = {
      t,
      actor,
      pools,
      fresh: {
        folder: () => folder(sandbox, `Wegwerf ${(serial += 1)}`),
        file,
        event,
        user,
        trashed,
        committee,
        term,
        membership,
        motion,
      },
      chair,
      chairCode,
    };
    // Gremien (decision 189): one with members (its term also has an ended membership with a
    // successor to confirm), an archived term, and spare ones for the DELETE routes.
    const withMembers = await term();
    const members = [
      await membership({ term: withMembers }),
      await membership({ term: withMembers }),
      await membership({ term: withMembers, successor: true }),
    ];
    const archived = await term({ start: '2020-01-01', end: '2023-12-31' });
    await t.app.memberships.run();
    const spareTerm = await term();
    pools.committeeIds = [withMembers.committeeId, '1', '2', archived.committeeId, NONEXISTENT_ID];
    pools.termIds = [withMembers.id, archived.id, NONEXISTENT_ID];
    pools.membershipIds = [...members.map((m) => m.id), NONEXISTENT_ID];
    pools.spareCommitteeIds = [await committee(), await committee(), spareTerm.committeeId, NONEXISTENT_ID];
    pools.spareTermIds = [(await term()).id, withMembers.id, NONEXISTENT_ID];
    pools.spareMembershipIds = [(await membership()).id, (await membership()).id, NONEXISTENT_ID];
    pools.minutesKeys = [(await eventWithMinutes(env)).key, 'AAAAAAAAAAAAAAAAAAAAAA'];
    const [open, completed] = [randomUUID(), randomUUID()];
    await uploadInBatch(t, actor, pools, open);
    await uploadInBatch(t, actor, pools, completed);
    await su({ method: 'POST', url: `/api/v1/files/batches/${completed}/complete` }, 200);
    pools.batchIds = [open, completed, open.toUpperCase(), randomUUID()];
    const established = await motion('geschlossen');
    const resolution = await t.app.inject({
      method: 'POST',
      url: `/api/v1/motions/${established}/establish`,
      headers: chair.headers,
      payload: { code: await chairCode() },
    });
    expect(resolution.statusCode, resolution.body).toBe(200);
    const withdrawn = await motion();
    await su({ method: 'POST', url: `/api/v1/motions/${withdrawn}/withdraw` }, 200);
    pools.motionCommitteeIds = [boardId, ...pools.committeeIds];
    pools.motionIds = [
      await motion(),
      await motion('abstimmung'),
      await motion('umlauf'),
      await motion('geschlossen'),
      established,
      withdrawn,
      NONEXISTENT_ID,
    ];
    pools.spareMotionIds = [await motion(), await motion(), established, NONEXISTENT_ID];
    pools.resolutionIds = [String(resolution.json().data.id), NONEXISTENT_ID];
    pools.electorIds = [String(chair.id), String(actor.id), ...pools.userIds];
  }, 60_000);
  afterAll(() => t?.close());

  it('has hostile cases for every route of the API', () => {
    const routes = apiRoutes(t.app)
      .filter((route) => route.method !== 'HEAD')
      .map(routeKey);
    expect(
      routes.filter((key) => !(key in ENTRIES)),
      'Routen ohne feindliche Eingaben',
    ).toEqual([]);
    expect(
      Object.keys(ENTRIES).filter((key) => !routes.includes(key)),
      'Einträge ohne Route',
    ).toEqual([]);
  });

  const headersFor = async (spec: Spec): Promise<Record<string, string>> =>
    spec.principal === 'anonymous'
      ? {}
      : spec.principal === 'chair'
        ? { ...env.chair.headers }
        : spec.freshSession
          ? { authorization: `Bearer ${await sessionFor(t, env.actor.id)}` }
          : { ...env.actor.headers };

  it.each(Object.keys(ENTRIES))(
    '%s',
    async (key) => {
      const spec = ENTRIES[key]!;
      const [method, path] = key.split(' ') as [string, string];

      const headers = () => headersFor(spec);
      const prepare = async (extra: Partial<InjectOptions>): Promise<InjectOptions> => ({
        method: method as InjectOptions['method'],
        url: path,
        ...extra,
        headers: { ...(await headers()), ...extra.headers },
      });
      /** 2xx, or a 4xx with a German answer that changed nothing. */
      const expectSafe = async (options: InjectOptions, label: string) => {
        const before = await snapshot(t);
        const res = await t.app.inject(options);
        const what = `${label} → ${res.statusCode} ${res.body.slice(0, 300)}`;
        const ok = res.statusCode >= 200 && res.statusCode < 300;
        expect(ok || (res.statusCode >= 400 && res.statusCode < 500), `Status: ${what}`).toBe(true);
        if (!ok) {
          expect(errorBodyProblems(res), `Fehlerantwort: ${what}`).toEqual([]);
          expect(
            changes(before, await snapshot(t), spec.mayChange),
            `abgelehnt, aber geändert: ${what}`,
          ).toEqual(NO_CHANGES);
        }
        return res;
      };

      // A valid request succeeds: the route is reachable and the generators aim at real work.
      const validRes = await t.app.inject(await prepare(await spec.valid(env)));
      expect(validRes.statusCode, `gültige Anfrage: ${validRes.body.slice(0, 300)}`).toBeGreaterThanOrEqual(
        200,
      );
      expect(validRes.statusCode, `gültige Anfrage: ${validRes.body.slice(0, 300)}`).toBeLessThan(300);

      // Every text of the valid request, spoilt once with each hostile fragment (the rest valid).
      const sample = await spec.valid(env);
      const texts = textPaths(sample.payload);
      for (const textPath of texts) {
        for (const fragment of SWEEP_FRAGMENTS) {
          // Prepared first: a valid request may create the object it changes.
          const base = await spec.valid(env);
          const payload = tainted(base.payload, textPath, fragment) as InjectOptions['payload'];
          await expectSafe(
            await prepare({ ...base, payload }),
            `${key} ${textPath} mit ${JSON.stringify(fragment)}: ${JSON.stringify(payload).slice(0, 300)}`,
          );
        }
      }

      await fc.assert(
        fc.asyncProperty(caseArbitrary(key, spec, env.pools), async (c) => {
          const options = injectOptions(key, c, await headers());
          await expectSafe(options, describeCase(options));
        }),
        {
          seed: routeSeed(key),
          numRuns: Math.max(3, Math.round(RUNS * (spec.weight ?? 1))),
          endOnFailure: true,
        },
      );
    },
    60_000,
  );

  // Every JSON body is read strictly (decision 147): a field the route does not know is named in a
  // 422, where it used to be dropped silently (or answered with a bare 400 by a strict schema).
  it.each(Object.keys(ENTRIES).filter((key) => ENTRIES[key]!.body && !ENTRIES[key]!.body.upload))(
    '%s refuses an unknown field, naming it',
    async (key) => {
      const spec = ENTRIES[key]!;
      const [method, path] = key.split(' ') as [string, string];
      const valid = await spec.valid(env);
      // `user_id` is a real field of a membership's body: there another name stands for the stray one.
      const stray = valid.payload && 'user_id' in (valid.payload as object) ? 'owner_id' : 'user_id';
      const payload = {
        ...(valid.payload as Record<string, unknown> | undefined),
        [stray]: 5,
        two_factor_enabled: false,
      };
      const headers = { ...(await headersFor(spec)), ...valid.headers };
      const before = await snapshot(t);
      const res = await t.app.inject({
        method: method as InjectOptions['method'],
        url: path,
        ...valid,
        headers,
        payload,
      });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().errors).toMatchObject({
        [stray]: ['Dieses Feld ist unbekannt.'],
        two_factor_enabled: ['Dieses Feld ist unbekannt.'],
      });
      expect(changes(before, await snapshot(t), []), 'unbekanntes Feld, aber geändert').toEqual(NO_CHANGES);
    },
  );

  // Feststellung asks for the Vorsitz's code as the sign-in does (decision 190): five wrong codes in a
  // row lock the second factor (decision 126). The lock is a 4xx in German like any refusal, and the
  // API description names it. A Vorsitz of their own, so the other routes' Vorsitz stays unlocked.
  it('POST /api/v1/motions/:id/establish after too many wrong codes: 429 in German, as documented', async () => {
    const as = (headers: Record<string, string>) => async (options: InjectOptions, status: number) => {
      const res = await t.app.inject({ ...options, headers });
      expect(res.statusCode, res.body).toBe(status);
      return res.json();
    };
    const su = as(env.actor.headers);
    const committee = await su(
      {
        method: 'POST',
        url: '/api/v1/committees',
        payload: { name: `Gesperrt ${(serial += 1)}`, kind: 'aufsichtsrat' },
      },
      201,
    );
    const committeeId = committee.data.id as number;
    const term = await su(
      {
        method: 'POST',
        url: `/api/v1/committees/${committeeId}/terms`,
        payload: { start: '2026-01-01', end: '2030-12-31' },
      },
      201,
    );
    const chair = await createTotpUser(t);
    await su(
      {
        method: 'POST',
        url: `/api/v1/committees/${committeeId}/members`,
        payload: { term_id: term.data.id, user_id: chair.id, function: 'vorsitz' },
      },
      201,
    );
    const motion = await su(
      {
        method: 'POST',
        url: '/api/v1/motions',
        payload: {
          committee_id: committeeId,
          title: 'Gesperrte Feststellung',
          text: 'Das Gremium beschließt etwas.',
          mode: 'offen',
        },
      },
      201,
    );
    const url = `/api/v1/motions/${motion.data.id}`;
    await su({ method: 'POST', url: `${url}/open`, payload: { procedure: 'sitzung' } }, 200);
    await su({ method: 'POST', url: `${url}/close` }, 200);
    const establish = (code: string) =>
      t.app.inject({ method: 'POST', url: `${url}/establish`, headers: chair.headers, payload: { code } });
    for (const code of ['000000', '111111', '222222', '333333', '444444']) {
      expect((await establish(code)).statusCode).toBe(422);
    }
    const locked = await establish(await freshCode(t, chair.secret));
    expect(locked.statusCode, locked.body).toBe(429);
    expect(errorBodyProblems(locked)).toEqual([]);
  });

  // A Gremium's name is also its role's and its folder's at the top of the tree (decision 189): names
  // the folder or the role could not take must be refused before anything is written, or taken whole.
  it.each([
    ['allgemein', 'der Titel eines Ordners oben in anderer Schreibweise'],
    ['Bau/Technik', 'ein Schrägstrich'],
    ['Ä'.repeat(100), 'der längste Name, länger als ein Rollenname sonst sein darf'],
  ])('POST /api/v1/committees named %j (%s): created whole, or refused without a trace', async (name) => {
    const before = await snapshot(t);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/committees',
      headers: env.actor.headers,
      payload: { name, kind: 'ausschuss' },
    });
    expect(res.statusCode, res.body).toBeLessThan(500);
    if (res.statusCode >= 400) {
      expect(errorBodyProblems(res), res.body).toEqual([]);
      expect(changes(before, await snapshot(t)), `abgelehnt, aber geändert: ${res.body}`).toEqual(NO_CHANGES);
      return;
    }
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json().data as {
      id: number;
      role: { id: number; name: string };
      folder: { id: number } | null;
    };
    expect(created.role.name).toBe(name);
    const folder = await t.db.kysely
      .selectFrom('folders')
      .select(['title', 'breadcrumb', 'parent_id'])
      .where('id', '=', created.folder?.id ?? -1)
      .executeTakeFirst();
    // A folder's title never holds a slash (the breadcrumb would read it as two folders).
    expect(folder?.title, 'Titel des Ordners').not.toContain('/');
    expect(folder, 'Ordner des Gremiums').toEqual({ title: name, breadcrumb: `/${name}`, parent_id: 1 });
    const roles = await t.db.kysely
      .selectFrom('folder_roles')
      .select('role_id')
      .where('folder_id', '=', created.folder!.id)
      .execute();
    expect(roles.map((row) => row.role_id)).toEqual([created.role.id]);
  });

  // The import reads the file itself: a JSON body or none is refused before anything, in German.
  it.each([
    ['JSON', { 'content-type': 'application/json' }, '{"rows": []}'],
    ['nichts', {}, undefined],
  ] as const)(
    'POST /api/v1/committees/:id/members/import refuses %s as the file, in German',
    async (_label, headers, payload) => {
      const [committeeId, termId] = [env.pools.committeeIds[0], env.pools.termIds[0]];
      const before = await snapshot(t);
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/committees/${committeeId}/members/import?term_id=${termId}`,
        headers: { ...env.actor.headers, ...headers },
        ...(payload === undefined ? {} : { payload }),
      });
      expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, res.body).toBeLessThan(500);
      expect(errorBodyProblems(res), res.body).toEqual([]);
      expect(changes(before, await snapshot(t))).toEqual(NO_CHANGES);
    },
  );

  it('names unknown fields inside a body, too', async () => {
    const valid = await ENTRIES['PUT /api/v1/events/:id/agenda']!.valid(env);
    const payload = valid.payload as { items: Record<string, unknown>[] };
    payload.items[0]!.owner_id = 3;
    const res = await t.app.inject({ method: 'PUT', ...valid, headers: env.actor.headers, payload });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().errors).toEqual({ 'items.0.owner_id': ['Dieses Feld ist unbekannt.'] });
  });

  // Each route that asks for the password again shares the sign-in's limit (decision 147): wrong
  // passwords are 422 on the field until the limit, then 429, and the session that guessed ends.
  it.each([
    [
      'PUT /api/v1/account',
      'current_password',
      (password: string) => ({
        password: 'Ganz-Neues-Kennwort-7',
        password_confirmation: 'Ganz-Neues-Kennwort-7',
        current_password: password,
      }),
    ],
    [
      'POST /api/v1/account/two-factor/webauthn/registration-options',
      'current_password',
      (password: string) => ({
        current_password: password,
      }),
    ],
    [
      'POST /api/v1/account/two-factor/totp/confirm',
      'current_password',
      (password: string) => ({
        code: '123456',
        current_password: password,
      }),
    ],
    ['DELETE /api/v1/account/two-factor', 'password', (password: string) => ({ password, code: '123456' })],
  ] as const)('%s: wrong passwords answer 422 on %s, then 429', async (key, field, body) => {
    const [method, url] = key.split(' ') as [InjectOptions['method'], string];
    const user = key.includes('DELETE')
      ? await createTotpUser(t, { roles: ['Vertreter'] })
      : await createUser(t, { roles: ['Vertreter'] });
    if (key.includes('totp/confirm')) {
      await t.app.inject({ method: 'POST', url: '/api/v1/account/two-factor/totp', headers: user.headers });
    }
    const statuses: number[] = [];
    for (let attempt = 0; attempt <= t.config.LOGIN_MAX_ATTEMPTS; attempt += 1) {
      const res = await t.app.inject({
        method,
        url,
        headers: user.headers,
        payload: body(`Falsches-Kennwort-${attempt}`),
      });
      statuses.push(res.statusCode);
      if (res.statusCode === 422) expect(Object.keys(res.json().errors)).toEqual([field]);
      else expect(errorBodyProblems(res)).toEqual([]);
    }
    expect(statuses).toEqual([...Array(t.config.LOGIN_MAX_ATTEMPTS).fill(422), 429]);
    const after = await t.app.inject({ method: 'GET', url: '/api/v1/account', headers: user.headers });
    expect(after.statusCode).toBe(401);
  });

  it('stored nothing outside the storage folder and only server-made names inside it', async () => {
    const names = await readdir(t.dataDir, { recursive: true });
    const unexpected = names.filter(
      (name) =>
        !/^portal\.sqlite(-wal|-shm|-journal)?$/.test(name) &&
        name !== 'files' &&
        name !== 'files/.tmp' &&
        // Where finished Sitzungsmappen wait for their download (decision 149); each file there
        // loses its name as soon as it is open, so the folder itself is all that may show.
        name !== 'tmp' &&
        name !== 'tmp/books' &&
        // The portal's own key for secrets at rest (decision 126), made at the first start.
        name !== 'secret.key' &&
        !/^files\/[A-Za-z0-9_-]{16,64}$/.test(name),
    );
    expect(unexpected).toEqual([]);
    const rows = await t.db.kysely
      .selectFrom('files')
      .select(['storage_key', 'format', 'mime_type'])
      .execute();
    for (const row of rows) {
      expect(row.storage_key).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
      expect(row.format).toMatch(/^[a-z0-9]{1,10}$/);
    }
    const folders = await t.db.kysely
      .selectFrom('folders')
      .select(['id', 'parent_id', 'title', 'breadcrumb'])
      .execute();
    const byId = new Map(folders.map((f) => [f.id, f]));
    for (const folder of folders) {
      if (folder.parent_id === null) continue;
      const parent = byId.get(folder.parent_id)!;
      expect(folder.title).not.toContain('/');
      expect(folder.breadcrumb).toBe(
        parent.breadcrumb === '/' ? `/${folder.title}` : `${parent.breadcrumb}/${folder.title}`,
      );
    }
  });
});
