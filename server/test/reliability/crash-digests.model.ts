import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { fileForm, sleep, type ApiClient } from './portal-process.ts';
import type { Inspector } from './inspect.ts';
import { fileChanges, type CrashRandom, type PortalPlace } from './crash-rounds.ts';

/**
 * The model of crash-digests.test.ts: who is owed which digest by the rules of decision 131, the
 * members and queued items each round adds, and the moments at which a round kills the digest run.
 */

/** New members per round; enough that a run lasts a good part of a second. */
const MEMBERS_PER_ROUND = 60;
const ROLE = 'Vertreter';
type Kind = 'file' | 'event';
type Frequency = 'sofort' | 'taeglich' | 'woechentlich' | 'nie';
type Cadence = 'daily' | 'weekly';
export const CADENCES: readonly Cadence[] = ['daily', 'weekly'];
/** "sofort" or "nie" chosen after something was queued: the daily digest sends or drops it. */
const FREQUENCIES: readonly Frequency[] = [
  'taeglich',
  'taeglich',
  'woechentlich',
  'woechentlich',
  'sofort',
  'nie',
];
export const DIGEST_SUBJECT: Record<Cadence, string> = {
  daily: 'Tägliche Zusammenfassung aus dem Gremienportal: ',
  weekly: 'Wöchentliche Zusammenfassung aus dem Gremienportal: ',
};

interface QueuedItem {
  kind: Kind;
  object_id: number;
  action: 'created' | 'updated';
}

interface Member {
  id: number;
  email: string;
  notify: Record<Kind, Frequency>;
  queued: QueuedItem[];
}

/** What the digests tell about, and the members the rounds added. */
export interface DigestModel {
  /** The objects a Vertreter may see, as `kind:id`. */
  visible: Set<string>;
  objects: { kind: Kind; object_id: number }[];
  members: Member[];
  memberByEmail: Map<string, Member>;
}

const itemKey = (item: { kind: Kind; object_id: number }) => `${item.kind}:${item.object_id}`;
export const sortedKeys = (items: readonly QueuedItem[]) =>
  items.map((item) => `${itemKey(item)}:${item.action}`).sort();

/**
 * What the member's digest of `cadence` owes them, by the rules of decision 131: weekly covers the
 * kinds they want weekly, daily all others ("nie" is emptied without a mail); it lists each object
 * they may still see once. `due` says whether a digest of this cadence is to be built at all.
 */
export function owed(member: Member, cadence: Cadence, visible: ReadonlySet<string>) {
  const kinds = (['file', 'event'] as const).filter(
    (kind) => (member.notify[kind] === 'woechentlich') === (cadence === 'weekly'),
  );
  const covered = member.queued.filter((item) => kinds.includes(item.kind));
  const items = [
    ...new Set(covered.filter((item) => member.notify[item.kind] !== 'nie').map((item) => itemKey(item))),
  ]
    .filter((key) => visible.has(key))
    .sort();
  return { due: covered.length > 0, kinds, covered, items };
}

/** The objects a digest mail lists, from its links. */
export const linkedItems = (text: string) =>
  [...text.matchAll(/\/(files|events)\/show\/(\d+)/g)]
    .map((match) => `${match[1] === 'files' ? 'file' : 'event'}:${match[2]}`)
    .sort();

/**
 * What the digests tell about: documents and events of the Vertreter, and some of the
 * Aufsichtsrat, which a Vertreter's digest must never name (queued, then hidden: decision 131).
 */
