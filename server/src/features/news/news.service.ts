import { NEWS_EVENTS_LIMIT, NEWS_FILES_LIMIT, type News } from '@gremienportal/contracts/news';
import type { AppContext } from '../../context.ts';
import type { Principal } from '../../policies/principal.ts';
import { canSeeFile, fileFilter } from '../../policies/files.policy.ts';
import { compareTitles } from '../../policies/folders.policy.ts';
import { viewerOf } from '../../policies/principal.ts';
import { eventsService } from '../events/events.service.ts';
import { memberFieldsOf } from '../files/files.service.ts';
import { loadFiles } from '../../db/document-records.ts';
import { readStateService, toStoredFile, type ReadCache } from '../explorer/explorer.service.ts';

/** "Neu für Sie" (decision 131): new documents, pending confirmations, next events. */
export function newsService(ctx: AppContext, cache: ReadCache) {
  const db = () => ctx.db.kysely;
  const reads = readStateService(ctx, cache);
  const events = eventsService(ctx);

  return {
    async get(principal: Principal): Promise<News> {
      const view = await cache.view();
      const now = ctx.clock.now().toISOString();
      const tree = await view.folderTree(viewerOf(principal));
      const news = await cache.reads.news(view, principal);
      const newest = news.files.slice(0, NEWS_FILES_LIMIT).map((file) => file.id);
      const [newFiles, required, portalEvents] = await Promise.all([
        loadFiles(db(), { ids: newest }),
        loadFiles(db(), { acknowledgementRequired: true, visible: fileFilter(tree) }),
        events.list(principal, { endsFrom: now, limit: NEWS_EVENTS_LIMIT }),
      ]);
      const visibleNew = newFiles.filter((file) => canSeeFile(tree, file));
      const visibleRequired = required.filter((file) => canSeeFile(tree, file));
      const member = await memberFieldsOf(ctx, news, principal, [...visibleNew, ...visibleRequired]);
      const present = (file: (typeof newFiles)[number]) => toStoredFile(file, tree, member.get(file.id));
      const order = new Map(newest.map((id, index) => [id, index]));
      return {
        files: visibleNew.sort((a, b) => order.get(a.id)! - order.get(b.id)!).map(present),
        files_total: news.files.length,
        acknowledgements: visibleRequired
          .filter((file) => member.get(file.id)?.acknowledgedAt === null)
          .sort(
            (a, b) =>
              (a.acknowledgement_due ?? '9999').localeCompare(b.acknowledgement_due ?? '9999') ||
              compareTitles(a, b),
          )
          .map(present),
        // Not over yet, by start, at most the limit: as the query chose them.
        events: portalEvents,
      };
    },

    /** "Alle als gelesen markieren": a folder with everything below it, or everything. */
    markRead(principal: Principal, folderId?: number): Promise<number> {
      return reads.markRead(principal, folderId);
    },
  };
}
