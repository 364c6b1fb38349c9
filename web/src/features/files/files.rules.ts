import type { Role } from '@gremienportal/contracts/common';
import type { UploadExtension } from '../../components/upload-dropzone';
import { isWithinPath } from '../../lib/folder-paths';

/** The document rules of product.md P3.5 and P4.3 as plain functions, so they are tested on their own. */

/**
 * The document types the file drop zones take: product.md P13.1's map (avi, gif, ico, jpeg, jpg, mkv,
 * mov, mp4, pdf, png, zip, doc, docx) plus the office, image, audio and mail formats committees use.
 */
// prettier-ignore
export const DOCUMENT_EXTENSIONS: readonly UploadExtension[] = [
  'pdf', 'doc', 'docx', 'odt', 'rtf', 'txt', 'csv', 'xls', 'xlsx', 'ods', 'ppt', 'pptx', 'odp',
  'png', 'jpg', 'jpeg', 'gif', 'webp', 'bmp', 'tif', 'tiff', 'ico',
  'mp4', 'mov', 'avi', 'mkv', 'mp3', 'wav', 'zip', 'eml', 'msg', 'ics',
];

/** The top-level folders whose documents belong to one committee (product.md P4, product.md P6.2). */
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

/** Notifications may only go to roles that can see the file (product.md P4). */
export const notificationOptionsFor = (chosenRoleIds: readonly string[], roles: readonly Role[]) =>
  roles
    .filter((role) => chosenRoleIds.includes(String(role.id)))
    .map((role) => ({ value: String(role.id), label: role.name }));

/** Under "Durch das Hochladen … überschrieben" (product.md's text): since decision 125 nothing is lost. */
export const REPLACE_KEEPS_VERSION =
  'Die bisherige Fassung bleibt als Version erhalten und lässt sich auf der Seite der Datei wiederherstellen.';
