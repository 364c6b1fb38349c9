import { lazy, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Alert, Badge, Button, Group, Select, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconCalendarPlus,
  IconFileImport,
  IconFolderShare,
  IconLock,
  IconLockOpen,
  IconPencil,
  IconTrash,
  IconUserPlus,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { germanDate, type Committee, type Membership, type Term } from '@gremienportal/contracts/committees';
import { openConfirmDialog } from '../../../components/confirm-dialog';
import { ErrorState } from '../../../components/error-state';
import { LoadingState } from '../../../components/loading-state';
import { PageSection } from '../../../components/page-section';
import { showSuccessToast } from '../../../components/toasts';
import { errorMessage, isApiError } from '../../../lib/api-client';
import {
  membersQueryOptions,
  termsQueryOptions,
  useConfirmSuccessor,
  useDeleteMembership,
  useDeleteTerm,
  useUpdateTerm,
} from '../committees.api';
import {
  berlinToday,
  defaultTerm,
  functionLabel,
  memberName,
  nextDay,
  sortTerms,
  termEditable,
} from '../committees.rules';
import { FormModal } from './form-modal';
import { MemberDirectory } from './member-directory';

const TermForm = lazy(() => import('./term-form'));
const MembershipForm = lazy(() => import('./membership-form'));
const MemberImport = lazy(() => import('./member-import'));

/** The address parameter of the term shown: `/gremien/3?amtsperiode=12`. */
export const TERM_PARAM = 'amtsperiode';

/** A failed action's toast: its fixed text and the server's German reason. */
function showActionError(title: string, error: unknown) {
  if (isApiError(error) && error.kind === 'aborted') return;
  const detail = errorMessage(error, '');
  notifications.show(
    detail && detail !== title ? { color: 'red', title, message: detail } : { color: 'red', message: title },
  );
}

type Dialog =
  { kind: 'term'; term?: Term } | { kind: 'membership'; membership?: Membership } | { kind: 'import' } | null;

interface CommitteeTermsProps {
  committee: Committee;
  isAdmin: boolean;
  isSuperAdmin: boolean;
}

/**
 * The committee's Amtsperioden: the chosen one's members (the current term first), earlier ones
 * to read in the Archiv; admins add terms and members, import them and confirm who moves up.
 */
export function CommitteeTerms({ committee, isAdmin, isSuperAdmin }: CommitteeTermsProps) {
  const terms = useQuery(termsQueryOptions(committee.id));
  const [searchParams, setSearchParams] = useSearchParams();
  const [dialog, setDialog] = useState<Dialog>(null);
  const updateTerm = useUpdateTerm(committee.id);
  const deleteTerm = useDeleteTerm(committee.id);
  const deleteMembership = useDeleteMembership(committee.id);
  const confirmSuccessor = useConfirmSuccessor(committee.id);
  const today = berlinToday();

  const sorted = sortTerms(terms.data ?? []);
  const wanted = Number(searchParams.get(TERM_PARAM));
  const term =
    sorted.find((candidate) => candidate.id === wanted) ?? defaultTerm(sorted, committee.current_term?.id);
  const members = useQuery({
    ...membersQueryOptions(committee.id, term?.id ?? 0),
    enabled: term !== undefined,
  });

  const chooseTerm = (id: number | null) =>
    setSearchParams(
      (params) => {
        const next = new URLSearchParams(params);
        if (id === null) next.delete(TERM_PARAM);
        else next.set(TERM_PARAM, String(id));
        return next;
      },
      { replace: true },
    );
  const closeDialog = () => setDialog(null);

  if (terms.isPending) return <LoadingState />;
  if (terms.isError) return <ErrorState detail={terms.error.message} onRetry={() => void terms.refetch()} />;

  const editable = term !== undefined && termEditable(term);
  const canChange = isAdmin && editable;
  const nextRank =
    Math.max(
      0,
      ...(members.data ?? [])
        .filter((membership) => membership.function === 'ersatzmitglied')
        .map((membership) => membership.rank ?? 0),
    ) + 1;

  const handleDeleteTerm = (target: Term) =>
    openConfirmDialog({
      title: 'Amtsperiode löschen',
      message: `Soll die ${target.title} gelöscht werden? Eine Amtsperiode mit Mitgliedschaften lässt sich nicht löschen.`,
      onConfirm: () =>
        deleteTerm.mutate(target.id, {
          onSuccess: () => {
            showSuccessToast(`Die ${target.title} wurde gelöscht.`);
            chooseTerm(null);
          },
          onError: (error) => showActionError('Die Amtsperiode konnte nicht gelöscht werden.', error),
        }),
    });

  const handleArchive = (target: Term, archived: boolean) =>
    openConfirmDialog({
      title: archived ? 'Archiv wieder schließen' : 'Archiv wieder öffnen',
      message: archived
        ? `Der Ordner der ${target.title} ist danach wieder schreibgeschützt.`
        : `Der Ordner der ${target.title} lässt sich danach wieder ändern, bis Sie das Archiv wieder schließen.`,
      confirmLabel: archived ? 'Archiv schließen' : 'Archiv öffnen',
      danger: false,
      onConfirm: () =>
        updateTerm.mutate(
          { id: target.id, body: { start: target.start, end: target.end, archived } },
          {
            onSuccess: () =>
              showSuccessToast(
                archived
                  ? `Das Archiv der ${target.title} ist wieder geschlossen.`
                  : `Das Archiv der ${target.title} ist wieder geöffnet.`,
              ),
            onError: (error) =>
              showActionError(
                archived
                  ? 'Das Archiv konnte nicht geschlossen werden.'
                  : 'Das Archiv konnte nicht geöffnet werden.',
                error,
              ),
          },
        ),
    });

  const handleDeleteMembership = (membership: Membership) =>
    openConfirmDialog({
      title: 'Mitgliedschaft löschen',
      message: `Soll die Mitgliedschaft von ${memberName(membership)} (${functionLabel(membership)}) gelöscht werden? Wer vorzeitig ausscheidet, bekommt besser ein „Bis“-Datum und einen Grund: dann bleibt es im Verzeichnis nachvollziehbar.`,
      onConfirm: () =>
        deleteMembership.mutate(membership.id, {
          onSuccess: () =>
            showSuccessToast(`Die Mitgliedschaft von ${memberName(membership)} wurde gelöscht.`),
          onError: (error) => showActionError('Die Mitgliedschaft konnte nicht gelöscht werden.', error),
        }),
    });

  const handleConfirmSuccessor = (membership: Membership) => {
    const successor = membership.proposed_successor;
    if (!successor) return;
    openConfirmDialog({
      title: 'Nachrücken bestätigen',
      message: (
        <Stack gap="xs">
          <Text fw={600}>{successor.name} rückt nach</Text>
          <Text size="sm">
            für {memberName(membership)}, ausgeschieden zum {germanDate(membership.until)}, und wird ab dem{' '}
            {germanDate(nextDay(membership.until))} Mitglied.
          </Text>
        </Stack>
      ),
      confirmLabel: 'Nachrücken bestätigen',
      danger: false,
      onConfirm: () =>
        confirmSuccessor.mutate(membership.id, {
          onSuccess: () => showSuccessToast(`${successor.name} ist nachgerückt.`),
          onError: (error) => showActionError('Das Nachrücken konnte nicht bestätigt werden.', error),
        }),
    });
  };

  const termOptions = sorted.map((candidate) => ({
    value: String(candidate.id),
    label: `${candidate.title}${candidate.archived ? ' (Archiv)' : ''}`,
  }));

  const addTermButton = isAdmin ? (
    <Button
      variant="default"
      leftSection={<IconCalendarPlus size={18} aria-hidden />}
      onClick={() => setDialog({ kind: 'term' })}
    >
      Amtsperiode anlegen
    </Button>
  ) : null;

  return (
    <PageSection
      title="Mitgliederverzeichnis"
      description={term ? `${germanDate(term.start)} bis ${germanDate(term.end)}` : undefined}
    >
      {term === undefined ? (
        <Stack gap="sm" align="flex-start">
          <Text c="dimmed">Für dieses Gremium gibt es noch keine Amtsperiode.</Text>
          {addTermButton}
        </Stack>
      ) : (
        <>
          <Group gap="sm" align="flex-end" wrap="wrap">
            <Select
              label="Amtsperiode"
              data={termOptions}
              value={String(term.id)}
              onChange={(next) => chooseTerm(next ? Number(next) : null)}
              w={{ base: '100%', xs: 320 }}
            />
            <Group gap="xs" mih={46} align="center">
              {term.id === committee.current_term?.id ? <Badge>laufend</Badge> : null}
              {term.archived ? (
                <Badge color="gray" leftSection={<IconLock size={14} aria-hidden />}>
                  Archiv
                </Badge>
              ) : null}
              {term.archived && term.reopened ? (
                <Badge color="gray" leftSection={<IconLockOpen size={14} aria-hidden />}>
                  wieder geöffnet
                </Badge>
              ) : null}
            </Group>
          </Group>
          {term.archived && !term.reopened ? (
            <Alert color="gray" variant="light" icon={<IconLock aria-hidden />}>
              Diese Amtsperiode ist beendet und archiviert: ihr Verzeichnis ist nur zum Nachlesen.
            </Alert>
          ) : null}
          <Group gap="sm" wrap="wrap">
            {term.folder_id !== null ? (
              <Button
                component={Link}
                to={`/files?folder=${term.folder_id}`}
                variant="default"
                leftSection={<IconFolderShare size={18} aria-hidden />}
              >
                Ordner der Amtsperiode
              </Button>
            ) : null}
            {canChange ? (
              <>
                <Button
                  leftSection={<IconUserPlus size={18} aria-hidden />}
                  onClick={() => setDialog({ kind: 'membership' })}
                >
                  Mitglied hinzufügen
                </Button>
                <Button
                  variant="default"
                  leftSection={<IconFileImport size={18} aria-hidden />}
                  onClick={() => setDialog({ kind: 'import' })}
                >
                  Mitglieder importieren
                </Button>
              </>
            ) : null}
            {addTermButton}
            {isAdmin && editable ? (
              <>
                <Button
                  variant="default"
                  leftSection={<IconPencil size={18} aria-hidden />}
                  onClick={() => setDialog({ kind: 'term', term })}
                >
                  Amtsperiode bearbeiten
                </Button>
                <Button
                  variant="outline"
                  color="red.9"
                  leftSection={<IconTrash size={18} aria-hidden />}
                  onClick={() => handleDeleteTerm(term)}
                >
                  Amtsperiode löschen
                </Button>
              </>
            ) : null}
            {isSuperAdmin && term.archived ? (
              <Button
                variant="outline"
                leftSection={
                  term.reopened ? <IconLock size={18} aria-hidden /> : <IconLockOpen size={18} aria-hidden />
                }
                onClick={() => handleArchive(term, term.reopened)}
                loading={updateTerm.isPending}
              >
                {term.reopened ? 'Archiv wieder schließen' : 'Archiv wieder öffnen'}
              </Button>
            ) : null}
          </Group>
          {members.isPending ? (
            <LoadingState />
          ) : members.isError ? (
            <ErrorState detail={members.error.message} onRetry={() => void members.refetch()} />
          ) : (
            <MemberDirectory
              memberships={members.data}
              term={term}
              today={today}
              actions={
                canChange
                  ? {
                      onEdit: (membership) => setDialog({ kind: 'membership', membership }),
                      onDelete: handleDeleteMembership,
                      onConfirmSuccessor: handleConfirmSuccessor,
                    }
                  : undefined
              }
            />
          )}
        </>
      )}

      {isAdmin ? (
        <>
          <FormModal
            opened={dialog?.kind === 'term'}
            onClose={closeDialog}
            title={dialog?.kind === 'term' && dialog.term ? 'Amtsperiode bearbeiten' : 'Amtsperiode anlegen'}
            size="md"
          >
            <TermForm
              committeeId={committee.id}
              term={dialog?.kind === 'term' ? dialog.term : undefined}
              suggestedStart={sorted[0] ? nextDay(sorted[0].end) : undefined}
              onCancel={closeDialog}
              onDone={(saved) => {
                closeDialog();
                chooseTerm(saved.id);
              }}
            />
          </FormModal>
          {term ? (
            <>
              <FormModal
                opened={dialog?.kind === 'membership'}
                onClose={closeDialog}
                title={
                  dialog?.kind === 'membership' && dialog.membership
                    ? 'Mitgliedschaft bearbeiten'
                    : 'Mitglied hinzufügen'
                }
              >
                <MembershipForm
                  key={dialog?.kind === 'membership' ? (dialog.membership?.id ?? 'new') : 'none'}
                  committeeId={committee.id}
                  term={term}
                  membership={dialog?.kind === 'membership' ? dialog.membership : undefined}
                  nextRank={nextRank}
                  onCancel={closeDialog}
                  onDone={closeDialog}
                />
              </FormModal>
              <FormModal
                opened={dialog?.kind === 'import'}
                onClose={closeDialog}
                title="Mitglieder importieren"
                size="xl"
              >
                <MemberImport committeeId={committee.id} term={term} onClose={closeDialog} />
              </FormModal>
            </>
          ) : null}
        </>
      ) : null}
    </PageSection>
  );
}
