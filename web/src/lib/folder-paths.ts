/** Folder paths (breadcrumbs) as the folder tree and the upload defaults compare them. */

export const ROOT_PATH = '/';

/**
 * Whether `path` is `breadcrumb` or lies below it. Compared by whole path segments: product.md P3's
 * "starts with" would also count `/Aufsichtsrat-Archiv` as inside `/Aufsichtsrat`.
 */
export function isWithinPath(path: string, breadcrumb: string): boolean {
  if (breadcrumb === ROOT_PATH) return path.startsWith(ROOT_PATH);
  return path === breadcrumb || path.startsWith(`${breadcrumb}/`);
}

/** Folders as the options of a folder select, which holds their ids and shows their paths. */
export const folderOptionsOf = (folders: readonly { id: number; breadcrumb: string }[]) =>
  folders.map((folder) => ({ value: String(folder.id), label: folder.breadcrumb }));
