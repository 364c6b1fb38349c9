import { lazy, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconCalendarEvent, IconFolderShare, IconPencil, IconTrash } from '@tabler/icons-react';
import { COMMITTEE_KIND_LABELS, memberCountLabel, type Committee } from '@gremienportal/contracts/committees';
import { openConfirmDialog } from '../../../components/confirm-dialog';
import { DismissibleError } from '../../../components/dismissible-error';
import { PageTitle } from '../../../components/page-title';
import { showSuccessToast } from '../../../components/toasts';
import { errorMessage } from '../../../lib/api-client';
import { useDeleteCommittee } from '../committees.api';
import { FormModal } from './form-modal';

const CommitteeForm = lazy(() => import('./committee-form'));

export const DELETE_FAILED = 'Das Gremium konnte nicht gelöscht werden.';

/** Name, Art, Rolle and the current term, the ways to the folder and the meetings; admins edit or delete. */
export function CommitteeHeader({ committee, isAdmin }: { committee: Committee; isAdmin: boolean }) {
  const [editOpened, editModal] = useDisclosure(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const deleteCommittee = useDeleteCommittee();
  const navigate = useNavigate();

  const handleDelete = () =>
    openConfirmDialog({
      title: 'Gremium löschen',
      message: `Soll das Gremium „${committee.name}“ gelöscht werden? Ein Gremium mit Amtsperioden lässt sich nicht löschen.`,
      onConfirm: () => {
        setDeleteError(null);
        deleteCommittee.mutate(committee.id, {
          onSuccess: () => {
            showSuccessToast(`Das Gremium „${committee.name}“ wurde gelöscht.`);
            void navigate('/gremien');
          },
          onError: (error) => setDeleteError(errorMessage(error, '')),
        });
      },
    });

  return (
    <Stack gap="sm">
      <Button component={Link} to="/gremien" variant="subtle" px={0} w="fit-content">
        Alle Gremien
      </Button>
      <PageTitle documentTitle={committee.name}>
        <Text span inherit style={{ overflowWrap: 'anywhere' }}>
          {committee.name}
        </Text>
      </PageTitle>
      <Group gap="xs">
        <Text size="sm" component="span">
          Art: {COMMITTEE_KIND_LABELS[committee.kind]} · Rolle:
        </Text>
        <Badge component="span">{committee.role.name}</Badge>
      </Group>
      <Text size="sm" c="dimmed">
        {committee.current_term
          ? `${committee.current_term.title}, ${memberCountLabel(committee.member_count)}`
          : 'Keine laufende Amtsperiode'}
      </Text>
      <DismissibleError title={DELETE_FAILED} error={deleteError} onClose={() => setDeleteError(null)} />
      <Group gap="sm" wrap="wrap">
        {committee.folder ? (
          <Button
            component={Link}
            to={`/files?folder=${committee.folder.id}`}
            variant="default"
            leftSection={<IconFolderShare size={18} aria-hidden />}
          >
            Ordner öffnen
          </Button>
        ) : null}
        <Button
          component={Link}
          to="/events"
          variant="default"
          leftSection={<IconCalendarEvent size={18} aria-hidden />}
        >
          Sitzungen
        </Button>
        {isAdmin ? (
          <>
            <Button
              variant="default"
              leftSection={<IconPencil size={18} aria-hidden />}
              onClick={editModal.open}
            >
              Gremium bearbeiten
            </Button>
            <Button
              variant="outline"
              color="red.9"
              leftSection={<IconTrash size={18} aria-hidden />}
              onClick={handleDelete}
              loading={deleteCommittee.isPending}
            >
              Gremium löschen
            </Button>
          </>
        ) : null}
      </Group>
      {isAdmin ? (
        <FormModal opened={editOpened} onClose={editModal.close} title="Gremium bearbeiten">
          <CommitteeForm committee={committee} onCancel={editModal.close} onDone={editModal.close} />
        </FormModal>
      ) : null}
    </Stack>
  );
}
