// Over 300 lines: one test of a backup under write load and its restore; the load, the manifest checks and
// the restored portal's downloads all read one record of what was written, which split files would pass around.
import { randomBytes, randomInt } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { manifestSchema } from '../../src/ops/backup-format.ts';
import {
  expectStoredConsistently,
  openInspector,
  referencedKeys,
  sha256,
  sha256OfFile,
  storageContents,
  storedRows,
} from './inspect.ts';
import {
  clientFor,
  fileForm,
  signIn,
  spawnServerScript,
  startPortal,
  type ApiClient,
  type PortalProcess,
} from './portal-process.ts';

/**
 * Backup and restore (issue "Proof of security and reliability", item 7): `backup` runs as its
 * own process against the running portal while clients upload, replace and delete documents
 * (replacing keeps old versions, deleting fills the Papierkorb: decision 125); `restore` puts it into
 * an empty data folder, and a portal started there has exactly what the backup's manifest says,
 * intact: old versions download with their content, and a Papierkorb item restores with its own.
 * Always SQLite: PostgreSQL is backed up with pg_dump (README).
 */

const FOLDER_ID = 3;
const ROLE = 'Vertreter';
const PRELOADED = 25;
const WORKERS = 3;

interface Known {
  id: number;
  sha: string;
}

/** A document with old versions: `versions` are their contents, oldest first. */
interface Versioned extends Known {
  versions: string[];
}

async function replaceContent(client: ApiClient, file: Versioned, content: Buffer): Promise<void> {
  const res = await client.request('PUT', `/files/${file.id}`, fileForm({}, content));
  if (res.status !== 200) throw new Error(`Ersetzen: ${res.status} ${await res.text()}`);
  file.versions.push(file.sha);
  file.sha = sha256(content);
}

/** Downloads every old version of a document: their checksums, oldest first. */
async function oldVersions(client: ApiClient, id: number): Promise<string[]> {
  const res = await client.request('GET', `/files/${id}/versions`);
  expect(res.status).toBe(200);
  const { data } = (await res.json()) as { data: { version: number; current: boolean }[] };
  const contents: string[] = [];
  for (const version of data.filter((v) => !v.current).sort((a, b) => a.version - b.version)) {
    const download = await client.request('GET', `/files/${id}/versions/${version.version}/download`);
    expect(download.status).toBe(200);
    contents.push(sha256(Buffer.from(await download.arrayBuffer())));
  }
  return contents;
}

async function uploadNew(client: ApiClient, title: string, content: Buffer): Promise<Known> {
  const res = await client.request(
    'POST',
    '/files',
    fileForm({ title, roles: [ROLE], notify: [ROLE], folderId: FOLDER_ID }, content),
  );
  const body = await res.text();
  if (res.status !== 201) throw new Error(`Upload: ${res.status} ${body}`);
  return { id: (JSON.parse(body) as { file: { id: number } }).file.id, sha: sha256(content) };
}

/** Runs an operator command (`src/cli.ts`) like `npm run …` would, with DATA_DIR set. */
async function cli(args: string[], dataDir: string): Promise<{ code: number | null; output: string }> {
  const run = spawnServerScript('src/cli.ts', args, {
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    STORAGE: 'disk',
    LOG_LEVEL: 'warn',
  });
  const code = await run.exited;
  return { code, output: run.output() };
}