export async function publishDigestContent(admin: ApiClient): Promise<DigestModel> {
  const visible = new Set<string>();
  const objects: { kind: Kind; object_id: number }[] = [];
  for (const [i, roles, folderId] of [
    [1, [ROLE], 3],
    [2, [ROLE], 3],
    [3, [ROLE], 4],
    [4, ['Aufsichtsrat'], 2],
  ] as const) {
    const res = await admin.request(
      'POST',
      '/files',
      fileForm({ title: `Zusammenfassung ${i}`, roles: [...roles], folderId }, randomBytes(2048)),
    );
    expect(res.status, await res.clone().text()).toBe(201);
    const { file } = (await res.json()) as { file: { id: number } };
    objects.push({ kind: 'file', object_id: file.id });
    if (roles[0] === ROLE) visible.add(`file:${file.id}`);
  }
  for (const [i, role] of [
    [1, ROLE],
    [2, ROLE],
    [3, 'Aufsichtsrat'],
  ] as const) {
    const res = await admin.request('POST', '/events', {
      title: `Versammlung ${i}`,
      roles: [role],
      start: '2027-03-10T18:00',
      end: '2027-03-10T20:00',
      location: 'Saal 1, Hauptstraße 5',
      description: 'Ordentliche Versammlung mit Tagesordnung.',
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const { event } = (await res.json()) as { event: { id: number } };
    objects.push({ kind: 'event', object_id: event.id });
    if (role === ROLE) visible.add(`event:${event.id}`);
  }
  return { visible, objects, members: [], memberByEmail: new Map() };
}

/**
 * With the portal down: new members and what waits for their digests, queued ten days ago, so
 * that this week's and today's digest are due; leases of mails held by the killed process run
 * out (as two minutes would).
 */
export async function addMembers(
  place: PortalPlace,
  model: DigestModel,
  round: number,
  { random, between, pick }: CrashRandom,
) {
  const db = place.inspect(true);
  try {
    const roleId = (
      await db.kysely.selectFrom('roles').select('id').where('name', '=', ROLE).executeTakeFirstOrThrow()
    ).id;
    const queuedAt = new Date(Date.now() - 10 * 86_400_000).toISOString();
    for (let i = 0; i < MEMBERS_PER_ROUND; i += 1) {
      const notify = { file: pick(FREQUENCIES), event: pick(FREQUENCIES) };
      const email = `mitglied-${round}-${i}@example.org`;
      const { id } = await db.kysely
        .insertInto('users')
        .values({
          title: 'Frau',
          firstname: 'Mia',
          lastname: `Mitglied ${round}-${i}`,
          email,
          password_hash: null,
          created_at: queuedAt,
          updated_at: queuedAt,
          notify_files: notify.file,
          notify_events: notify.event,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db.kysely.insertInto('user_roles').values({ user_id: id, role_id: roleId }).execute();
      const queued = Array.from({ length: between(1, 6) }, (): QueuedItem => {
        const object = pick(model.objects);
        return { ...object, action: random() < 0.3 ? 'updated' : 'created' };
      });
      await db.kysely
        .insertInto('notification_queue')
        .values(queued.map((item) => ({ ...item, user_id: id, queued_at: queuedAt })))
        .execute();
      const member = { id, email, notify, queued };
      model.members.push(member);
      model.memberByEmail.set(email, member);
    }
    await releaseLeases(db);
  } finally {
    await db.close();
  }
}

/** Leases of mails held by a killed process run out, as two minutes would. */
export async function releaseLeases(db: Inspector) {
  await db.kysely
    .updateTable('outbox')
    .set({ locked_until: '2000-01-01T00:00:00.000Z' })
    .where('sent_at', 'is', null)
    .where('locked_until', 'is not', null)
    .execute();
}

/** Claims and mails of this portal, read in one transaction. */
export async function digestState(db: Inspector) {
  return db.kysely.transaction().execute(async (trx) => ({
    claims: await trx
      .selectFrom('notification_digests')
      .select(['user_id', 'cadence', 'period', 'items'])
      .execute(),
    queue: await trx
      .selectFrom('notification_queue')
      .select(['user_id', 'kind', 'object_id', 'action'])
      .execute(),
    outbox: await trx
      .selectFrom('outbox')
      .select(['id', 'to_address', 'subject', 'text_body', 'sent_at'])
      .orderBy('id')
      .execute(),
  }));
}

export async function countClaims(inspect: () => Inspector): Promise<number> {
  const db = inspect();
  try {
    const row = await db.kysely
      .selectFrom('notification_digests')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  } finally {
    await db.close();
  }
}

/**
 * When to kill the digest run, prepared before the portal starts. Rounds 1, 4: when the n-th new
 * digest is claimed; 2, 5: a random time after the run's first claim; 3, 6: at the n-th change in
 * the mail folder, which is near the window between handing a mail to the transport and marking it
 * sent.
 */
export async function digestKillMoment(
  round: number,
  place: { mailDir: string; inspect: () => Inspector },
  claimsBefore: number,
  { between }: CrashRandom,
): Promise<() => Promise<void>> {
  /** Until `wanted` digests are claimed, or 10 s at most (the checks then say what is wrong). */
  const claimsReach = async (wanted: number) => {
    const db = place.inspect();
    try {
      for (const deadline = Date.now() + 10_000; Date.now() < deadline; await sleep(3)) {
        const row = await db.kysely
          .selectFrom('notification_digests')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        if (Number(row.n) >= wanted) return;
      }
    } finally {
      await db.close();
    }
  };
  if (round % 3 === 1) {
    const wanted = claimsBefore + between(1, MEMBERS_PER_ROUND);
    return () => claimsReach(wanted);
  }
  if (round % 3 === 0) {
    // Watching from now: the sender starts with the portal.
    const changed = fileChanges(place.mailDir, between(1, 2 * MEMBERS_PER_ROUND));
    return () => changed;
  }
  const delay = between(0, 80);
  return async () => {
    await claimsReach(claimsBefore + 1);
    await sleep(delay);
  };
}
