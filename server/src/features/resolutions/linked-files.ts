import type { AppContext } from '../../context.ts';
import { loadFiles, loadFolders } from '../../db/document-records.ts';
import { fileFilter } from '../../policies/files.policy.ts';
import { FolderTree } from '../../policies/folders.policy.ts';
import { viewerOf, type Principal } from '../../policies/principal.ts';

/**
 * The names of the linked documents the files policy lets the principal see (decision 190): a
 * motion's and a resolution's documents, as the agenda shows them. Hidden and removed ones are
 * left out, as missing ones.
 */
export async function visibleFileNames(
  ctx: AppContext,
  principal: Principal,
  ids: readonly number[],
): Promise<Map<number, string>> {
  const unique = [...new Set(ids)].slice(0, 1000);
  if (unique.length === 0) return new Map();
  const db = ctx.db.kysely;
  const tree = new FolderTree(await loadFolders(db), viewerOf(principal));
  const files = await loadFiles(db, { ids: unique, visible: fileFilter(tree) });
  return new Map(files.map((file) => [file.id, file.title]));
}
