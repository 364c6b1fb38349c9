import { canSeeEvent } from './events.policy.ts';
import { canSeeFile } from './files.policy.ts';
import { canSeeFolder, treesByViewer, type FolderNode } from './folders.policy.ts';
import type { Viewer } from './principal.ts';

/** What "who can see this now" needs of the object: the same rules the object's feature uses. */
export type VisibilitySubject =
  | { type: 'event'; roles: readonly { id: number }[] }
  | { type: 'folder'; id: number; folders: readonly FolderNode[] }
  | {
      type: 'file';
      file: { folder_id: number; roles: readonly { id: number }[] };
      folders: readonly FolderNode[];
    };

/** The rule that decides, per viewer, whether they see the subject (product.md P5). */
export function seesSubject(subject: VisibilitySubject): (viewer: Viewer) => boolean {
  if (subject.type === 'event') return (viewer) => canSeeEvent(viewer, subject);
  const treeOf = treesByViewer(subject.folders);
  if (subject.type === 'folder') return (viewer) => canSeeFolder(treeOf(viewer), subject.id);
  return (viewer) => canSeeFile(treeOf(viewer), subject.file);
}

/** Why a viewer sees the subject, as the accesses list names it: as an administrator, or by role. */
export const seeingReason = (viewer: Viewer): 'admin' | 'roles' => (viewer.isAdmin ? 'admin' : 'roles');
