import { lazy } from 'react';
import { useNavigate } from 'react-router';
import { Button, Group, Stack } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { ErrorState } from '../../components/error-state';
import { LoadingState } from '../../components/loading-state';
import { PageTitle } from '../../components/page-title';
import { committeesQueryOptions } from '../../features/committees/committees.api';
import { CommitteeCards } from '../../features/committees/components/committee-cards';
import { FormModal } from '../../features/committees/components/form-modal';
import { useAuth } from '../../lib/auth';

// Only admins create committees: the form and its rules load when the dialog opens.
const CommitteeForm = lazy(() => import('../../features/committees/components/committee-form'));

/** /gremien: the committees the member belongs to (admins: all); admins add one in a dialog. */
export default function CommitteesPage() {
  const { isAdmin } = useAuth();
  const committees = useQuery(committeesQueryOptions());
  const [createOpened, createModal] = useDisclosure(false);
  const navigate = useNavigate();

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start" gap="sm">
        <PageTitle>Gremien</PageTitle>
        {isAdmin ? (
          <Button leftSection={<IconPlus size={18} aria-hidden />} onClick={createModal.open}>
            Gremium anlegen
          </Button>
        ) : null}
      </Group>
      {committees.isPending ? (
        <LoadingState />
      ) : committees.isError ? (
        <ErrorState detail={committees.error.message} onRetry={() => void committees.refetch()} />
      ) : (
        <CommitteeCards committees={committees.data} isAdmin={isAdmin} />
      )}
      {isAdmin ? (
        <FormModal opened={createOpened} onClose={createModal.close} title="Gremium anlegen">
          <CommitteeForm
            onCancel={createModal.close}
            onDone={(committee) => {
              createModal.close();
              void navigate(`/gremien/${committee.id}`);
            }}
          />
        </FormModal>
      ) : null}
    </Stack>
  );
}
