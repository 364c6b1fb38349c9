// Over 300 lines: one test of 20 SIGKILL rounds; its workers, kill moments and after-kill checks all read and
// update one model of acknowledged changes, which split files would have to pass around.
import { sql } from 'kysely';
import { randomBytes, randomInt } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  clientFor,
  fileForm,
  signIn,
  sleep,
  startPortal,
  type ApiClient,
  type PortalProcess,
} from './portal-process.ts';
import type { TrashSnapshot } from '../../src/features/trash/trash.snapshot.ts';
import { fileChanges } from './crash-rounds.ts';
import {
  createPostgresDatabase,
  deliveredMailFiles,
  expectStoredConsistently,
  openInspector,
  referencedKeys,
  sha256,
  sha256OfFile,
  storageContents,
  storedRows,
} from './inspect.ts';

/**
 * Crash safety (issue "Proof of security and reliability", item 4): the real server process is
 * killed with SIGKILL at a random moment while several clients upload, replace and delete
 * documents with notifications, restore them from the Papierkorb and purge them from it (issue
 * 17; the client is the initial Super-Admin). After each kill the data on disk is checked as the
 * dead process left it; after the restart, what the start-up sweep left. The test keeps its own
 * record of every acknowledged change; a request without an answer may or may not have taken
 * effect, but only as a whole.
 */

const ROUNDS = 20;
const WORKERS = 4;
/** `/Mitgliedervertreter`: protected folder of the role Vertreter. */
const FOLDER_ID = 3;
const ROLE = 'Vertreter';
const MAX_FILES_PER_WORKER = 6;
const CREATED_SUBJECT = 'Neues Dokument im Gremienportal: ';
const UPDATED_SUBJECT = 'Aktualisiertes Dokument im Gremienportal: ';
const RESET_SUBJECT = 'Passwort zurücksetzen – Gremienportal';
/** Forgot-password requests for a known account per round: below the limit of 5 per client and hour. */
const RESETS_PER_ROUND = 4;
const UNKNOWN_EMAIL = 'niemand@example.org';

/** Live, in the Papierkorb (a trash item holds its rows), or purged (nothing is left). */
type FileState = 'live' | 'trashed' | 'purged';

interface FileModel {
  id: number;
  worker: number;
  title: string;
  /** The content the row must show. */
  sha: string;
  /** Contents it had before, oldest first: each replacement keeps the old one as a version. */
  versions: string[];
  /** Committed replacements; each one queued one notification. */
  updates: number;
  state: FileState;
}

type Operation =
  | { kind: 'create'; worker: number; title: string; sha: string }
  | { kind: 'replace'; file: FileModel; sha: string }
  | { kind: 'delete'; file: FileModel }
  | { kind: 'restore'; file: FileModel }
  | { kind: 'purge'; file: FileModel };

interface Stats {
  created: number;
  replaced: number;
  deleted: number;
  restored: number;
  purged: number;
  interrupted: { create: number; replace: number; delete: number; restore: number; purge: number };
  /** Interrupted replacements whose row still showed the old content after the crash. */
  replacementsKeptOld: number;
  replacementsCommitted: number;
  /** Forgot-password requests for the admin: answered 200, and left without an answer by a kill. */
  resets: { answered: number; interrupted: number };
}

const baseUrl = process.env.TEST_DATABASE_URL;