describe('backup and restore under write load (SQLite)', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it(
    'backs up a consistent snapshot while the portal serves writes, and restores it intact',
    { timeout: 180_000 },
    async () => {
      const root = await mkdtemp(join(tmpdir(), 'gremienportal-backup-'));
      cleanups.push(() => rm(root, { recursive: true, force: true }));
      const dataDir = join(root, 'data');
      const backupDir = join(root, 'sicherung');
      const restoredDir = join(root, 'wiederhergestellt');

      let portal: PortalProcess = await startPortal({ dataDir });
      cleanups.push(() => portal.kill());
      const admin = await signIn(portal.url);
      const invited = await admin.request('POST', '/user', {
        title: 'Herr',
        firstname: 'Viktor',
        lastname: 'Vertreter',
        email: 'viktor.vertreter@example.org',
        roles: [ROLE],
      });
      expect(invited.status).toBe(201);
      // Viktor chose a mail per document ("sofort", decision 131): the check below reads those mails.
      const settings = openInspector({ sqliteFile: join(dataDir, 'portal.sqlite') }, true);
      await settings.kysely
        .updateTable('users')
        .set({ notify_files: 'sofort' })
        .where('email', '=', 'viktor.vertreter@example.org')
        .execute();
      await settings.close();
      // Documents nobody touches during the backup: they must come back exactly.
      const untouched: Known[] = [];
      for (let i = 0; i < PRELOADED; i += 1) {
        untouched.push(await uploadNew(admin, `Bestand ${i + 1}`, randomBytes(randomInt(10_000, 400_000))));
      }
      // A meeting with its agenda (decision 130), linking documents nobody touches: it comes back whole.
      const meeting = await admin.request('POST', '/events', {
        title: 'Vertreterversammlung',
        roles: [ROLE],
        start: '2031-06-01T18:00',
        end: '2031-06-01T20:00',
        location: 'Saal',
        description: 'Ordentliche Versammlung',
      });
      expect(meeting.status).toBe(201);
      const meetingId = ((await meeting.json()) as { event: { id: number } }).event.id;
      const agendaPut = await admin.request('PUT', `/events/${meetingId}/agenda`, {
        items: [
          { title: 'Begrüßung', file_ids: [untouched[0]!.id] },
          {
            title: 'Berichte',
            children: [{ title: 'Vorstand', file_ids: [untouched[1]!.id, untouched[2]!.id] }],
          },
        ],
      });
      expect(agendaPut.status).toBe(200);
      const agenda = (await agendaPut.json()) as { data: unknown[] };
      expect(agenda.data).toHaveLength(3);
      // Documents with old versions, and some of them deleted into the Papierkorb, before the backup.
      const versioned: Versioned[] = [];
      for (let i = 0; i < 6; i += 1) {
        const file = {
          ...(await uploadNew(admin, `Versioniert ${i + 1}`, randomBytes(50_000))),
          versions: [],
        };
        for (let n = 0; n <= i % 3; n += 1)
          await replaceContent(admin, file, randomBytes(randomInt(5_000, 200_000)));
        versioned.push(file);
      }
      const binned = versioned.splice(3);
      for (const file of binned) {
        const res = await admin.request('DELETE', `/files/${file.id}`);
        expect(res.status).toBe(204);
      }

      // Write load: each client creates, replaces and deletes its own documents until told to stop.
      let stopping = false;
      let writesDuringBackup = 0;
      let backupRunning = false;
      const failures: string[] = [];
      let trashWrites = 0;
      const load = async (worker: number) => {
        const mine: Known[] = [];
        const trashed: Known[] = [];
        let n = 0;
        while (!stopping) {
          n += 1;
          const roll = Math.random();
          try {
            if (mine.length < 3 || roll < 0.4) {
              mine.push(
                await uploadNew(admin, `Last ${worker}-${n}`, randomBytes(randomInt(5_000, 300_000))),
              );
            } else if (roll < 0.7) {
              const file = mine[randomInt(mine.length)]!;
              const content = randomBytes(randomInt(5_000, 300_000));
              const res = await admin.request(
                'PUT',
                `/files/${file.id}`,
                fileForm({ notify: [ROLE] }, content),
              );
              if (res.status !== 200) throw new Error(`Ersetzen: ${res.status} ${await res.text()}`);
              file.sha = sha256(content);
            } else if (roll < 0.85 || trashed.length === 0) {
              const [file] = mine.splice(randomInt(mine.length), 1);
              const res = await admin.request('DELETE', `/files/${file!.id}`);
              if (res.status !== 204) throw new Error(`Löschen: ${res.status} ${await res.text()}`);
              trashed.push(file!);
              if (backupRunning) trashWrites += 1;
            } else {
              // Back out of the Papierkorb, while the backup copies what it holds.
              const [file] = trashed.splice(randomInt(trashed.length), 1);
              const res = await admin.request('POST', `/trash/file/${file!.id}/restore`, {});
              if (res.status !== 200) throw new Error(`Wiederherstellen: ${res.status} ${await res.text()}`);
              mine.push(file!);
              if (backupRunning) trashWrites += 1;
            }
            if (backupRunning) writesDuringBackup += 1;
          } catch (error) {
            failures.push(String(error));
            return;
          }
        }
      };
      const running = Array.from({ length: WORKERS }, (_, i) => load(i));

      backupRunning = true;
      const backup = await cli(['backup', backupDir], dataDir);
      backupRunning = false;
      stopping = true;
      await Promise.all(running);
      expect(backup.code, backup.output).toBe(0);
      expect(backup.output).toContain(`Sicherung erstellt: ${backupDir}`);
      expect(failures).toEqual([]);
      // The portal really was writing while the backup ran.
      expect(writesDuringBackup).toBeGreaterThan(0);
      expect(trashWrites, 'Papierkorb-Änderungen während der Sicherung').toBeGreaterThan(0);
      await portal.stop();

      // The backup on its own: manifest, checksums, an intact database that matches the manifest.
      const manifest = manifestSchema.parse(
        JSON.parse(await readFile(join(backupDir, 'manifest.json'), 'utf8')),
      );
      console.log(
        `Sicherung unter Last: ${writesDuringBackup} Schreibvorgänge während der Sicherung, ` +
          `${manifest.objects.length} Dateien gesichert` +
          (backup.output.includes('neu gesichert') ? '; Datenbankstand nach Löschungen neu gesichert' : ''),
      );
      // The portal made its key for secrets at rest at the first start; the backup carries it.
      expect((await readdir(backupDir)).sort()).toEqual([
        'files',
        'manifest.json',
        'portal.sqlite',
        'secret.key',
      ]);
      expect(await sha256OfFile(join(backupDir, 'secret.key'))).toEqual(manifest.secret_key!.sha256);
      expect(await sha256OfFile(join(backupDir, 'portal.sqlite'))).toBe(manifest.database.sha256);
      expect((await readdir(join(backupDir, 'files'))).sort()).toEqual(
        manifest.objects.map((o) => o.key).sort(),
      );
      for (const object of manifest.objects) {
        expect(await sha256OfFile(join(backupDir, 'files', object.key)), object.key).toBe(object.sha256);
      }
      const backupDb = openInspector({ sqliteFile: join(backupDir, 'portal.sqlite') });
      try {
        const check = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(backupDb.kysely);
        expect(check.rows).toEqual([{ integrity_check: 'ok' }]);
        const rows = await backupDb.kysely.selectFrom('files').select(['storage_key', 'sha256']).execute();
        expect(rows.length).toBe(manifest.row_counts.files);
        // The backup holds exactly the objects its rows refer to: documents, their old versions,
        // the Papierkorb's and events' objects, each intact and held by the right rows.
        const stored = await storedRows(backupDb.kysely);
        expect(referencedKeys(stored)).toEqual(manifest.objects.map((o) => o.key).sort());
        await expectStoredConsistently('Sicherung', join(backupDir, 'files'), stored);
        console.log(
          `Gesichert: ${stored.files.length} Dateien, ${stored.versions.length} alte Versionen, ` +
            `${stored.trashItems.length} Einträge im Papierkorb (${trashWrites} Papierkorb-Änderungen während der Sicherung)`,
        );
        expect(stored.versions.length, 'alte Versionen in der Sicherung').toBeGreaterThanOrEqual(
          versioned.reduce((sum, file) => sum + file.versions.length, 0),
        );
        expect(
          binned.every((file) =>
            stored.trashItems.some((item) => item.kind === 'file' && item.object_id === file.id),
          ),
          'Papierkorb in der Sicherung',
        ).toBe(true);
        // Every notification committed with its upload: none is missing from the snapshot.
        const files = await backupDb.kysely.selectFrom('files').select('id').execute();
        const mails = await backupDb.kysely.selectFrom('outbox').select('text_body').execute();
        for (const file of files) {
          expect(
            mails.some((mail) => mail.text_body.includes(`/files/show/${file.id}\n`)),
            `Mail zu ${file.id}`,
          ).toBe(true);
        }
      } finally {
        await backupDb.close();
      }

      // A non-empty data folder is refused; an empty one receives the backup.
      const refused = await cli(['restore', backupDir], dataDir);
      expect(refused.code).toBe(1);
      expect(refused.output).toContain('ist nicht leer');
      const restored = await cli(['restore', backupDir], restoredDir);
      expect(restored.code, restored.output).toBe(0);
      expect(restored.output).toContain('wiederhergestellt');

      const restoredDb = openInspector({ sqliteFile: join(restoredDir, 'portal.sqlite') });
      try {
        const check = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(
          restoredDb.kysely,
        );
        expect(check.rows).toEqual([{ integrity_check: 'ok' }]);
        const tables = await sql<{ name: string }>`
        select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(
          restoredDb.kysely,
        );
        const counts: Record<string, number> = {};
        for (const { name } of tables.rows) {
          const result = await sql<{ n: number }>`select count(*) as n from ${sql.table(name)}`.execute(
            restoredDb.kysely,
          );
          counts[name] = Number(result.rows[0]!.n);
        }
        expect(counts).toEqual(manifest.row_counts);
      } finally {
        await restoredDb.close();
      }

      // The portal on the restored folder: its start-up sweep finds nothing to remove (the backup
      // holds no object without a row), and every document is served with its checksum.
      portal = await startPortal({ dataDir: restoredDir });
      const { objects, temp } = await storageContents(join(restoredDir, 'files'));
      expect(temp).toEqual([]);
      expect(objects).toEqual(manifest.objects.map((o) => o.key).sort());
      const client = clientFor(portal.url, admin.token);
      const list = await client.request('GET', '/files');
      expect(list.status).toBe(200);
      const served = ((await list.json()) as { data: { id: number; external: string }[] }).data;
      expect(served.length).toBe(manifest.row_counts.files);
      const byId = new Map(served.map((file) => [file.id, file]));
      for (const file of untouched) {
        const entry = byId.get(file.id);
        expect(entry, `Bestandsdatei ${file.id}`).toBeDefined();
        const download = await client.request('GET', `/download/${entry!.external}`);
        expect(download.status).toBe(200);
        expect(sha256(Buffer.from(await download.arrayBuffer()))).toBe(file.sha);
      }
      // The meeting's agenda, with its documents, as it was.
      const restoredAgenda = await client.request('GET', `/events/${meetingId}/agenda`);
      expect(restoredAgenda.status).toBe(200);
      expect(await restoredAgenda.json()).toEqual(agenda);
      // Old versions download with the content they had.
      for (const file of versioned) {
        expect(await oldVersions(client, file.id), `Versionen der Datei ${file.id}`).toEqual(file.versions);
      }
      // What was in the Papierkorb comes back with its content and its versions.
      for (const file of binned) {
        const res = await client.request('POST', `/trash/file/${file.id}/restore`, {});
        expect(res.status, await res.clone().text()).toBe(200);
        const details = await client.request('GET', `/files/${file.id}`);
        expect(details.status).toBe(200);
        const { data } = (await details.json()) as { data: { external: string } };
        const download = await client.request('GET', `/download/${data.external}`);
        expect(download.status).toBe(200);
        expect(sha256(Buffer.from(await download.arrayBuffer())), `wiederhergestellte Datei ${file.id}`).toBe(
          file.sha,
        );
        expect(await oldVersions(client, file.id), `Versionen der Datei ${file.id}`).toEqual(file.versions);
      }
      await portal.stop();
    },
  );
});
