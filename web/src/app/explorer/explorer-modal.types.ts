import type { Folder } from '@gremienportal/contracts/folders';
import type { StoredFile } from '../../features/files/files.api';

/**
 * What the explorer's modal frame and its lazily loaded body share; its own module, so the body
 * does not import the frame that loads it.
 */

export type ExplorerModalState =
  | { kind: 'create-folder' }
  | { kind: 'edit-folder' }
  | { kind: 'upload' }
  | { kind: 'period' }
  | { kind: 'edit-file'; file: StoredFile };

/** The active folder as the modals need it. */
export interface ActiveFolder {
  id: number;
  title: string;
  breadcrumb: string;
  parent_id: number | null;
  roles: readonly string[];
  /** An ended Amtsperiode's folder or below it (decision 189): only its roles may change. */
  archived: boolean;
}

export interface ExplorerModalsProps {
  modal: ExplorerModalState | null;
  folder: ActiveFolder;
  onClose: () => void;
  /** After a folder was created (explorer: it stays in the active folder). */
  onFolderCreated?: (folder: Folder) => void;
  /** After the active folder was renamed or moved: its new path becomes the active one. */
  onFolderSaved?: (folder: Folder) => void;
  onPeriodCreated?: (folder: Folder) => void;
}
