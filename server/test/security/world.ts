// Over 300 lines: buildWorld creates through the API an object of every visibility for every principal and
// records who may see it; the matrix and the session proofs need that whole world to agree.
import { randomBytes } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { RoleName } from '@gremienportal/contracts/common';
import type { Committee, Membership, Term } from '@gremienportal/contracts/committees';
import type { TestApp } from '../support/build-test-app.ts';
import { chooseNotifications, createUser, sessionFor, type TestUser } from '../support/factories.ts';
import { createTotpUser, freshCode } from '../support/two-factor.fixtures.ts';
import { pdfWithPages } from '../support/documents.fixtures.ts';
import { dataUrl } from '../support/files.fixtures.ts';

/**
 * A portal with content of every visibility, seen by every kind of principal: the fixture of the
 * authorization matrix and of the session proofs. Everything is created through the API as a
 * Super-Admin would, so the rules under test also built the data.
 */

export const PRINCIPALS = [
  'anonymous',
  'vertreter',
  'aufsichtsrat',
  'admin',
  'superAdmin',
  'stripped',
] as const;
/**
 * The members of the world's Aufsichtsrat of the Beschlüsse (decision 190), beside the principals: a
 * Mitglied, the Schriftführung and the Vorsitz (with an authenticator app). They hold no role but
 * the Gremium's; the matrix calls the routes of motions and resolutions also as them.
 */
export const PERSONAS = ['mitglied', 'schriftfuehrung', 'vorsitz'] as const;
export type PersonaKey = (typeof PERSONAS)[number];
export type PrincipalKey = (typeof PRINCIPALS)[number] | PersonaKey;
export type SignedInKey = Exclude<PrincipalKey, 'anonymous'>;

export const isAdminPrincipal = (p: PrincipalKey) => p === 'admin' || p === 'superAdmin';
export const isPersona = (p: PrincipalKey): p is PersonaKey => (PERSONAS as readonly string[]).includes(p);

/** A title part no other text contains: if it shows up in an answer, the object leaked. */
export const marker = (label: string) => `${label}-${randomBytes(5).toString('hex')}`;

export interface WorldFolder {
  id: number;
  title: string;
  breadcrumb: string;
}
export interface WorldFile {
  id: number;
  title: string;
  external: string;
  folderId: number;
}
export interface WorldEvent {
  id: number;
  title: string;
  external: string;
}

/** Something whose title (and download key, if any) must reach only the principals named. */
export interface Secret {
  name: string;
  texts: string[];
  visibleTo: ReadonlySet<PrincipalKey>;
  /**
   * In the Papierkorb (decision 125): nobody may see it, whatever `visibleTo` says, but admins in the
   * Papierkorb's own answers and the audit log (see `hiddenTexts`).
   */
  trashed?: boolean;
  /** An event: in the Papierkorb it still reaches calendars as cancelled (decision 130, `hiddenTexts`). */
  event?: boolean;
}

/**
 * A Gremium of the world (decision 189) with its current Amtsperiode: its name is also the name of
 * the role it grants and the title of its folder at the top of the tree.
 */
export interface WorldCommittee {
  id: number;
  name: string;
  folderId: number;
  termId: number;
  /** The world's memberships in it, ids. */
  memberships: number[];
}

/** A member of the world's Aufsichtsrat-Gremium who is no principal: name and address as markers. */
export interface WorldMember {
  id: number;
  lastname: string;
  email: string;
  membershipId: number;
}

/** Objects deleted into the Papierkorb while the world was built; alive, members would see them. */
export interface WorldTrash {
  /** A document in /Allgemein/…gemischt with both roles. */
  file: WorldFile;
  /** A folder there with a subfolder and a document inside, all with both roles. */
  folder: WorldFolder;
  folderChild: WorldFolder;
  folderFile: WorldFile;
  /** An event for both roles, with an information file. */
  event: WorldEvent;
}

/**
 * The Beschlüsse of the world (decision 190). `committee` is a Gremium of the kind Aufsichtsrat
 * whose members are the three personas (no principal belongs to it); `foreign` a Gremium none of
 * the world's people belong to (its Vorsitz is no persona), whose draft and resolution are hidden
 * targets for the personas too. Motion ids by state: `draft` (Entwurf), `running` (Abstimmung in
 * der Sitzung), `closed` (geschlossen, not yet established), `established` (namentlich, every
 * persona voted Ja, linked to a document of the Aufsichtsrat role and to one in the Gremium's own
 * folder), `foreign` (a draft of `foreign`), `gone` (a draft deleted again).
 */
