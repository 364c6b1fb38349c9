/**
 * The data of the growth scenario (decision 186): the default data set of dataset.ts grown in SQL
 * to the large size, and ten years of audit entries for both. It writes straight into the SQLite
 * file after createDataset and before the portal starts, with prepared statements in one
 * transaction per table and INSERT … SELECT over recursive CTEs, so 5 million audit rows take
 * seconds, not the hours of 5 million requests. The large set is a superset of the default one:
 * the same accounts, the same 1,000-document folder, only more around them.
 */
import { createHash } from 'node:crypto';
import { linkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { demoPdf } from '../../../server/src/db/demo-seed.ts';
import { fold } from '../../../server/src/search/fold.ts';
import { newKey } from '../../../server/src/storage/object-keys.ts';
import type { Dataset } from './dataset.ts';
import { FILE_WORDS, FOLDER_WORDS, random } from './demo-files.ts';
import { germanText } from './search-index.ts';

export type SizeName = 'default' | 'large';

export interface GrowthTarget {
  folders: number;
  files: number;
  users: number;
  events: number;
  /** Audit entries spread evenly over the last ten years. */
  auditRows: number;
  /** Documents each account has opened (file_reads), spread over everything. */
  readsPerUser: number;
}

/** Ten years of a cooperative for the default data set: about 1,700 entries per account. */
export const DEFAULT_GROWTH: GrowthTarget = {
  folders: 2_000,
  files: 20_000,
  users: 300,
  events: 500,
  auditRows: 500_000,
  readsPerUser: 50,
};

/** The large size of decision 186: ten times the documents, accounts, events and entries. */
export const LARGE_GROWTH: GrowthTarget = {
  folders: 10_000,
  files: 200_000,
  users: 3_000,
  events: 5_000,
  auditRows: 5_000_000,
  readsPerUser: 50,
};

/** The quick run's growth: only the audit entries and reads, in proportion. */
export const QUICK_GROWTH = (dataset: Dataset): GrowthTarget => ({
  ...dataset.counts,
  auditRows: 20_000,
  readsPerUser: 20,
});

/** Distinct texts the new documents take in turn: the index stores every one per document. */
const TEXT_POOL = 1_000;
const TEN_YEARS_DAYS = 3_652;

export interface GrowthReport {
  /** Seconds per step. */
  steps: Record<string, number>;
  counts: Dataset['counts'] & { auditRows: number; fileReads: number };
}

/**
 * Grows the data set in `dataset.dataDir` to `target` (never shrinks it) and adds the audit
 * entries and reads. New documents are hard links to one shared small PDF under their own
 * storage keys (the storage refers to objects by key only, and a backup copies each key), and
 * their search texts are a pool of 1,000 generated texts of the same length as the default set's,
 * stored and indexed as the indexer would after reading them (`search_texts` done, folded text in
 * `search_fts`).
 */
export function growDataset(dataset: Dataset, target: GrowthTarget): GrowthReport {
  const next = random(20261203);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const db = new SQLite(join(dataset.dataDir, 'portal.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -262144');
  const steps: Record<string, number> = {};
  const step = (name: string, work: () => void) => {
    const started = performance.now();
    db.transaction(work)();
    steps[name] = (performance.now() - started) / 1000;
  };
  const stamp = new Date().toISOString();
  const filesDir = join(dataset.dataDir, 'files');
  const shared = demoPdf('Gemeinsamer Inhalt');
  const sharedSha = createHash('sha256').update(shared).digest('hex');
  // ext4 allows 65,000 links to one inode: a fresh copy of the content for every 60,000.
  let links = 0;
  let sharedPath = '';
  const linkObject = () => {
    if (links % 60_000 === 0) {
      sharedPath = join(filesDir, `bench-shared-content-${links / 60_000}`);
      writeFileSync(sharedPath, shared);
    }
    links += 1;
    const key = newKey();
    linkSync(sharedPath, join(filesDir, key));
    return key;
  };
  const count = (table: string) =>
    (db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;

  try {
    // --- Users: Vertreter with the shared password ------------------------------------------
    step('Nutzer', () => {
      const template = db
        .prepare('select password_hash from users where email = ?')
        .get(dataset.vertreter.email) as { password_hash: string };
      const vertreterRole = (
        db.prepare("select id from roles where name = 'Vertreter'").get() as { id: number }
      ).id;
      const insert = db.prepare(
        `insert into users (title, firstname, lastname, email, password_hash, created_at, updated_at)
         values (?, ?, ?, ?, ?, ?, ?)`,
      );
      const role = db.prepare('insert into user_roles (user_id, role_id) values (?, ?)');
      for (let i = count('users'); i < target.users; i += 1) {
        const { lastInsertRowid } = insert.run(
          i % 2 ? 'Frau' : 'Herr',
          pick(['Anna', 'Bernd', 'Clara', 'Dieter', 'Elke', 'Frank']),
          pick(['Müller', 'Schmidt', 'Weber', 'Wagner']),
          `mitglied${String(i).padStart(5, '0')}@example.org`,
          template.password_hash,
          stamp,
          stamp,
        );
        role.run(lastInsertRowid, vertreterRole);
      }
    });

    // --- Folders: more of the same tree, at most 6 levels deep, never in the fixed folders ----
    const scansFolderId = (
      db.prepare('select folder_id from files where id = ?').get(dataset.largeFile.id) as {
        folder_id: number;
      }
    ).folder_id;
    const fixed = new Set([
      dataset.bigFolderId,
      dataset.smallFolderId,
      dataset.mediumFolderId,
      dataset.pages.folderId,
      scansFolderId,
    ]);
    step('Ordner', () => {
      const folders = (
        db.prepare('select id, breadcrumb from folders').all() as {
          id: number;
          breadcrumb: string;
        }[]
      )
        .filter((folder) => !fixed.has(folder.id) && folder.id !== 1)
        .map((folder) => ({ ...folder, depth: folder.breadcrumb.split('/').length - 1 }));
      const rolesOf = db.prepare('select role_id from folder_roles where folder_id = ?').pluck();
      const insert = db.prepare(
        'insert into folders (parent_id, title, breadcrumb, created_at, updated_at) values (?, ?, ?, ?, ?)',
      );
      const role = db.prepare('insert into folder_roles (folder_id, role_id) values (?, ?)');
      const candidates = folders.filter((folder) => folder.depth < 6);
      for (let i = count('folders') - 4; i < target.folders; i += 1) {
        const parent = candidates[Math.floor(next() ** 2 * candidates.length)]!;
        const title = `${pick(FOLDER_WORDS)} ${1990 + Math.floor(next() * 37)} (n${i})`;
        const breadcrumb = `${parent.breadcrumb}/${title}`;
        const id = Number(insert.run(parent.id, title, breadcrumb, stamp, stamp).lastInsertRowid);
        for (const roleId of rolesOf.all(parent.id)) role.run(id, roleId);
        if (parent.depth + 1 < 6) candidates.push({ id, breadcrumb, depth: parent.depth + 1 });
      }
    });

    // --- Documents: hard links to one small PDF, each under its own key -----------------------
    step('Dokumente', () => {
      const targets = (db.prepare('select id from folders where id > 4').pluck().all() as number[]).filter(
        (id) => !fixed.has(id),
      );
      const insert = db.prepare(
        `insert into files (folder_id, title, format, mime_type, size_bytes, sha256, storage_key, download_key,
                            created_at, updated_at, content_at)
         values (?, ?, 'pdf', 'application/pdf', ?, ?, ?, ?, ?, ?, ?)`,
      );
      for (let i = count('files'); i < target.files; i += 1)
        insert.run(
          pick(targets),
          `${pick(FILE_WORDS)} ${i + 1}`,
          shared.length,
          sharedSha,
          linkObject(),
          newKey(),
          stamp,
          stamp,
          stamp,
        );
      db.prepare(
        `insert into file_roles (file_id, role_id)
         select files.id, folder_roles.role_id from files join folder_roles using (folder_id)
         where files.id > ?`,
      ).run(dataset.maxFileId);
    });

    // --- Events: one every other day, half with an information file ---------------------------
    step('Events', () => {
      const [aufsichtsrat, vertreter] = ['Aufsichtsrat', 'Vertreter'].map(
        (name) => (db.prepare('select id from roles where name = ?').get(name) as { id: number }).id,
      );
      const insert = db.prepare(
        `insert into events (uid, sequence, title, start_at, end_at, location, description, file_storage_key,
                             file_download_key, file_format, file_mime_type, file_size_bytes, file_sha256,
                             created_at, updated_at)
         values (?, 0, ?, ?, ?, ?, 'Tagesordnung und Unterlagen folgen.', ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      const role = db.prepare('insert into event_roles (event_id, role_id) values (?, ?)');
      const total = target.events;
      for (let i = count('events'); i < total; i += 1) {
        // Ten years back, a few months ahead.
        const start = new Date(Date.now() - (total - i) * 0.6 * 86_400_000 + 180 * 86_400_000);
        const withFile = i % 2 === 0;
        const id = Number(
          insert.run(
            `${newKey()}@gremienportal`,
            `${pick(['Sitzung des Aufsichtsrats', 'Vertreterversammlung', 'Informationsabend'])} ${i + 1}`,
            start.toISOString(),
            new Date(start.getTime() + 2 * 3_600_000).toISOString(),
            pick(['Geschäftsstelle, Raum 2', 'Stadthalle', 'Online']),
            withFile ? linkObject() : null,
            withFile ? newKey() : null,
            withFile ? 'pdf' : null,
            withFile ? 'application/pdf' : null,
            withFile ? shared.length : null,
            withFile ? sharedSha : null,
            stamp,
            stamp,
          ).lastInsertRowid,
        );
        role.run(id, aufsichtsrat);
        if (i % 3 !== 0) role.run(id, vertreter);
      }
    });

    // --- Search: the new items' texts from the pool, as the indexer stores them ---------------
    step('Suchindex', () => {
      db.exec(
        'create temp table text_pool (n integer primary key, text text not null, folded text not null)',
      );
      const put = db.prepare('insert into temp.text_pool (n, text, folded) values (?, ?, ?)');
      for (let n = 0; n < TEXT_POOL; n += 1) {
        const text = germanText(next, 4_000);
        put.run(n, text, fold(text));
      }
      // Only what waits (the data set's own items are done already).
      db.prepare(
        `insert into search_fts (rowid, body)
         select case search_texts.kind when 'file' then item_id * 2 else item_id * 2 + 1 end, text_pool.folded
         from search_texts join temp.text_pool on text_pool.n = search_texts.item_id % ${TEXT_POOL}
         where search_texts.state = 'pending'`,
      ).run();
      db.prepare(
        `update search_texts set state = 'done', text = text_pool.text, reason = null, locked_until = null
         from temp.text_pool where text_pool.n = search_texts.item_id % ${TEXT_POOL}
           and search_texts.state = 'pending'`,
      ).run();
      db.exec('drop table temp.text_pool');
      db.prepare("update change_counters set value = value + 1 where name = 'search'").run();
    });

    // --- Reads: every account opened some documents over the years -----------------------------
    step('Gelesen', () => {
      const [minFile, maxFile] = db.prepare('select min(id), max(id) from files').raw().get() as number[];
      db.prepare(
        `with recursive seq(n) as (select 1 union all select n + 1 from seq where n < ?)
         insert or ignore into file_reads (user_id, file_id, read_at, opened_at)
         select users.id, ? + (users.id * 7919 + seq.n * 104729) % ?, ?, ? from users, seq`,
      ).run(target.readsPerUser, minFile, maxFile! - minFile! + 1, stamp, stamp);
    });

    // --- Audit: ten years of sign-ins, views, downloads and searches, oldest first ------------
    step('Aktivitäten', () => {
      db.exec(
        `create temp table actors as
         select row_number() over (order by id) - 1 as k, id,
                firstname || ' ' || lastname || ' <' || email || '>' as label
         from users`,
      );
      const actors = count('temp.actors');
      const [minFile, maxFile] = db.prepare('select min(id), max(id) from files').raw().get() as number[];
      const [minEvent, maxEvent] = db.prepare('select min(id), max(id) from events').raw().get() as number[];
      const rows = target.auditRows;
      const startMs = Date.now() - TEN_YEARS_DAYS * 86_400_000;
      const stepMs = (TEN_YEARS_DAYS * 86_400_000 - 60_000) / rows;
      // Addresses older than 30 days are already shortened, as the daily retention leaves them.
      const shortUntil = Math.floor((TEN_YEARS_DAYS - 30) * (86_400_000 / stepMs));
      db.prepare(
        `with recursive seq(n) as (select 0 union all select n + 1 from seq where n < ? - 1)
         insert into audit_log (at, actor_id, actor_label, action, object_type, object_id, object_label, details, ip)
         select strftime('%Y-%m-%dT%H:%M:%fZ', (? + n * ?) / 1000.0, 'unixepoch'),
                actors.id, actors.label,
                case when n % 20 < 6 then 'auth.login' when n % 20 = 6 then 'auth.login_failed'
                     when n % 20 < 14 then 'file.viewed' when n % 20 < 18 then 'file.downloaded'
                     when n % 20 = 18 then 'search.performed' else 'event.file_downloaded' end,
                case when n % 20 < 7 then 'user' when n % 20 < 18 then 'file'
                     when n % 20 = 18 then null else 'event' end,
                case when n % 20 < 7 then actors.id
                     when n % 20 < 18 then ? + (n * 104729) % ?
                     when n % 20 = 18 then null else ? + (n * 7919) % ? end,
                case when n % 20 < 7 then actors.label
                     when n % 20 < 18 then 'Protokoll ' || (n % 5000)
                     when n % 20 = 18 then null else 'Vertreterversammlung ' || (n % 500) end,
                case when n % 20 = 18 then '{"q":"Jahresabschluss","hits":' || (n % 300) || '}' end,
                case when n < ? then '192.0.2.0' else '192.0.2.' || (1 + n % 250) end
         from seq join temp.actors on actors.k = (n * 7919) % ?`,
      ).run(
        rows,
        startMs,
        stepMs,
        minFile,
        maxFile! - minFile! + 1,
        minEvent,
        maxEvent! - minEvent! + 1,
        shortUntil,
        actors,
      );
      db.exec('drop table temp.actors');
    });
    const started = performance.now();
    db.pragma('wal_checkpoint(TRUNCATE)');
    steps['Checkpoint'] = (performance.now() - started) / 1000;
    return {
      steps,
      counts: {
        folders: count('folders') - 4,
        files: count('files'),
        users: count('users'),
        events: count('events'),
        auditRows: count('audit_log'),
        fileReads: count('file_reads'),
      },
    };
  } finally {
    db.close();
  }
}
