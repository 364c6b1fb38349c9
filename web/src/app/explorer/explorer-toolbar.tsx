import { lazy } from 'react';
import { Button, Group } from '@mantine/core';
import { IconFolderPlus, IconUpload } from '@tabler/icons-react';
import { canChangeFolder, canCreateIn } from '../../features/folders/folders.rules';
import { DeferredMenu } from '../../components/deferred-menu';
import { MORE_ACTIONS_LABEL, MoreActionsButton, type ToolbarAction } from './explorer-actions';

export { MORE_ACTIONS_LABEL, type ToolbarAction };

const MoreActionsMenu = lazy(() => import('./explorer-more-menu'));

interface ExplorerToolbarProps {
  folderId: number;
  onAction: (action: ToolbarAction) => void;
  /** While a delete is asked for or running. */
  deleting?: boolean;
}

/**
 * The admins' actions for the active folder (product.md P3.5, P4.3), calm: only what can be done
 * here is shown. "Datei hochladen" is the main action, "Neuer Ordner" next to it; editing, deleting
 * and the Amtsperiode are rare (deleting destructive) and wait in the "⋯" menu. Creating and
 * uploading need a subfolder, the protected folders 1–4 cannot be edited or deleted: those
 * actions are left out rather than shown disabled with a sentence each (decision 124).
 */
export function ExplorerToolbar({ folderId, onAction, deleting = false }: ExplorerToolbarProps) {
  const creatable = canCreateIn(folderId);
  const changeable = canChangeFolder(folderId);

  return (
    <Group gap={8} component="section" aria-label="Ordner und Dateien verwalten">
      {creatable ? (
        <>
          <Button
            size="sm"
            leftSection={<IconUpload size={18} aria-hidden />}
            onClick={() => onAction('upload')}
          >
            Datei hochladen
          </Button>
          <Button
            size="sm"
            variant="default"
            leftSection={<IconFolderPlus size={18} aria-hidden />}
            onClick={() => onAction('create-folder')}
          >
            Neuer Ordner
          </Button>
        </>
      ) : null}
      <DeferredMenu trigger={(onClick) => <MoreActionsButton deleting={deleting} onClick={onClick} />}>
        <MoreActionsMenu defaultOpened changeable={changeable} deleting={deleting} onAction={onAction} />
      </DeferredMenu>
    </Group>
  );
}
