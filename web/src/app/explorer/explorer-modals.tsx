import { lazy, Suspense } from 'react';
import { Group, Modal, Stack, Text } from '@mantine/core';
import {
  IconCalendarPlus,
  IconFolder,
  IconFolderCog,
  IconFolderPlus,
  IconPencil,
  IconUpload,
  type Icon,
} from '@tabler/icons-react';
import { LoadingState } from '../../components/loading-state';
import type { ExplorerModalsProps } from './explorer-modal.types';
import { REPLACE_KEEPS_VERSION } from '../../features/files/files.rules';

/** The explorer's five modals (product.md P3) with their exact texts. */
export const EXPLORER_MODAL_TEXTS = {
  'create-folder': {
    title: 'Ordner erstellen',
    text: 'Der Ordner wird im derzeit aktiven Ordner angelegt.',
  },
  'edit-folder': { title: 'Ordner bearbeiten', text: 'Der derzeit aktive Ordner wird bearbeitet.' },
  upload: { title: 'Datei hochladen', text: 'Die Datei wird in den derzeit aktiven Ordner hochgeladen.' },
  'edit-file': {
    title: 'Datei bearbeiten',
    text: 'Durch das Hochladen einer neuen Datei wird die bestehende Datei überschrieben.',
  },
  period: {
    title: 'Amtsperiode erstellen',
    text: 'Mit dem Festlegen des Starts und des Ends einer Amtsperiode werden alle benötigten Ordner erstellt',
  },
} as const;

/** The same icon as on the button that opens the modal, so button and dialog visibly belong together. */
const MODAL_ICONS: Record<keyof typeof EXPLORER_MODAL_TEXTS, Icon> = {
  'create-folder': IconFolderPlus,
  'edit-folder': IconFolderCog,
  upload: IconUpload,
  'edit-file': IconPencil,
  period: IconCalendarPlus,
};

/** The modals that act on the active folder name it below their text (decision 124). */
const NAMES_ACTIVE_FOLDER = new Set<string>(['create-folder', 'edit-folder', 'upload', 'period']);

// The forms, the drop zone and the validation load only when an admin opens a modal.
const ExplorerModalBody = lazy(() =>
  import('./explorer-modal-body').then((module) => ({ default: module.ExplorerModalBody })),
);

/**
 * The modal frame with title and text loads with the page, so it opens at once; its form follows
 * from its own chunk. Every modal closes on success, on its close button, on a click outside and
 * on Escape (Mantine's defaults).
 */
export function ExplorerModals({ modal, onClose, ...props }: ExplorerModalsProps) {
  const texts = modal ? EXPLORER_MODAL_TEXTS[modal.kind] : null;
  const TitleIcon = modal ? MODAL_ICONS[modal.kind] : null;
  return (
    <Modal
      opened={modal !== null}
      onClose={onClose}
      title={
        texts && TitleIcon ? (
          <Group component="span" gap={8} wrap="nowrap">
            <TitleIcon size={20} aria-hidden style={{ flexShrink: 0 }} />
            {texts.title}
          </Group>
        ) : null
      }
      size={modal?.kind === 'upload' || modal?.kind === 'edit-file' ? 'lg' : 'md'}
      centered
    >
      {modal && texts ? (
        <Stack gap="md">
          <Text>{texts.text}</Text>
          {modal.kind === 'edit-file' ? (
            <Text size="sm" c="dimmed">
              {REPLACE_KEEPS_VERSION}
            </Text>
          ) : null}
          {NAMES_ACTIVE_FOLDER.has(modal.kind) ? (
            <Group gap={8} wrap="nowrap" align="flex-start">
              <IconFolder size={18} aria-hidden style={{ flexShrink: 0, marginTop: 3 }} />
              <Text fw={600} style={{ overflowWrap: 'break-word', minWidth: 0 }}>
                <Text span c="dimmed" fw={400}>
                  Aktiver Ordner:{' '}
                </Text>
                {props.folder.breadcrumb === '/' ? 'Hauptordner' : props.folder.breadcrumb}
              </Text>
            </Group>
          ) : null}
          <Suspense fallback={<LoadingState />}>
            <ExplorerModalBody modal={modal} onClose={onClose} {...props} />
          </Suspense>
        </Stack>
      ) : null}
    </Modal>
  );
}
