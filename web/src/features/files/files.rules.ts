import type { Role } from '@gremienportal/contracts/common';
import { PROTECTED_FOLDER_IDS, ROOT_FOLDER_ID } from '@gremienportal/contracts/common';
import type { TreeNode } from '@gremienportal/contracts/files';
import type { UploadExtension } from '../../components/upload-dropzone';

/** The explorer's rules of spec § 2 and § 4 as plain functions, so they are tested on their own. */

export const ROOT_PATH = '/';

/**
 * The document types the file drop zones take: spec § 9's map (avi, gif, ico, jpeg, jpg, mkv,
 * mov, mp4, pdf, png, zip, doc, docx) plus the office, image, audio and mail formats committees use.
 */
// prettier-ignore
export const DOCUMENT_EXTENSIONS: readonly UploadExtension[] = [
  'pdf', 'doc', 'docx', 'odt', 'rtf', 'txt', 'csv', 'xls', 'xlsx', 'ods', 'ppt', 'pptx', 'odp',
  'png', 'jpg', 'jpeg', 'gif', 'webp', 'bmp', 'tif', 'tiff', 'ico',
  'mp4', 'mov', 'avi', 'mkv', 'mp3', 'wav', 'zip', 'eml', 'msg', 'ics',
];

/**
 * Whether `path` is `breadcrumb` or lies below it. Compared by whole path segments: spec § 2's
 * "starts with" would also count `/Aufsichtsrat-Archiv` as inside `/Aufsichtsrat`.
 */
export function isWithinPath(path: string, breadcrumb: string): boolean {
  if (breadcrumb === ROOT_PATH) return path.startsWith(ROOT_PATH);
  return path === breadcrumb || path.startsWith(`${breadcrumb}/`);
}

/** Spec § 2: a tree node is expanded when the active folder path starts with its breadcrumb. */
export const isNodeExpanded = (node: Pick<TreeNode, 'breadcrumb'>, activePath: string) =>
  isWithinPath(activePath, node.breadcrumb);

/** Spec § 4: no uploads and no new folders in the root folder. */
export const canCreateIn = (folderId: number) => folderId !== ROOT_FOLDER_ID;

/** Spec § 4: the protected folders 1–4 are never edited or deleted. */
export const canChangeFolder = (folderId: number) => !PROTECTED_FOLDER_IDS.includes(folderId);

export const ROOT_DISABLED_REASON =
  'Im Hauptordner können keine Dateien hochgeladen und keine Ordner angelegt werden. Bitte zuerst einen Unterordner öffnen.';
export const PROTECTED_DISABLED_REASON =
  'Dieser Ordner ist geschützt und kann weder bearbeitet noch gelöscht werden.';

/** The top-level folders whose documents belong to one committee (spec § 4, DESIGN 4.10). */
export const COMMITTEE_FOLDER_ROLES: readonly { path: string; role: string }[] = [
  { path: '/Aufsichtsrat', role: 'Aufsichtsrat' },
  { path: '/Mitgliedervertreter', role: 'Vertreter' },
];

/**
 * The preselected "Zugriffsberechtigung" of an upload: Aufsichtsrat under /Aufsichtsrat, Vertreter
 * under /Mitgliedervertreter, otherwise the roles of the folder itself. Returns role ids as the
 * selects hold them; roles the server does not know are left out.
 */
export function defaultUploadRoleIds(
  folderPath: string,
  folderRoles: readonly string[],
  roles: readonly Role[],
): string[] {
  const committee = COMMITTEE_FOLDER_ROLES.find((entry) => isWithinPath(folderPath, entry.path));
  const names = committee ? [committee.role] : folderRoles;
  return roles.filter((role) => names.includes(role.name)).map((role) => String(role.id));
}

/** Role names to the ids the selects hold. */
export const roleIdsOf = (names: readonly string[], roles: readonly Role[]) =>
  roles.filter((role) => names.includes(role.name)).map((role) => String(role.id));

/** Notifications may only go to roles that can see the file (spec § 4). */
export const notificationOptionsFor = (chosenRoleIds: readonly string[], roles: readonly Role[]) =>
  roles
    .filter((role) => chosenRoleIds.includes(String(role.id)))
    .map((role) => ({ value: String(role.id), label: role.name }));

/** A folder of a tree: the API's `TreeNode` or the explorer's leaner `FolderNode`. */
interface TreeFolder<T> {
  id: number;
  children: readonly T[];
}

/** Lookups into one loaded tree: built once per tree, then each lookup is a map read. */
export interface TreeIndex<T> {
  /** The folder with `id`, or undefined when the tree does not hold it. */
  node(id: number): T | undefined;
  /** The folder above the folder with `id`, or undefined for the root and unknown ids. */
  parent(id: number): T | undefined;
  /** The chain of folders from the root down to the folder with `id` (both included). */
  chain(id: number): T[];
}

/**
 * Indexes every folder of the tree by id, with its parent. The explorer looks up the active
 * folder and its path on every render; walking a tree of thousands of folders each time made
 * those renders slow (decision 114).
 */
export function indexTree<T extends TreeFolder<T>>(root: T): TreeIndex<T> {
  const nodes = new Map<number, T>();
  const parents = new Map<number, T>();
  const stack: T[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    nodes.set(node.id, node);
    for (const child of node.children) {
      parents.set(child.id, node);
      stack.push(child);
    }
  }
  return {
    node: (id) => nodes.get(id),
    parent: (id) => parents.get(id),
    chain: (id) => {
      const chain: T[] = [];
      for (let node = nodes.get(id); node; node = parents.get(node.id)) chain.unshift(node);
      return chain;
    },
  };
}

/** A folder id from the address (`?folder=12`); the root for anything missing or malformed. */
export function folderIdFromParam(value: string | null): number {
  if (!value || !/^[1-9]\d{0,9}$/.test(value)) return ROOT_FOLDER_ID;
  const id = Number(value);
  return id <= 2_147_483_647 ? id : ROOT_FOLDER_ID;
}

/** The explorer's address for a folder: the root is the bare page. */
export const folderSearch = (id: number) => (id === ROOT_FOLDER_ID ? '' : `?folder=${id}`);
