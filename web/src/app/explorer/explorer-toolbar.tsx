import { lazy } from 'react';
import { Button, Group, Text } from '@mantine/core';
import { IconFolderPlus, IconUpload } from '@tabler/icons-react';
import { FOLDER_MESSAGES } from '@gremienportal/contracts/file-messages';
import { ArchiveBadge } from '../../components/archive-badge';
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
  /** The folder of an ended Amtsperiode or below it (decision 189): read-only, its roles aside. */
  archived?: boolean;
  /** It or a folder below it is archived: it cannot be deleted. */
  holdsArchived?: boolean;
}

/**
 * The admins' actions for the active folder (product.md P3.5, P4.3), calm: only what can be done
 * here is shown. "Datei hochladen" is the main action, "Neuer Ordner" next to it; editing, deleting
 * and the Amtsperiode are rare (deleting destructive) and wait in the "⋯" menu. Creating and
 * uploading need a subfolder, the protected folders 1–4 cannot be edited or deleted: those
 * actions are left out rather than shown disabled with a sentence each (decision 124). An archived
 * folder (decision 189) keeps only "Ordner bearbeiten" (its roles) and the Papierkorb; one sentence
 * in place of the missing buttons says why.
 */
export function ExplorerToolbar({
  folderId,
  onAction,
  deleting = false,
  archived = false,
  holdsArchived = false,
}: ExplorerToolbarProps) {
  const creatable = canCreateIn(folderId) && !archived;
  const changeable = canChangeFolder(folderId);

  return (
    <Group gap={8} component="section" aria-label="Ordner und Dateien verwalten">
      {archived ? (
        <Group gap={8} wrap="nowrap" style={{ flex: '1 1 20rem', minWidth: 0 }}>
          <ArchiveBadge />
          <Text size="sm" c="dimmed">
            {FOLDER_MESSAGES.archived}
          </Text>
        </Group>
      ) : null}
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
        <MoreActionsMenu
          defaultOpened
          changeable={changeable}
          archived={archived}
          deletable={changeable && !holdsArchived}
          deleting={deleting}
          onAction={onAction}
        />
      </DeferredMenu>
    </Group>
  );
}