export interface WorldBoard {
  committee: WorldCommittee;
  foreign: WorldCommittee;
  motions: Record<'draft' | 'running' | 'closed' | 'established' | 'foreign' | 'gone', number>;
  /** `established`: the resolution of `motions.established`; `foreign`: one of `foreign`. */
  resolutions: Record<'established' | 'foreign', number>;
  /** The document in the Gremium's folder, seen by its members and admins. */
  file: WorldFile;
  /** The title of `motions.established`, which its resolution carries. */
  establishedTitle: string;
  /** The Vorsitz's current code; the clock moves on a step first, as each code is accepted once. */
  code(): Promise<string>;
}

/** The states a disposable motion of the Beschluss-Gremium is made in. */
export type FreshMotionState = 'entwurf' | 'abstimmung' | 'umlauf' | 'geschlossen';
/** The deadline of the world's Umlaufverfahren: far after anything the matrix does with the clock. */
export const UMLAUF_DEADLINE = '2027-06-30T10:00:00.000Z';

const ADMINS: PrincipalKey[] = ['admin', 'superAdmin'];
const seenBy = (...principals: PrincipalKey[]) => new Set<PrincipalKey>([...ADMINS, ...principals]);

export interface World {
  t: TestApp;
  users: Record<SignedInKey, TestUser & { lastname: string }>;
  folders: Record<'ar' | 'arVt' | 'vt' | 'mixed' | 'mixedAr' | 'mixedVt', WorldFolder>;
  files: Record<'ar' | 'arVt' | 'vt' | 'vtInAr' | 'mixedAr' | 'mixedVt' | 'mixedBoth', WorldFile>;
  events: Record<'ar' | 'vt' | 'both', WorldEvent>;
  /**
   * Gremien (decision 189): `ar` has the principal `aufsichtsrat` (Vorsitz) and two members who are
   * no principals, `vt` the principal `vertreter`; `seeded` is the seeded Gremium "Aufsichtsrat",
   * without members: holding its role directly makes nobody a member.
   */
  committees: { ar: WorldCommittee; vt: WorldCommittee; seeded: number };
  /**
   * The two other members of `ar`: `hidden` keeps the address to admins, `shared` showed it to
   * fellow members (`email_visible_to_committees`, set on its account page).
   */
  members: { hidden: WorldMember; shared: WorldMember };
  /** Beschlüsse (decision 190): the Aufsichtsrat of the personas, its motions and resolutions. */
  board: WorldBoard;
  trash: WorldTrash;
  secrets: Secret[];
  /**
   * Marks a disposable object (from `fresh`) as in the Papierkorb (`inTrash` true) or back out of
   * it, so later answers are checked for its title accordingly.
   */
  markTrashed(kind: 'file' | 'folder' | 'event', id: number, inTrash?: boolean): void;
  /**
   * A new title marker for something a test creates, seen by the Aufsichtsrat and admins only
   * (what the matrix's writes create); registered, so later answers are checked for it too.
   */
  newSecret(label: string, visibleTo?: PrincipalKey[]): string;
  /** When the stripped principal lost its roles (mails after this must not reach it). */
  strippedAt: number;
  headers(p: PrincipalKey): Record<string, string>;
  /** A new session of the principal, for calls that end one (logout). */
  freshHeaders(p: PrincipalKey): Promise<Record<string, string>>;
  inject(p: PrincipalKey, options: InjectOptions): Promise<LightMyRequestResponse>;
  /** Disposable objects for writes that change or delete what they hit. */
  fresh: {
    folder(): Promise<WorldFolder>;
    file(): Promise<WorldFile>;
    event(): Promise<WorldEvent>;
    user(): Promise<{ id: number; email: string }>;
    /** A Gremium without Amtsperioden (its name, role and folder seen by admins only). */
    committee(): Promise<{ id: number; name: string }>;
    /**
     * An Amtsperiode of a fresh Gremium without members; `archived`: 2020–2023, over and archived by
     * the membership run.
     */
    term(options?: { archived?: boolean }): Promise<{ id: number; committeeId: number }>;
    /**
     * A membership (Mitglied for the whole term) in a fresh Gremium; `successor`: ended early (30 June
     * 2026), with an Ersatzmitglied of rank 1 proposed to move up.
     */
    membership(options?: {
      successor?: boolean;
    }): Promise<{ id: number; committeeId: number; termId: number }>;
    /**
     * A motion of the Beschluss-Gremium, made by the Super-Admin (offen, no links): a draft, a vote
     * opened in the meeting (`abstimmung`) or as Umlaufverfahren (`umlauf`, deadline
     * `UMLAUF_DEADLINE`), or one opened in the meeting and closed without votes (`geschlossen`).
     * Its title is seen by the personas and admins.
     */
    motion(state?: FreshMotionState): Promise<number>;
  };
}

