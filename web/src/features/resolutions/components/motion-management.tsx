import { useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { Alert, Button, Divider, Group, Stack, Text, Title } from '@mantine/core';
import { IconArrowBackUp, IconBell, IconPencil, IconPlayerStop, IconTrash } from '@tabler/icons-react';
import type { Motion } from '@gremienportal/contracts/resolutions';
import { openConfirmDialog } from '../../../components/confirm-dialog';
import { PageSection } from '../../../components/page-section';
import { showSuccessToast } from '../../../components/toasts';
import { errorMessage } from '../../../lib/api-client';
import { useCloseMotion, useDeleteMotion, useRemindElectors, useWithdrawMotion } from '../resolutions.api';
import type { MotionControls } from '../motions.rules';
import { EstablishButton } from './establish-dialog';
import { HandCountForm } from './hand-count-form';
import { OpenVoteForm } from './open-vote-form';

/** The form's address for a motion. */
export const motionEditPath = (id: number) => `/beschluesse/vorlagen/${id}/bearbeiten`;

function Part({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

/**
 * "Leitung der Abstimmung" (Vorsitz, admins; the Schriftführung for drafts): open the vote, count
 * hands, close, withdraw, remind, establish the result, edit and delete: only what the motion's
 * state and the member's rights allow.
 */
export function MotionManagement({ motion, controls }: { motion: Motion; controls: MotionControls }) {
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const close = useCloseMotion(motion.id);
  const withdraw = useWithdrawMotion(motion.id);
  const remind = useRemindElectors(motion.id);
  const remove = useDeleteMotion();

  const fail = (fallback: string) => (failure: unknown) => setError(errorMessage(failure, fallback));

  const handleClose = () =>
    openConfirmDialog({
      title: 'Abstimmung schließen?',
      message:
        'Danach kann niemand mehr abstimmen. Die Zahlen werden für alle sichtbar; das Ergebnis stellt der Vorsitz fest.',
      confirmLabel: 'Abstimmung schließen',
      danger: false,
      onConfirm: () => {
        setError(null);
        // The toasts of closing and withdrawing come from the hooks: these buttons go with the state.
        close.mutate(undefined, { onError: fail('Die Abstimmung konnte nicht geschlossen werden.') });
      },
    });

  const handleWithdraw = () =>
    openConfirmDialog({
      title: 'Beschlussvorlage zurückziehen?',
      message:
        motion.state === 'abstimmung'
          ? `Die laufende Abstimmung über „${motion.title}“ endet ohne Ergebnis. Das lässt sich nicht rückgängig machen.`
          : `„${motion.title}“ wird nicht zur Abstimmung gestellt. Das lässt sich nicht rückgängig machen.`,
      confirmLabel: 'Zurückziehen',
      onConfirm: () => {
        setError(null);
        withdraw.mutate(undefined, {
          onError: fail('Die Beschlussvorlage konnte nicht zurückgezogen werden.'),
        });
      },
    });

  const handleRemind = () =>
    openConfirmDialog({
      title: 'Erinnerung senden?',
      message:
        'Alle Stimmberechtigten, die weder abgestimmt noch widersprochen haben, erhalten eine E-Mail; wer heute schon erinnert wurde, nicht noch einmal.',
      confirmLabel: 'Erinnerung senden',
      danger: false,
      onConfirm: () => {
        setError(null);
        remind.mutate(undefined, {
          onSuccess: (res) => showSuccessToast(res.message),
          onError: fail('Die Erinnerung konnte nicht gesendet werden.'),
        });
      },
    });

  const handleDelete = () =>
    openConfirmDialog({
      title: 'Beschlussvorlage löschen?',
      message: `Soll der Entwurf „${motion.title}“ gelöscht werden?`,
      onConfirm: () => {
        setError(null);
        remove.mutate(motion.id, {
          onSuccess: (res) => {
            showSuccessToast(res.message);
            void navigate(`/gremien/${motion.committee.id}`);
          },
          onError: fail('Die Beschlussvorlage konnte nicht gelöscht werden.'),
        });
      },
    });

  const buttons = controls.close || controls.withdraw || controls.remind || controls.establish;
  const draftButtons = controls.edit || controls.remove;

  return (
    <PageSection title="Leitung der Abstimmung">
      {controls.open ? (
        <Part title="Abstimmung öffnen">
          <OpenVoteForm motion={motion} />
        </Part>
      ) : null}
      {controls.handCount ? (
        <>
          {controls.open ? <Divider /> : null}
          <Part title="Handzeichen">
            <HandCountForm motion={motion} />
          </Part>
        </>
      ) : null}
      {buttons ? (
        <Group gap="sm">
          {controls.establish ? <EstablishButton motion={motion} /> : null}
          {controls.close ? (
            <Button
              leftSection={<IconPlayerStop size={18} aria-hidden />}
              onClick={handleClose}
              loading={close.isPending}
            >
              Abstimmung schließen
            </Button>
          ) : null}
          {controls.remind ? (
            <Button
              variant="light"
              leftSection={<IconBell size={18} aria-hidden />}
              onClick={handleRemind}
              loading={remind.isPending}
            >
              Erinnerung senden
            </Button>
          ) : null}
          {controls.withdraw ? (
            <Button
              variant="outline"
              color="red.9"
              leftSection={<IconArrowBackUp size={18} aria-hidden />}
              onClick={handleWithdraw}
              loading={withdraw.isPending}
            >
              Zurückziehen
            </Button>
          ) : null}
        </Group>
      ) : null}
      {controls.close === false &&
      motion.state === 'abstimmung' &&
      motion.procedure === 'umlauf' &&
      motion.may.manage ? (
        <Text size="sm" c="dimmed">
          Ein Umlaufverfahren endet mit seiner Frist; vorher schließen lässt es sich, sobald alle abgestimmt
          haben.
        </Text>
      ) : null}
      {draftButtons ? (
        <Stack gap="xs">
          {controls.editVoids ? (
            <Text size="sm" c="dimmed">
              Eine Änderung der laufenden Abstimmung macht sie ungültig: Die Stimmen verfallen, und die
              Vorlage wird wieder ein Entwurf.
            </Text>
          ) : null}
          <Group gap="sm">
            {controls.edit ? (
              <Button
                component={Link}
                to={motionEditPath(motion.id)}
                variant="default"
                leftSection={<IconPencil size={18} aria-hidden />}
              >
                Beschlussvorlage bearbeiten
              </Button>
            ) : null}
            {controls.remove ? (
              <Button
                variant="outline"
                color="red.9"
                leftSection={<IconTrash size={18} aria-hidden />}
                onClick={handleDelete}
                loading={remove.isPending}
              >
                Entwurf löschen
              </Button>
            ) : null}
          </Group>
        </Stack>
      ) : null}
      {error ? (
        <Alert color="red" variant="light" role="alert" withCloseButton onClose={() => setError(null)}>
          {error}
        </Alert>
      ) : null}
    </PageSection>
  );
}