describe(`crash safety: SIGKILL during uploads, replacements, deletes, restores and purges (${baseUrl ? 'PostgreSQL' : 'SQLite'})`, () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it(`keeps database, storage and outbox consistent over ${ROUNDS} kills`, { timeout: 300_000 }, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'gremienportal-crash-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const postgres = baseUrl ? await createPostgresDatabase(baseUrl, 'gp_crash') : undefined;
    if (postgres) cleanups.push(postgres.drop);
    const target = postgres ? { databaseUrl: postgres.url } : { sqliteFile: join(dataDir, 'portal.sqlite') };
    const filesDir = join(dataDir, 'files');
    const mailDir = join(dataDir, 'mail');
    const start = async () => {
      const started = await startPortal({ dataDir, ...(postgres ? { databaseUrl: postgres.url } : {}) });
      cleanups.push(() => started.kill());
      return started;
    };

    let portal: PortalProcess = await start();
    const admin = await signIn(portal.url);
    // The one recipient of every notification: the initial Super-Admin holds no Vertreter role.
    const invited = await admin.request('POST', '/user', {
      title: 'Frau',
      firstname: 'Vera',
      lastname: 'Vertreterin',
      email: 'vera.vertreterin@example.org',
      roles: [ROLE],
    });
    expect(invited.status, await invited.clone().text()).toBe(201);
    // Vera chose a mail per document ("sofort", decision 131): the single notification mails are checked.
    const settings = openInspector(target, true);
    await settings.kysely
      .updateTable('users')
      .set({ notify_files: 'sofort' })
      .where('email', '=', 'vera.vertreterin@example.org')
      .execute();
    await settings.close();

    const files = new Map<number, FileModel>();
    const stats: Stats = {
      created: 0,
      replaced: 0,
      deleted: 0,
      restored: 0,
      purged: 0,
      interrupted: { create: 0, replace: 0, delete: 0, restore: 0, purge: 0 },
      replacementsKeptOld: 0,
      replacementsCommitted: 0,
      resets: { answered: 0, interrupted: 0 },
    };
    let knownOutboxIds = new Set<number>();
    let titleCounter = 0;

    /** One client: changes only its own files, one request at a time, until the kill. */
    async function worker(
      index: number,
      client: ApiClient,
      run: { killing: boolean; signal: AbortSignal },
      pending: Set<Operation>,
      failures: string[],
    ) {
      const { signal } = run;
      while (!run.killing) {
        const mine = [...files.values()].filter((file) => file.worker === index && file.state === 'live');
        const binned = [...files.values()].filter(
          (file) => file.worker === index && file.state === 'trashed',
        );
        const roll = Math.random();
        // Mostly small documents, so that much of a request is database work; some large ones.
        const content = randomBytes(
          Math.random() < 0.7 ? randomInt(1024, 32 * 1024) : randomInt(64 * 1024, 768 * 1024),
        );
        let op: Operation;
        if (mine.length < 2 || (roll < 0.35 && mine.length < MAX_FILES_PER_WORKER)) {
          titleCounter += 1;
          op = { kind: 'create', worker: index, title: `Absturztest ${titleCounter}`, sha: sha256(content) };
        } else if (roll < 0.55 || (roll >= 0.75 && binned.length === 0)) {
          op = { kind: 'replace', file: mine[randomInt(mine.length)]!, sha: sha256(content) };
        } else if (roll < 0.75) {
          op = { kind: 'delete', file: mine[randomInt(mine.length)]! };
        } else if (roll < 0.88) {
          op = { kind: 'restore', file: binned[randomInt(binned.length)]! };
        } else {
          op = { kind: 'purge', file: binned[randomInt(binned.length)]! };
        }
        pending.add(op);
        try {
          if (op.kind === 'create') {
            const res = await client.request(
              'POST',
              '/files',
              fileForm({ title: op.title, roles: [ROLE], notify: [ROLE], folderId: FOLDER_ID }, content),
              signal,
            );
            const body = await res.text();
            if (res.status !== 201) throw new UnexpectedAnswer(`Upload: ${res.status} ${body}`);
            const { file } = JSON.parse(body) as { file: { id: number } };
            files.set(file.id, {
              id: file.id,
              worker: index,
              title: op.title,
              sha: op.sha,
              versions: [],
              updates: 0,
              state: 'live',
            });
            stats.created += 1;
          } else if (op.kind === 'replace') {
            const res = await client.request(
              'PUT',
              `/files/${op.file.id}`,
              fileForm({ notify: [ROLE] }, content),
              signal,
            );
            const body = await res.text();
            if (res.status !== 200) throw new UnexpectedAnswer(`Ersetzen: ${res.status} ${body}`);
            replaced(op.file, op.sha);
            stats.replaced += 1;
          } else if (op.kind === 'delete') {
            const res = await client.request('DELETE', `/files/${op.file.id}`, undefined, signal);
            if (res.status !== 204) throw new UnexpectedAnswer(`Löschen: ${res.status} ${await res.text()}`);
            op.file.state = 'trashed';
            stats.deleted += 1;
          } else if (op.kind === 'restore') {
            const res = await client.request('POST', `/trash/file/${op.file.id}/restore`, {}, signal);
            const body = await res.text();
            if (res.status !== 200) throw new UnexpectedAnswer(`Wiederherstellen: ${res.status} ${body}`);
            const { data } = JSON.parse(body) as { data: { title: string; folder_id: number } };
            // Titles are unique, and the folder stays: it comes back as it was.
            if (data.title !== op.file.title || data.folder_id !== FOLDER_ID) {
              throw new UnexpectedAnswer(`Wiederherstellen: ${body}`);
            }
            op.file.state = 'live';
            stats.restored += 1;
          } else {
            const res = await client.request('DELETE', `/trash/file/${op.file.id}`, undefined, signal);
            if (res.status !== 204)
              throw new UnexpectedAnswer(`Endgültig löschen: ${res.status} ${await res.text()}`);
            op.file.state = 'purged';
            stats.purged += 1;
          }
          pending.delete(op);
        } catch (error) {
          // Without an answer because of the kill, the outcome is open. An answer that was not
          // the expected one is a failure, whenever it came.
          if (run.killing && !(error instanceof UnexpectedAnswer)) return;
          failures.push(String(error));
          return;
        }
      }
    }

    /**
     * Beside the uploads: forgot-password requests for the admin and for an unknown address. Each
     * is stored when answered and handled by the background worker, which a kill may hit too.
     */
    async function resetRequester(
      run: { killing: boolean; signal: AbortSignal },
      failures: string[],
    ): Promise<void> {
      for (let i = 0; i < RESETS_PER_ROUND && !run.killing; i += 1) {
        for (const email of [ADMIN_EMAIL, UNKNOWN_EMAIL]) {
          try {
            const res = await fetch(`${portal.url}/api/v1/auth/forgot-password`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ email }),
              signal: run.signal,
            });
            if (res.status !== 200) throw new UnexpectedAnswer(`Passwort vergessen: ${res.status}`);
            if (email === ADMIN_EMAIL) stats.resets.answered += 1;
          } catch (error) {
            if (run.killing && !(error instanceof UnexpectedAnswer)) {
              if (email === ADMIN_EMAIL) stats.resets.interrupted += 1;
              return;
            }
            failures.push(String(error));
            return;
          }
        }
        await sleep(randomInt(20, 300));
      }
    }

    /** Load until a random moment, then SIGKILL; returns the requests left without an answer. */
    async function loadAndKill(round: number): Promise<Set<Operation>> {
      const client = clientFor(portal.url, admin.token);
      const controller = new AbortController();
      const run = { killing: false, signal: controller.signal };
      const pending = new Set<Operation>();
      const failures: string[] = [];
      const running = [
        ...Array.from({ length: WORKERS }, (_, i) => worker(i, client, run, pending, failures)),
        resetRequester(run, failures),
      ];
      await killMoment(round, filesDir);
      run.killing = true;
      await portal.kill();
      // Nothing can answer any more; end what the client still holds open.
      controller.abort();
      await Promise.all(running);
      // A failure names the portal's own error lines, so a 500 says where it came from.
      const errors =
        failures.length === 0
          ? ''
          : portal
              .output()
              .split('\n')
              .filter((line) => /"level":(50|60)/.test(line))
              .slice(-5)
              .join('\n');
      expect(failures, `Runde ${round}: Anfragen vor dem Abbruch gescheitert\n${errors}`).toEqual([]);
      return pending;
    }

    /** The data as the killed process left it: every interrupted request took effect fully or not at all. */
    async function checkAfterKill(round: number, pending: Set<Operation>) {
      const inspector = openInspector(target);
      try {
        const { rows, fileRoles, outbox, resetRequests, stored } = await inspector.kysely
          .transaction()
          .execute(async (trx) => ({
            rows: await trx
              .selectFrom('files')
              .select(['id', 'title', 'sha256', 'size_bytes', 'storage_key'])
              .orderBy('id')
              .execute(),
            fileRoles: await trx.selectFrom('file_roles').select('file_id').execute(),
            stored: await storedRows(trx),
            outbox: await trx
              .selectFrom('outbox')
              .select(['id', 'subject', 'text_body', 'sent_at', 'last_error'])
              .orderBy('id')
              .execute(),
            resetRequests: await trx.selectFrom('password_requests').select('email').execute(),
          }));
        const rowById = new Map(rows.map((row) => [row.id, row]));
        const where = `Runde ${round}`;
        const trashedFiles = new Map(
          stored.trashItems.filter((item) => item.kind === 'file').map((item) => [item.object_id, item]),
        );

        for (const op of pending) {
          if (op.kind === 'create') {
            stats.interrupted.create += 1;
            const row = rows.find((candidate) => candidate.title === op.title);
            if (!row) continue;
            expect(row.sha256, `${where}: unterbrochener Upload ${op.title}`).toBe(op.sha);
            files.set(row.id, {
              id: row.id,
              worker: op.worker,
              title: op.title,
              sha: op.sha,
              versions: [],
              updates: 0,
              state: 'live',
            });
          } else if (op.kind === 'replace') {
            stats.interrupted.replace += 1;
            const row = rowById.get(op.file.id);
            expect(row, `${where}: Datei ${op.file.id} verschwand beim Ersetzen`).toBeDefined();
            expect([op.file.sha, op.sha], `${where}: Inhalt von Datei ${op.file.id}`).toContain(row!.sha256);
            if (row!.sha256 === op.sha) {
              replaced(op.file, op.sha);
              stats.replacementsCommitted += 1;
            } else {
              stats.replacementsKeptOld += 1;
            }
          } else {
            // Into the Papierkorb, back out of it, or gone: the state the database shows, which
            // must be the old or the new one (the checks below see that it is exactly one).
            stats.interrupted[op.kind] += 1;
            const now: FileState = rowById.has(op.file.id)
              ? 'live'
              : trashedFiles.has(op.file.id)
                ? 'trashed'
                : 'purged';
            const allowed: Record<typeof op.kind, FileState[]> = {
              delete: ['live', 'trashed'],
              restore: ['trashed', 'live'],
              purge: ['trashed', 'purged'],
            };
            expect(allowed[op.kind], `${where}: Datei ${op.file.id} nach ${op.kind}`).toContain(now);
            op.file.state = now;
          }
        }

        const expected = [...files.values()].filter((file) => file.state === 'live');
        expect(
          rows.map((row) => row.id),
          `${where}: Dateizeilen`,
        ).toEqual(expected.map((file) => file.id).sort((a, b) => a - b));
        // The Papierkorb holds exactly the deleted documents not purged, each as it was.
        expect(
          [...trashedFiles.keys()].sort((a, b) => a - b),
          `${where}: Papierkorb`,
        ).toEqual(
          [...files.values()]
            .filter((file) => file.state === 'trashed')
            .map((file) => file.id)
            .sort((a, b) => a - b),
        );
        for (const [id, item] of trashedFiles) {
          const model = files.get(id)!;
          const snapshot = JSON.parse(item.snapshot) as TrashSnapshot;
          expect(snapshot.files.map((file) => [file.id, file.title, file.sha256])).toEqual([
            [id, model.title, model.sha],
          ]);
          expect(
            snapshot.versions.map((version) => version.sha256),
            `${where}: Versionen der Datei ${id} im Papierkorb`,
          ).toEqual(model.versions);
        }
        for (const file of expected) {
          expect(
            stored.versions.filter((version) => version.file_id === file.id).map((version) => version.sha256),
            `${where}: Versionen der Datei ${file.id}`,
          ).toEqual(file.versions);
        }
        await expectStoredConsistently(where, filesDir, stored);
        const withRoles = new Set(fileRoles.map((role) => role.file_id));
        for (const row of rows) {
          const model = files.get(row.id)!;
          expect(row.title).toBe(model.title);
          expect(row.sha256, `${where}: Prüfsumme der Zeile ${row.id}`).toBe(model.sha);
          expect(withRoles.has(row.id), `${where}: Rollen der Datei ${row.id}`).toBe(true);
          const path = join(filesDir, row.storage_key);
          expect(await sha256OfFile(path).catch(() => 'fehlt'), `${where}: Inhalt der Datei ${row.id}`).toBe(
            row.sha256,
          );
        }

        // Notifications commit with their change: exactly one per committed create and replacement.
        const mails = { created: new Map<number, number>(), updated: new Map<number, number>() };
        for (const mail of outbox) {
          const kind = mail.subject.startsWith(CREATED_SUBJECT)
            ? 'created'
            : mail.subject.startsWith(UPDATED_SUBJECT)
              ? 'updated'
              : undefined;
          if (!kind) continue;
          const id = Number(/\/files\/show\/(\d+)/.exec(mail.text_body)?.[1]);
          expect(files.has(id), `${where}: Benachrichtigung zu unbekannter Datei ${id}`).toBe(true);
          mails[kind].set(id, (mails[kind].get(id) ?? 0) + 1);
        }
        for (const file of files.values()) {
          expect(mails.created.get(file.id) ?? 0, `${where}: Mail zu neuer Datei ${file.id}`).toBe(1);
          expect(mails.updated.get(file.id) ?? 0, `${where}: Mails zu Datei ${file.id}`).toBe(file.updates);
        }
        // No queued mail is lost: every row seen before is still there; every sent one was delivered.
        const outboxIds = new Set(outbox.map((mail) => mail.id));
        expect(
          [...knownOutboxIds].filter((id) => !outboxIds.has(id)),
          `${where}: verlorene Mails`,
        ).toEqual([]);
        knownOutboxIds = outboxIds;
        const delivered = new Set((await deliveredMailFiles(mailDir)).keys());
        const sentButMissing = outbox.filter((mail) => mail.sent_at !== null && !delivered.has(mail.id));
        expect(sentButMissing, `${where}: als gesendet markiert, aber nicht zugestellt`).toEqual([]);
        expect(outbox.filter((mail) => mail.last_error !== null)).toEqual([]);

        // Each answered forgot-password request is stored or already handled, exactly once: the
        // worker deletes it in the transaction that queues the mail. An unknown address gets nothing.
        const resetMails = outbox.filter((mail) => mail.subject === RESET_SUBJECT).length;
        const waiting = resetRequests.filter((request) => request.email === ADMIN_EMAIL).length;
        expect(resetMails + waiting, `${where}: Anfragen „Passwort vergessen“`).toBeGreaterThanOrEqual(
          stats.resets.answered,
        );
        expect(resetMails + waiting, `${where}: Anfragen „Passwort vergessen“`).toBeLessThanOrEqual(
          stats.resets.answered + stats.resets.interrupted,
        );
        return referencedKeys(stored);
      } finally {
        await inspector.close();
      }
    }

    /** After the restart the sweep has run: no temporary file, no object without a row. */
    async function checkAfterSweep(round: number, keys: string[]) {
      const { objects, temp } = await storageContents(filesDir);
      expect(temp, `Runde ${round}: temporäre Dateien nach dem Start`).toEqual([]);
      expect(objects, `Runde ${round}: Objekte nach dem Start`).toEqual([...keys].sort());
    }

    for (let round = 1; round <= ROUNDS; round += 1) {
      const pending = await loadAndKill(round);
      const keys = await checkAfterKill(round, pending);
      portal = await start();
      await checkAfterSweep(round, keys);
    }

    // Mails leased by a killed process wait for their lease (two minutes) to run out. Let that time
    // pass in the database, restart, and every queued mail must be delivered.
    await portal.stop();
    const writer = openInspector(target, true);
    const leased = await writer.kysely
      .updateTable('outbox')
      .set({ locked_until: '2000-01-01T00:00:00.000Z' })
      .where('sent_at', 'is', null)
      .where('locked_until', 'is not', null)
      .executeTakeFirst();
    await writer.kysely
      .updateTable('password_requests')
      .set({ locked_until: '2000-01-01T00:00:00.000Z' })
      .where('locked_until', 'is not', null)
      .execute();
    // Texts being read by a killed process: their lease runs out the same way.
    await writer.kysely
      .updateTable('search_texts')
      .set({ locked_until: '2000-01-01T00:00:00.000Z' })
      .where('state', '=', 'working')
      .execute();
    await writer.close();
    portal = await start();
    const reader = openInspector(target);
    try {
      const deadline = Date.now() + 60_000;
      for (;;) {
        // Requests first: once none is left, no new mail can be queued after the outbox is read.
        const requests = await reader.kysely.selectFrom('password_requests').select('id').execute();
        const unsent = await reader.kysely
          .selectFrom('outbox')
          .select('id')
          .where('sent_at', 'is', null)
          .execute();
        if (unsent.length === 0 && requests.length === 0) break;
        if (Date.now() > deadline)
          throw new Error(`Nicht zugestellte Mails: ${unsent.map((m) => m.id).join(', ')}`);
        await sleep(250);
      }
      const outbox = await reader.kysely
        .selectFrom('outbox')
        .select(['id', 'subject', 'to_address'])
        .execute();
      const delivered = new Set((await deliveredMailFiles(mailDir)).keys());
      expect(outbox.filter((mail) => !delivered.has(mail.id))).toEqual([]);
      // Every mail seen before is still there; newer ones can only be reset mails the worker
      // queued for requests stored before the last kill.
      expect(outbox.filter((mail) => knownOutboxIds.has(mail.id)).length).toBe(knownOutboxIds.size);
      expect(outbox.filter((mail) => !knownOutboxIds.has(mail.id) && mail.subject !== RESET_SUBJECT)).toEqual(
        [],
      );
      const resetMails = outbox.filter((mail) => mail.subject === RESET_SUBJECT);
      expect(resetMails.every((mail) => mail.to_address === ADMIN_EMAIL)).toBe(true);
      expect(resetMails.length).toBeGreaterThanOrEqual(stats.resets.answered);
      expect(resetMails.length).toBeLessThanOrEqual(stats.resets.answered + stats.resets.interrupted);
      // Every document's text was read once for its current content, and nothing else is indexed.
      for (const deadline = Date.now() + 60_000; ; await sleep(250)) {
        const open = await reader.kysely
          .selectFrom('search_texts')
          .select('item_id')
          .where('state', 'in', ['pending', 'working'])
          .execute();
        if (open.length === 0) break;
        if (Date.now() > deadline)
          throw new Error(`Nicht gelesene Texte: ${open.map((r) => r.item_id).join(', ')}`);
      }
      const live = await reader.kysely.selectFrom('files').select(['id', 'storage_key']).execute();
      const texts = await reader.kysely
        .selectFrom('search_texts')
        .select(['item_id', 'content_key', 'state'])
        .where('kind', '=', 'file')
        .execute();
      expect(texts.map((row) => [row.item_id, row.content_key]).sort()).toEqual(
        live.map((row) => [row.id, row.storage_key]).sort(),
      );
      // The words of a document are indexed exactly while its text is read (SQLite: FTS5 rows;
      // PostgreSQL: the folded column the trigram index covers).
      const done = texts.filter((row) => row.state === 'done').map((row) => row.item_id * 2);
      const indexed = postgres
        ? (
            await reader.kysely
              .selectFrom('search_texts')
              .select('item_id')
              .where('kind', '=', 'file')
              .where('folded', 'is not', null)
              .execute()
          ).map((row) => row.item_id * 2)
        : (await sql<{ rowid: number }>`select rowid from search_fts`.execute(reader.kysely)).rows.map(
            (row) => Number(row.rowid),
          );
      expect(indexed.filter((rowid) => rowid % 2 === 0).sort()).toEqual(done.sort());
    } finally {
      await reader.close();
    }

    // And every document is served with its content.
    const client = clientFor(portal.url, admin.token);
    // Old versions are there with their content, and what is in the Papierkorb comes back intact.
    for (const file of [...files.values()].filter((candidate) => candidate.state === 'trashed')) {
      const res = await client.request('POST', `/trash/file/${file.id}/restore`, {});
      expect(res.status, `Wiederherstellen der Datei ${file.id}: ${await res.clone().text()}`).toBe(200);
      file.state = 'live';
    }
    const live = [...files.values()].filter((file) => file.state === 'live');
    let versionsChecked = 0;
    for (const file of live) {
      const res = await client.request('GET', `/files/${file.id}/versions`);
      expect(res.status).toBe(200);
      const { data } = (await res.json()) as { data: { version: number; current: boolean }[] };
      const old = data.filter((version) => !version.current).sort((a, b) => a.version - b.version);
      const contents: string[] = [];
      for (const version of old) {
        const download = await client.request(
          'GET',
          `/files/${file.id}/versions/${version.version}/download`,
        );
        expect(download.status).toBe(200);
        contents.push(sha256(Buffer.from(await download.arrayBuffer())));
        versionsChecked += 1;
      }
      expect(contents, `alte Versionen der Datei ${file.id}`).toEqual(file.versions);
    }
    for (const file of live) {
      const details = await client.request('GET', `/files/${file.id}`);
      expect(details.status).toBe(200);
      const { data } = (await details.json()) as { data: { external: string } };
      const download = await client.request('GET', `/download/${data.external}`);
      expect(download.status).toBe(200);
      expect(sha256(Buffer.from(await download.arrayBuffer())), `Download der Datei ${file.id}`).toBe(
        file.sha,
      );
    }
    await portal.stop();

    const interrupted = Object.values(stats.interrupted).reduce((sum, n) => sum + n, 0);
    console.log(
      `Absturztest: ${ROUNDS} Abbrüche; bestätigt ${stats.created} Uploads, ${stats.replaced} Ersetzungen, ` +
        `${stats.deleted} Löschungen, ${stats.restored} Wiederherstellungen, ${stats.purged} endgültige ` +
        `Löschungen; unterbrochen ${stats.interrupted.create} Uploads, ` +
        `${stats.interrupted.replace} Ersetzungen (${stats.replacementsKeptOld} mit altem Inhalt, ` +
        `${stats.replacementsCommitted} übernommen), ${stats.interrupted.delete} Löschungen, ` +
        `${stats.interrupted.restore} Wiederherstellungen, ${stats.interrupted.purge} endgültige Löschungen; ` +
        `${versionsChecked} alte Versionen geladen; ` +
        `${Number(leased.numUpdatedRows)} Mails mit abgelaufener Reservierung; ${live.length} Dateien am Ende; ` +
        `${stats.resets.answered} Anfragen „Passwort vergessen“ beantwortet, ${stats.resets.interrupted} unterbrochen`,
    );
    // The kills must have hit work in progress, or the test proved nothing.
    expect(interrupted).toBeGreaterThanOrEqual(ROUNDS);
    expect(stats.interrupted.replace).toBeGreaterThan(0);
    expect(stats.interrupted.delete + stats.interrupted.restore + stats.interrupted.purge).toBeGreaterThan(0);
    expect(stats.created).toBeGreaterThan(ROUNDS);
    expect(stats.restored).toBeGreaterThan(0);
    expect(stats.purged).toBeGreaterThan(0);
    expect(versionsChecked).toBeGreaterThan(0);
  });
});

class UnexpectedAnswer extends Error {}

/** A committed replacement: the content it replaced is kept as the newest old version. */
function replaced(file: FileModel, sha: string) {
  file.versions.push(file.sha);
  file.sha = sha;
  file.updates += 1;
}

/**
 * When to kill. Odd rounds: after a random time. Even rounds: right as an object appears in or
 * disappears from the storage folder (the n-th such change, n random), which is the narrow window
 * between writing content and committing its row, or between a commit and removing old content.
 */
async function killMoment(round: number, filesDir: string): Promise<void> {
  if (round % 2 === 1) {
    await sleep(randomInt(60, 900));
    return;
  }
  await mkdir(filesDir, { recursive: true });
  await fileChanges(filesDir, randomInt(1, 25), 3_000);
}