export const EVENT_TIMES = { start: '2031-03-14T18:00', end: '2031-03-14T20:00' } as const;

export async function buildWorld(t: TestApp): Promise<World> {
  const make = async (key: SignedInKey, roles: RoleName[]) => {
    const lastname = marker(`Nutzer${key}`);
    const user = await createUser(t, { roles, lastname, email: `${lastname.toLowerCase()}@example.org` });
    return { ...user, lastname };
  };
  const users = {
    vertreter: await make('vertreter', ['Vertreter']),
    aufsichtsrat: await make('aufsichtsrat', ['Aufsichtsrat']),
    admin: await make('admin', ['Admin']),
    superAdmin: await make('superAdmin', ['Super-Admin']),
    // Starts with every role it will lose; stripped below, after it has used them.
    stripped: await make('stripped', ['Admin', 'Aufsichtsrat', 'Vertreter']),
    // The Beschluss-Gremium's members: no role of their own, the Gremium's comes with the membership.
    mitglied: await make('mitglied', []),
    schriftfuehrung: await make('schriftfuehrung', []),
    vorsitz: await (async () => {
      const lastname = marker('Nutzervorsitz');
      const user = await createTotpUser(t, { lastname, email: `${lastname.toLowerCase()}@example.org` });
      return { ...user, lastname };
    })(),
  };
  // The single notification mails are what the matrix reads (decision 131: documents default to a
  // daily digest); the stripped principal keeps the default, so its digest is checked too.
  await chooseNotifications(t, [users.vertreter, users.aufsichtsrat, users.admin, users.superAdmin], {
    files: 'sofort',
  });
  const headers = (p: PrincipalKey): Record<string, string> =>
    p === 'anonymous' ? {} : { ...users[p].headers };
  const inject = (p: PrincipalKey, options: InjectOptions) =>
    t.app.inject({ ...options, headers: { ...headers(p), ...(options.headers ?? {}) } });
  const su = (options: InjectOptions) => inject('superAdmin', options);

  const folder = async (parent: number, title: string, roles?: string[]): Promise<WorldFolder> => {
    const res = await su({
      method: 'POST',
      url: '/api/v1/folders',
      payload: { folder_id: parent, title, ...(roles ? { roles } : {}) },
    });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json().folder as WorldFolder;
    return { id: created.id, title, breadcrumb: created.breadcrumb };
  };
  const file = async (
    folderId: number,
    title: string,
    roles: string[],
    notifications: string[] = [],
  ): Promise<WorldFile> => {
    const res = await su({
      method: 'POST',
      url: '/api/v1/files',
      payload: {
        title,
        // A real PDF naming its document: what reads the content (the Sitzungsmappe, the search)
        // carries the title into its answer, where the leak checks look for it.
        file: dataUrl(Buffer.from(await pdfWithPages([`Inhalt von ${title}`]))),
        permissions: roles,
        notifications,
        folder_id: folderId,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json().file as { id: number; external: string };
    return { id: created.id, title, external: created.external, folderId };
  };
  const event = async (title: string, roles: string[], notifications: string[] = []) => {
    const res = await su({
      method: 'POST',
      url: '/api/v1/events',
      payload: {
        title,
        roles,
        notifications,
        ...EVENT_TIMES,
        location: `Ort ${title}`,
        description: `Beschreibung ${title}`,
        data: dataUrl(Buffer.from(`Einladung ${title}`), 'text/plain'),
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json().event as { id: number; external: string };
    return { id: created.id, title, external: created.external };
  };

  // /Aufsichtsrat (2) and /Mitgliedervertreter (3) are protected folders with those roles;
  // /Allgemein (4) has both.
  const folders = {
    ar: await folder(2, marker('OrdnerAR'), ['Aufsichtsrat']),
    vt: await folder(3, marker('OrdnerVT'), ['Vertreter']),
    mixed: await folder(4, marker('OrdnerGemischt'), ['Aufsichtsrat', 'Vertreter']),
  } as World['folders'];
  // Role Vertreter, but below a folder only the Aufsichtsrat sees: hidden from both.
  folders.arVt = await folder(folders.ar.id, marker('OrdnerARVT'), ['Vertreter']);
  folders.mixedAr = await folder(folders.mixed.id, marker('OrdnerGemischtAR'), ['Aufsichtsrat']);
  folders.mixedVt = await folder(folders.mixed.id, marker('OrdnerGemischtVT'), ['Vertreter']);

  const files = {
    ar: await file(folders.ar.id, marker('DateiAR'), ['Aufsichtsrat'], ['Aufsichtsrat']),
    arVt: await file(folders.arVt.id, marker('DateiARVT'), ['Vertreter'], ['Vertreter']),
    vt: await file(folders.vt.id, marker('DateiVT'), ['Vertreter'], ['Vertreter']),
    // Shares the role Vertreter, but lies in a folder a Vertreter cannot see.
    vtInAr: await file(
      folders.ar.id,
      marker('DateiVTimAR'),
      ['Aufsichtsrat', 'Vertreter'],
      ['Aufsichtsrat', 'Vertreter'],
    ),
    mixedAr: await file(folders.mixed.id, marker('DateiGemischtAR'), ['Aufsichtsrat'], ['Aufsichtsrat']),
    mixedVt: await file(folders.mixed.id, marker('DateiGemischtVT'), ['Vertreter'], ['Vertreter']),
    mixedBoth: await file(
      folders.mixed.id,
      marker('DateiGemischtBeide'),
      ['Aufsichtsrat', 'Vertreter'],
      ['Aufsichtsrat', 'Vertreter'],
    ),
  };
  const events = {
    ar: await event(marker('EventAR'), ['Aufsichtsrat'], ['Aufsichtsrat']),
    vt: await event(marker('EventVT'), ['Vertreter'], ['Vertreter']),
    both: await event(marker('EventBeide'), ['Aufsichtsrat', 'Vertreter'], ['Aufsichtsrat', 'Vertreter']),
  };

  // Gremien (decision 189), as an admin makes them: the Gremium, its Amtsperiode (which holds the
  // test clock's day), its members. A membership gives the Gremium's role (`via_committee`).
  const committee = async (name: string, kind = 'ausschuss'): Promise<Committee> => {
    const res = await su({ method: 'POST', url: '/api/v1/committees', payload: { name, kind } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as Committee;
  };
  const term = async (committeeId: number, start: string, end: string): Promise<Term> => {
    const res = await su({
      method: 'POST',
      url: `/api/v1/committees/${committeeId}/terms`,
      payload: { start, end },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as Term;
  };
  const member = async (committeeId: number, body: Record<string, unknown>): Promise<Membership> => {
    const res = await su({ method: 'POST', url: `/api/v1/committees/${committeeId}/members`, payload: body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as Membership;
  };
  /** An account made by an admin (it needs a role; Vertreter shows nothing of the Gremien). */
  const account = async (lastname: string, email: string) => {
    const res = await su({
      method: 'POST',
      url: '/api/v1/user',
      payload: { title: 'Frau', firstname: 'Gremia', lastname, email, roles: ['Vertreter'] },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().user.id as number;
  };
  const worldCommittee = async (label: string, kind?: string): Promise<WorldCommittee> => {
    const created = await committee(marker(label), kind);
    expect(created.folder, created.name).not.toBeNull();
    const current = await term(created.id, '2026-01-01', '2030-12-31');
    return {
      id: created.id,
      name: created.name,
      folderId: created.folder!.id,
      termId: current.id,
      memberships: [],
    };
  };
  const committees = {
    ar: await worldCommittee('GremiumAR'),
    vt: await worldCommittee('GremiumVT'),
  } as World['committees'];
  const listed = await su({ method: 'GET', url: '/api/v1/committees' });
  committees.seeded = (listed.json().data as Committee[]).find((c) => c.name === 'Aufsichtsrat')!.id;
  const join = async (c: WorldCommittee, userId: number, fn: string) => {
    const created = await member(c.id, { term_id: c.termId, user_id: userId, function: fn });
    expect(created.active, `Mitgliedschaft in ${c.name}`).toBe(true);
    c.memberships.push(created.id);
    return created.id;
  };
  await join(committees.ar, users.aufsichtsrat.id, 'vorsitz');
  await join(committees.vt, users.vertreter.id, 'mitglied');
  const worldMember = async (label: string): Promise<WorldMember> => {
    const lastname = marker(label);
    const email = `${marker('gremienpost').toLowerCase()}@example.org`;
    const id = await account(lastname, email);
    return { id, lastname, email, membershipId: await join(committees.ar, id, 'mitglied') };
  };
  const members = { hidden: await worldMember('GremiumMitglied'), shared: await worldMember('GremiumOffen') };
  // The shared member allows fellow members to see the address, on its own account page.
  const allow = await t.app.inject({
    method: 'PUT',
    url: '/api/v1/account',
    headers: { authorization: `Bearer ${await sessionFor(t, members.shared.id)}` },
    payload: { email_visible_to_committees: true },
  });
  expect(allow.statusCode, allow.body).toBe(200);

  const secrets: Secret[] = [
    { name: 'Ordner AR', texts: [folders.ar.title], visibleTo: seenBy('aufsichtsrat') },
    { name: 'Ordner AR/VT', texts: [folders.arVt.title], visibleTo: seenBy() },
    { name: 'Ordner VT', texts: [folders.vt.title], visibleTo: seenBy('vertreter') },
    { name: 'Ordner gemischt', texts: [folders.mixed.title], visibleTo: seenBy('aufsichtsrat', 'vertreter') },
    { name: 'Ordner gemischt/AR', texts: [folders.mixedAr.title], visibleTo: seenBy('aufsichtsrat') },
    { name: 'Ordner gemischt/VT', texts: [folders.mixedVt.title], visibleTo: seenBy('vertreter') },
    { name: 'Datei AR', texts: [files.ar.title, files.ar.external], visibleTo: seenBy('aufsichtsrat') },
    { name: 'Datei AR/VT', texts: [files.arVt.title, files.arVt.external], visibleTo: seenBy() },
    { name: 'Datei VT', texts: [files.vt.title, files.vt.external], visibleTo: seenBy('vertreter') },
    {
      name: 'Datei VT im AR-Ordner',
      texts: [files.vtInAr.title, files.vtInAr.external],
      visibleTo: seenBy('aufsichtsrat'),
    },
    {
      name: 'Datei gemischt/AR',
      texts: [files.mixedAr.title, files.mixedAr.external],
      visibleTo: seenBy('aufsichtsrat'),
    },
    {
      name: 'Datei gemischt/VT',
      texts: [files.mixedVt.title, files.mixedVt.external],
      visibleTo: seenBy('vertreter'),
    },
    {
      name: 'Datei gemischt/beide',
      texts: [files.mixedBoth.title, files.mixedBoth.external],
      visibleTo: seenBy('aufsichtsrat', 'vertreter'),
    },
    { name: 'Event AR', texts: [events.ar.title, events.ar.external], visibleTo: seenBy('aufsichtsrat') },
    { name: 'Event VT', texts: [events.vt.title, events.vt.external], visibleTo: seenBy('vertreter') },
    {
      name: 'Event beide',
      texts: [events.both.title, events.both.external],
      visibleTo: seenBy('aufsichtsrat', 'vertreter'),
    },
    // A Gremium's name (also its role's and its folder's) and its members only to its members.
    { name: 'Gremium AR', texts: [committees.ar.name], visibleTo: seenBy('aufsichtsrat') },
    { name: 'Gremium VT', texts: [committees.vt.name], visibleTo: seenBy('vertreter') },
    { name: 'Gremiumsmitglied', texts: [members.hidden.lastname], visibleTo: seenBy('aufsichtsrat') },
    // Not shown to fellow members: admins only.
    { name: 'Adresse des Gremiumsmitglieds', texts: [members.hidden.email], visibleTo: seenBy() },
    {
      name: 'Gremiumsmitglied mit sichtbarer Adresse',
      texts: [members.shared.lastname, members.shared.email],
      visibleTo: seenBy('aufsichtsrat'),
    },
    // Other people's accounts are no business of members: only admins see them.
    ...PRINCIPALS.filter((key) => key !== 'anonymous').map((key) => ({
      name: `Konto ${key}`,
      texts: [users[key].lastname, users[key].email],
      visibleTo: seenBy(key),
    })),
  ];

  // Deleted into the Papierkorb: from now on no principal may find them anywhere but an admin in
  // the Papierkorb and the audit log. Without notifications, so no mail names them either.
  const trashFolder = await folder(folders.mixed.id, marker('PapierkorbOrdner'), [
    'Aufsichtsrat',
    'Vertreter',
  ]);
  const trash: WorldTrash = {
    file: await file(folders.mixed.id, marker('PapierkorbDatei'), ['Aufsichtsrat', 'Vertreter']),
    folder: trashFolder,
    folderChild: await folder(trashFolder.id, marker('PapierkorbUnterordner'), ['Aufsichtsrat', 'Vertreter']),
    folderFile: await file(trashFolder.id, marker('PapierkorbOrdnerDatei'), ['Aufsichtsrat', 'Vertreter']),
    event: await event(marker('PapierkorbEvent'), ['Aufsichtsrat', 'Vertreter']),
  };
  for (const url of [
    `/api/v1/files/${trash.file.id}`,
    `/api/v1/folders/${trash.folder.id}`,
    `/api/v1/events/${trash.event.id}`,
  ]) {
    const res = await su({ method: 'DELETE', url });
    expect(res.statusCode, res.body).toBe(204);
  }
  secrets.push(
    ...Object.entries(trash).map(([key, item]: [string, WorldFolder | WorldFile | WorldEvent]) => ({
      name: `Papierkorb ${key}`,
      texts: [item.title, ...('external' in item ? [item.external] : [])],
      visibleTo: seenBy('aufsichtsrat', 'vertreter'),
      trashed: true,
      ...(key === 'event' ? { event: true } : {}),
    })),
  );

  // The stripped principal uses its roles once, then loses all of them (the API keeps at least
  // one role, so the removal goes straight to the table, as a concurrent admin change would).
  const before = await inject('stripped', { method: 'GET', url: `/api/v1/files/${files.ar.id}` });
  expect(before.statusCode).toBe(200);
  expect((await inject('stripped', { method: 'GET', url: '/api/v1/user' })).statusCode).toBe(200);
  await t.flushMail();
  await t.db.kysely.deleteFrom('user_roles').where('user_id', '=', users.stripped.id).execute();
  const strippedAt = t.mail.sent.length;

  const newSecret = (label: string, visibleTo: PrincipalKey[] = ['aufsichtsrat']) => {
    const text = marker(label);
    secrets.push({ name: label, texts: [text], visibleTo: seenBy(...visibleTo) });
    return text;
  };
  // Disposable objects live below /Aufsichtsrat with its role: secrets for the others too.
  const disposables = new Map<string, Secret>();
  const remember = <T extends { id: number; external?: string }>(
    kind: 'file' | 'folder' | 'event',
    item: T,
    title: string,
  ): T => {
    const secret = secrets.find((candidate) => candidate.texts[0] === title)!;
    secret.texts.push(...(item.external ? [item.external] : []));
    disposables.set(`${kind}:${item.id}`, secret);
    if (kind === 'event') secret.event = true;
    return item;
  };
  const markTrashed: World['markTrashed'] = (kind, id, inTrash = true) => {
    const secret = disposables.get(`${kind}:${id}`);
    if (!secret) throw new Error(`Kein Wegwerfobjekt ${kind} ${id}`);
    secret.trashed = inTrash;
  };
  // Beschlüsse (decision 190): an Aufsichtsrat whose members are the three personas, and a Gremium
  // of nobody in the world but its own Vorsitz (an account with an authenticator app). The
  // Super-Admin writes and opens the motions, the personas vote, the Vorsitz establishes.
  const boardCommittee = await worldCommittee('AufsichtsratBeschluesse', 'aufsichtsrat');
  await join(boardCommittee, users.vorsitz.id, 'vorsitz');
  await join(boardCommittee, users.schriftfuehrung.id, 'schriftfuehrung');
  await join(boardCommittee, users.mitglied.id, 'mitglied');
  const foreignCommittee = await worldCommittee('GremiumFremd');
  const foreignChairName = marker('FremderVorsitz');
  const foreignChair = await createTotpUser(t, {
    lastname: foreignChairName,
    email: `${foreignChairName.toLowerCase()}@example.org`,
  });
  await join(foreignCommittee, foreignChair.id, 'vorsitz');
  const boardFileTitle = marker('DateiBeschlussgremium');
  const boardFile = await file(boardCommittee.folderId, boardFileTitle, [boardCommittee.name]);
  secrets.push(
    { name: 'Beschluss-Gremium', texts: [boardCommittee.name], visibleTo: seenBy(...PERSONAS) },
    { name: 'Fremdes Gremium', texts: [foreignCommittee.name], visibleTo: seenBy() },
    { name: 'Fremder Vorsitz', texts: [foreignChairName, foreignChair.email], visibleTo: seenBy() },
    {
      name: 'Datei des Beschluss-Gremiums',
      texts: [boardFile.title, boardFile.external],
      visibleTo: seenBy(...PERSONAS),
    },
    // Fellow members see each other's names (electorate, names of a namentlich vote), not addresses.
    ...PERSONAS.map((key) => ({
      name: `Konto ${key}`,
      texts: [users[key].lastname],
      visibleTo: seenBy(...PERSONAS),
    })),
    ...PERSONAS.map((key) => ({ name: `Adresse ${key}`, texts: [users[key].email], visibleTo: seenBy(key) })),
  );
  const motionIn = async (committeeId: number, label: string, visibleTo: PrincipalKey[], extra = {}) => {
    const title = newSecret(label, visibleTo);
    const res = await su({
      method: 'POST',
      url: '/api/v1/motions',
      payload: {
        committee_id: committeeId,
        title,
        text: `Das Gremium beschließt: ${title}.`,
        mode: 'offen',
        ...extra,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    return { id: res.json().data.id as number, title };
  };
  const motionStep = async (
    as: PrincipalKey | TestUser,
    id: number,
    step: string,
    payload?: Record<string, unknown>,
  ) => {
    const options: InjectOptions = {
      method: 'POST',
      url: `/api/v1/motions/${id}/${step}`,
      ...(payload ? { payload } : {}),
    };
    const res =
      typeof as === 'string'
        ? await inject(as, options)
        : await t.app.inject({ ...options, headers: as.headers });
    expect(res.statusCode, `${step}: ${res.body}`).toBe(200);
    return res.json() as { data: { id: number } };
  };
  const freshMotion = async (state: FreshMotionState = 'entwurf', label = 'Beschlussvorlage') => {
    const { id } = await motionIn(boardCommittee.id, label, [...PERSONAS]);
    if (state === 'entwurf') return id;
    await motionStep(
      'superAdmin',
      id,
      'open',
      state === 'umlauf' ? { procedure: 'umlauf', deadline: UMLAUF_DEADLINE } : { procedure: 'sitzung' },
    );
    if (state === 'geschlossen') await motionStep('superAdmin', id, 'close');
    return id;
  };
  const chairCode = () => freshCode(t, users.vorsitz.secret);
  const { id: establishedMotion, title: establishedTitle } = await motionIn(
    boardCommittee.id,
    'Beschluss',
    [...PERSONAS],
    { mode: 'namentlich', file_ids: [files.ar.id, boardFile.id] },
  );
  await motionStep('superAdmin', establishedMotion, 'open', { procedure: 'sitzung' });
  for (const key of PERSONAS) await motionStep(key, establishedMotion, 'votes', { choice: 'ja' });
  await motionStep('superAdmin', establishedMotion, 'close');
  const established = await motionStep('vorsitz', establishedMotion, 'establish', {
    code: await chairCode(),
  });
  const { id: foreignEstablished } = await motionIn(foreignCommittee.id, 'FremderBeschluss', []);
  await motionStep('superAdmin', foreignEstablished, 'open', { procedure: 'sitzung' });
  await motionStep('superAdmin', foreignEstablished, 'close');
  const foreignResolution = await motionStep(foreignChair, foreignEstablished, 'establish', {
    code: await freshCode(t, foreignChair.secret),
  });
  const { id: goneMotion } = await motionIn(boardCommittee.id, 'GeloeschteVorlage', [...PERSONAS]);
  const removed = await su({ method: 'DELETE', url: `/api/v1/motions/${goneMotion}` });
  expect(removed.statusCode, removed.body).toBe(200);
  const board: WorldBoard = {
    committee: boardCommittee,
    foreign: foreignCommittee,
    motions: {
      draft: await freshMotion('entwurf', 'Entwurf'),
      running: await freshMotion('abstimmung', 'LaufendeAbstimmung'),
      closed: await freshMotion('geschlossen', 'GeschlosseneAbstimmung'),
      established: establishedMotion,
      foreign: (await motionIn(foreignCommittee.id, 'FremdeVorlage', [])).id,
      gone: goneMotion,
    },
    resolutions: { established: established.data.id, foreign: foreignResolution.data.id },
    file: boardFile,
    establishedTitle,
    code: chairCode,
  };

  const fresh: World['fresh'] = {
    motion: (state) => freshMotion(state),
    folder: async () => {
      const title = newSecret('Wegwerfordner');
      return remember('folder', await folder(folders.ar.id, title), title);
    },
    file: async () => {
      const title = newSecret('Wegwerfdatei');
      return remember('file', await file(folders.ar.id, title, ['Aufsichtsrat']), title);
    },
    event: async () => {
      const title = newSecret('Wegwerfevent');
      return remember('event', await event(title, ['Aufsichtsrat']), title);
    },
    async user() {
      const lastname = newSecret('Wegwerfkonto', []);
      const email = `${lastname.toLowerCase()}@example.org`;
      secrets.find((secret) => secret.texts[0] === lastname)!.texts.push(email);
      const res = await su({
        method: 'POST',
        url: '/api/v1/user',
        payload: { title: 'Herr', firstname: 'Wegwerf', lastname, email, roles: ['Vertreter'] },
      });
      expect(res.statusCode, res.body).toBe(201);
      return { id: res.json().user.id as number, email };
    },
    async committee() {
      const name = newSecret('Wegwerfgremium', []);
      return { id: (await committee(name)).id, name };
    },
    async term({ archived = false } = {}) {
      const { id: committeeId } = await fresh.committee();
      const created = archived
        ? await term(committeeId, '2020-01-01', '2023-12-31')
        : await term(committeeId, '2026-01-01', '2030-12-31');
      if (archived) {
        // The membership run archives what has ended (decision 189), as every minute in a portal.
        await t.app.memberships.run();
        const listed = await su({ method: 'GET', url: `/api/v1/committees/${committeeId}/terms` });
        expect((listed.json().data as Term[]).find((item) => item.id === created.id)?.archived).toBe(true);
      }
      return { id: created.id, committeeId };
    },
    async membership({ successor = false } = {}) {
      const { id: termId, committeeId } = await fresh.term();
      const holder = await fresh.user();
      if (!successor) {
        const created = await member(committeeId, {
          term_id: termId,
          user_id: holder.id,
          function: 'mitglied',
        });
        return { id: created.id, committeeId, termId };
      }
      const ended = await member(committeeId, {
        term_id: termId,
        user_id: holder.id,
        function: 'mitglied',
        until: '2026-06-30',
      });
      const substitute = await fresh.user();
      await member(committeeId, {
        term_id: termId,
        user_id: substitute.id,
        function: 'ersatzmitglied',
        rank: 1,
      });
      return { id: ended.id, committeeId, termId };
    },
  };

  return {
    t,
    users,
    folders,
    files,
    events,
    committees,
    members,
    board,
    trash,
    secrets,
    markTrashed,
    newSecret,
    strippedAt,
    headers,
    async freshHeaders(p): Promise<Record<string, string>> {
      if (p === 'anonymous') return {};
      return { authorization: `Bearer ${await sessionFor(t, users[p].id)}` };
    },
    inject,
    fresh,
  };
}

/**
 * Texts that must not appear anywhere in what this principal receives (body and headers). What is
 * in the Papierkorb is hidden from everyone; `trashView` marks an answer of the Papierkorb or the
 * audit log, where admins do see it; `cancelledView` an answer with calendar entries, where a
 * deleted event reaches those who could see it as cancelled (decision 130).
 */
export function hiddenTexts(
  world: World,
  p: PrincipalKey,
  trashView = false,
  cancelledView = false,
): { name: string; text: string }[] {
  const cancelledFor = (secret: Secret) => cancelledView && secret.event === true && secret.visibleTo.has(p);
  return world.secrets
    .filter((secret) =>
      secret.trashed
        ? !(trashView && isAdminPrincipal(p)) && !cancelledFor(secret)
        : !secret.visibleTo.has(p),
    )
    .flatMap((secret) => secret.texts.map((text) => ({ name: secret.name, text })));
}

/** Fails when an answer carries a title, key or name hidden from the principal. */
export function expectNoLeak(
  world: World,
  p: PrincipalKey,
  res: LightMyRequestResponse,
  what: string,
  trashView = false,
  cancelledView = false,
) {
  expectNoLeakIn(world, p, `${JSON.stringify(res.headers)}\n${res.body}`, what, trashView, cancelledView);
}

/**
 * The same check on text taken out of an answer, where its bytes hide it (the pages and bookmarks
 * of a PDF, whose content streams are compressed).
 */
export function expectNoLeakIn(
  world: World,
  p: PrincipalKey,
  seen: string,
  what: string,
  trashView = false,
  cancelledView = false,
) {
  const leaked = hiddenTexts(world, p, trashView, cancelledView).filter(({ text }) => seen.includes(text));
  expect(
    leaked.map(({ name }) => name),
    `${what}: verborgene Inhalte in der Antwort an ${p}`,
  ).toEqual([]);
}
