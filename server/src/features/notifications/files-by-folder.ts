import { compareBreadcrumbs, type FolderNode, type FolderTree } from '../../policies/folders.policy.ts';

/**
 * Documents a member may see, as a mail lists them: grouped by folder, the folders by breadcrumb,
 * each document as `item` makes it, in the order given. For the digest and a batch's mail.
 */
export function filesByFolder<F extends { folder_id: number }, I>(
  files: readonly F[],
  tree: FolderTree<FolderNode>,
  item: (file: F) => I,
): { breadcrumb: string; files: I[] }[] {
  const byFolder = new Map<number, { breadcrumb: string; files: I[] }>();
  for (const file of files) {
    const folder = byFolder.get(file.folder_id) ?? {
      breadcrumb: tree.byId.get(file.folder_id)!.breadcrumb,
      files: [],
    };
    folder.files.push(item(file));
    byFolder.set(file.folder_id, folder);
  }
  return [...byFolder.values()].sort(compareBreadcrumbs);
}
