import { useState, type FormEvent } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconArrowBackUp } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { TRASH_MESSAGES } from '@gremienportal/contracts/trash';
import { ErrorState } from '../../../components/error-state';
import { FolderSelect } from '../../../components/folder-select';
import { LoadingState } from '../../../components/loading-state';
import { restoreTargetsQueryOptions, type TrashItem } from '../trash.api';

interface RestoreTargetModalProps {
  /** The entry to restore; null while closed. */
  item: TrashItem | null;
  busy: boolean;
  /** The server's message for the chosen folder (a 422 `errors.folder_id`). */
  error: string | null;
  onSubmit: (folderId: number) => void;
  onClose: () => void;
}

function TargetForm({ item, busy, error, onSubmit, onClose }: RestoreTargetModalProps & { item: TrashItem }) {
  const type = item.type === 'file' ? 'file' : 'folder';
  const targets = useQuery(restoreTargetsQueryOptions(type));
  const [value, setValue] = useState('');
  const [missing, setMissing] = useState(false);

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!value) {
      setMissing(true);
      return;
    }
    onSubmit(Number(value));
  };

  if (targets.isPending) return <LoadingState />;
  if (targets.isError)
    return <ErrorState detail={targets.error.message} onRetry={() => void targets.refetch()} />;

  return (
    <form onSubmit={handleSubmit} noValidate aria-label="Zielordner wählen">
      <Stack gap="md">
        <Text style={{ overflowWrap: 'break-word' }}>
          {item.former_path
            ? `„${item.title}“ lag in „${item.former_path}“. ${TRASH_MESSAGES.targetRequired}`
            : TRASH_MESSAGES.targetRequired}
        </Text>
        {type === 'file' ? (
          <Text size="sm" c="dimmed">
            Dateien liegen immer in einem Unterordner, nie direkt im Hauptordner.
          </Text>
        ) : null}
        <FolderSelect
          label="Wiederherstellen in"
          name="folder_id"
          ref={() => {}}
          onBlur={() => {}}
          disabled={busy}
          options={targets.data}
          value={value}
          onChange={(next) => {
            setValue(next);
            setMissing(false);
          }}
          error={missing ? 'Bitte einen Zielordner wählen.' : (error ?? undefined)}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={busy}>
            Abbrechen
          </Button>
          <Button type="submit" loading={busy} leftSection={<IconArrowBackUp size={18} aria-hidden />}>
            Wiederherstellen
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** "Zielordner wählen": where an entry goes whose former folder is gone (decision 125). */
export function RestoreTargetModal(props: RestoreTargetModalProps) {
  return (
    <Modal opened={props.item !== null} onClose={props.onClose} title="Zielordner wählen" centered>
      {props.item ? <TargetForm key={props.item.id} {...props} item={props.item} /> : null}
    </Modal>
  );
}
