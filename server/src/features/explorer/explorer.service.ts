import type { Kysely, Transaction } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { FileRecord } from '../../db/document-records.ts';
import type { Database } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import type { Principal } from '../../policies/principal.ts';
import { contentTime, type MemberNews } from './read-state.ts';
import {
  markEverythingRead,
  openedAt,
  raiseReadVersion,
  recordOpen,
  recordReads,
} from './read-state.repository.ts';
import type { ReadCache } from './tree-cache.ts';

/*
 * The read model of the document area (decision 178) and its one door: the cache of the tree,
 * listings and answers per viewer kind (tree-cache.ts), what is new for a member (read-state.ts)
 * and the API shapes of folders and documents (explorer.present.ts). The folders, files, news,
 * search, agenda and trash features read through these exports only.
 */
export { ReadCache, type CacheView, type Serialised } from './tree-cache.ts';
export { contentTime, fileSlotKey, folderSlotKey, type MemberNews } from './read-state.ts';
export {
  childBreadcrumb,
  megabytes,
  sameTitle,
  toFolder,
  toFolderRef,
  toStoredFile,
  type FilesTree,
  type MemberFileFields,
} from './explorer.present.ts';

/** Whether the member has received the document's current content (the Kenntnisnahme's precondition). */
export async function hasOpenedCurrent(
  db: Kysely<Database> | Transaction<Database>,
  userId: number,
  file: Pick<FileRecord, 'id' | 'content_at' | 'created_at'>,
): Promise<boolean> {
  const opened = await openedAt(db, userId, file.id);
  return opened !== undefined && opened >= contentTime(file);
}

/**
 * "Neu" for the files and news features (decision 131): what is new for a member, opening a
 * document, and "Alle als gelesen markieren".
 */
export function readStateService(ctx: Pick<AppContext, 'db' | 'clock'>, cache: ReadCache) {
  const db = () => ctx.db.kysely;
  return {
    /** The member's new documents at the current version. */
    async news(principal: Principal): Promise<MemberNews> {
      return cache.reads.news(await cache.view(), principal);
    },

    /**
     * The member received the document's current content (any delivery, decision 116): it is no
     * longer new, and a Kenntnisnahme may be confirmed.
     */
    async opened(principal: Principal, file: Pick<FileRecord, 'id' | 'content_at' | 'created_at'>) {
      // A system reading with an API-Schlüssel is not its issuer reading (decision 136).
      if (principal.apiKey) return;
      const contentAt = contentTime(file);
      await db()
        .transaction()
        .execute(async (trx) => {
          const changed = await recordOpen(
            trx,
            principal.id,
            { id: file.id, contentAt },
            ctx.clock.now().toISOString(),
          );
          // Only a document that could be new changes what is new.
          if (changed && contentAt > principal.readState.since) await raiseReadVersion(trx, principal.id);
        });
    },

    /** Marks a visible folder with everything below it, or (no folder) everything, as read. */
    async markRead(principal: Principal, folderId?: number): Promise<number> {
      const news = await cache.reads.news(await cache.view(), principal);
      const now = ctx.clock.now().toISOString();
      if (folderId === undefined) {
        await db()
          .transaction()
          .execute((trx) => markEverythingRead(trx, principal.id, now));
        return news.files.length;
      }
      if (!news.tree.find(folderId)) throw notFound();
      const inside = new Set([folderId, ...news.tree.descendantIds(folderId)]);
      const ids = news.files.filter((file) => inside.has(file.folder_id)).map((file) => file.id);
      if (ids.length > 0) {
        await db()
          .transaction()
          .execute(async (trx) => {
            await recordReads(trx, principal.id, ids, now);
            await raiseReadVersion(trx, principal.id);
          });
      }
      return ids.length;
    },
  };
}
export type ReadStateService = ReturnType<typeof readStateService>;
