import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconHandStop, IconUserExclamation } from '@tabler/icons-react';
import { objectionBodySchema, type Motion } from '@gremienportal/contracts/resolutions';
import { SMALL_SCREEN_QUERY } from '../../../components/data-table-defaults';
import { openConfirmDialog } from '../../../components/confirm-dialog';
import { errorMessage, isApiError } from '../../../lib/api-client';
import { useDeclareConflict, useObject } from '../resolutions.api';

export const OBJECTION_LABEL = 'Ich widerspreche der Beschlussfassung im Umlaufverfahren';
const OBJECTION_FAILED = 'Der Widerspruch konnte nicht gespeichert werden.';
const CONFLICT_FAILED = 'Die Befangenheit konnte nicht gespeichert werden.';
const REASON_MAX = 2000;

/**
 * The objection to an Umlaufverfahren: an optional reason in a dialog that says what it means.
 * Where the committee's rules say so, one objection ends the procedure.
 */
export function ObjectionButton({ motion }: { motion: Motion }) {
  const [opened, setOpened] = useState(false);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const object = useObject(motion.id);
  const phone = useMediaQuery(SMALL_SCREEN_QUERY);

  const close = () => {
    setOpened(false);
    setError(null);
    setReasonError(null);
  };

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = objectionBodySchema.safeParse({ reason: reason.trim() });
    if (!parsed.success) {
      setReasonError(parsed.error.issues[0]?.message ?? OBJECTION_FAILED);
      return;
    }
    setReasonError(null);
    setError(null);
    object.mutate(parsed.data.reason ? { reason: parsed.data.reason } : {}, {
      // The toast (the server's message) comes from the hook: this button goes with the new state.
      onSuccess: () => {
        setReason('');
        close();
      },
      onError: (failure) => {
        const field = isApiError(failure) ? failure.errors?.reason?.[0] : undefined;
        if (field) setReasonError(field);
        else setError(errorMessage(failure, OBJECTION_FAILED));
      },
    });
  };

  return (
    <>
      <Button
        variant="outline"
        color="red.9"
        leftSection={<IconHandStop size={18} aria-hidden />}
        onClick={() => setOpened(true)}
        styles={{ label: { whiteSpace: 'normal', textAlign: 'left', lineHeight: 1.35 } }}
        h="auto"
        mih={44}
        py={8}
      >
        {OBJECTION_LABEL}
      </Button>
      <Modal
        opened={opened}
        onClose={close}
        title="Widerspruch einlegen"
        size="lg"
        fullScreen={phone}
        centered
      >
        <form onSubmit={handleSubmit} noValidate aria-label="Widerspruch einlegen">
          <Stack gap="md">
            <Text>
              Sie widersprechen der Beschlussfassung über „{motion.title}“ im Umlaufverfahren. Das lässt sich
              nicht zurücknehmen. Wenn die Regeln des Gremiums es vorsehen, endet das Umlaufverfahren mit
              Ihrem Widerspruch, und über die Vorlage wird in einer Sitzung entschieden.
            </Text>
            <Textarea
              label="Begründung"
              description={`Freiwillig, höchstens ${REASON_MAX.toLocaleString('de-DE')} Zeichen; die Mitglieder des Gremiums sehen sie.`}
              autosize
              minRows={3}
              maxLength={REASON_MAX}
              value={reason}
              onChange={(event) => setReason(event.currentTarget.value)}
              error={reasonError}
              disabled={object.isPending}
              data-autofocus
            />
            {error ? (
              <Alert color="red" variant="light" role="alert">
                {error}
              </Alert>
            ) : null}
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={close} disabled={object.isPending}>
                Abbrechen
              </Button>
              <Button type="submit" color="red" loading={object.isPending}>
                Widerspruch einlegen
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}

/** "Befangenheit erklären": the member takes no part in this vote; asked first, it is final. */
export function ConflictButton({ motion }: { motion: Motion }) {
  const declare = useDeclareConflict(motion.id);
  const [error, setError] = useState<string | null>(null);
  const handleClick = () =>
    openConfirmDialog({
      title: 'Befangenheit erklären?',
      message: (
        <Stack gap="xs">
          <Text>
            Sie erklären, dass Sie wegen eines Interessenkonflikts an der Abstimmung über „{motion.title}“
            nicht teilnehmen. Das lässt sich nicht zurücknehmen.
          </Text>
          {motion.own.voted && motion.mode !== 'geheim' ? (
            <Text>Ihre bereits abgegebene Stimme wird gelöscht.</Text>
          ) : null}
        </Stack>
      ),
      confirmLabel: 'Befangenheit erklären',
      onConfirm: () => {
        setError(null);
        // The toast comes from the hook: the ballot and this button give way to the note.
        declare.mutate({}, { onError: (failure) => setError(errorMessage(failure, CONFLICT_FAILED)) });
      },
    });
  return (
    <Stack gap={4}>
      <Group>
        <Button
          variant="default"
          leftSection={<IconUserExclamation size={18} aria-hidden />}
          onClick={handleClick}
          loading={declare.isPending}
        >
          Befangenheit erklären
        </Button>
      </Group>
      {error ? (
        <Alert color="red" variant="light" role="alert">
          {error}
        </Alert>
      ) : null}
    </Stack>
  );
}
