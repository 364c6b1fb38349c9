import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { IconGavel, IconShieldCheck } from '@tabler/icons-react';
import { establishBodySchema, type Motion } from '@gremienportal/contracts/resolutions';
import { SMALL_SCREEN_QUERY } from '../../../components/data-table-defaults';
import { showSuccessToast } from '../../../components/toasts';
import { errorMessage, isApiError } from '../../../lib/api-client';
import { motionCommitteeQueryOptions, useEstablish } from '../resolutions.api';
import { previewTally } from '../establish.rules';
import { RESULT_LABELS } from '../resolution-labels';

const ESTABLISH_FAILED = 'Das Ergebnis konnte nicht festgestellt werden.';

/** What the Feststellung writes into the Beschlussbuch, by the motion's state. */
function introText(motion: Motion): string {
  if (motion.state === 'widersprochen')
    return 'Das Umlaufverfahren wurde durch Widerspruch beendet. Die Feststellung hält das im Beschlussbuch fest.';
  if (motion.state === 'zurueckgezogen')
    return 'Die Beschlussvorlage wurde zurückgezogen. Die Feststellung hält das im Beschlussbuch fest.';
  return 'Das Portal zählt die Stimmen nach den Regeln des Gremiums und schreibt das Ergebnis mit einer Nummer ins Beschlussbuch. Die Mitglieder des Gremiums erhalten es per E-Mail. Ein Eintrag lässt sich danach nicht mehr ändern, nur berichtigen.';
}

/** The count the Feststellung will write, by the committee's rules, before the Vorsitz confirms it. */
function Preview({ motion }: { motion: Motion }) {
  const committee = useQuery({
    ...motionCommitteeQueryOptions(motion.committee.id),
    enabled: motion.state === 'geschlossen',
  });
  const preview = previewTally(motion, committee.data?.rules);
  if (preview.kind === 'none') return null;
  return (
    <Alert color="blue" variant="light" title="Voraussichtliches Ergebnis">
      {preview.kind === 'tally'
        ? preview.tally.reason
        : 'Stimmengleichheit: Nach den Regeln des Gremiums entscheidet die Stimme des Vorsitzes; das Portal berücksichtigt sie bei der Feststellung.'}
    </Alert>
  );
}

/**
 * "Ergebnis feststellen" (the committee's Vorsitz): confirmed with the current code of the
 * authenticator app, or a recovery code, as at sign-in.
 */
export function EstablishButton({ motion }: { motion: Motion }) {
  const [opened, setOpened] = useState(false);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const establish = useEstablish(motion.id);
  const phone = useMediaQuery(SMALL_SCREEN_QUERY);

  const close = () => {
    setOpened(false);
    setCode('');
    setCodeError(null);
    setError(null);
  };

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = establishBodySchema.safeParse({ code: code.replace(/\s+/g, ' ') });
    if (!parsed.success) {
      setCodeError(parsed.error.issues[0]?.message ?? ESTABLISH_FAILED);
      return;
    }
    setCodeError(null);
    setError(null);
    // Six digits typed with a space ("123 456") are still the app's code.
    const value = /^\d{3}\s\d{3}$/.test(parsed.data.code)
      ? parsed.data.code.replace(/\s/g, '')
      : parsed.data.code;
    establish.mutate(value, {
      onSuccess: (resolution) => {
        showSuccessToast(`Festgestellt: ${resolution.number} – ${RESULT_LABELS[resolution.result]}.`);
        close();
      },
      onError: (failure) => {
        setCode('');
        const field = isApiError(failure) ? failure.errors?.code?.[0] : undefined;
        if (field) setCodeError(field);
        else setError(errorMessage(failure, ESTABLISH_FAILED));
      },
    });
  };

  return (
    <>
      <Button leftSection={<IconGavel size={18} aria-hidden />} onClick={() => setOpened(true)}>
        Ergebnis feststellen
      </Button>
      <Modal
        opened={opened}
        onClose={close}
        title="Ergebnis feststellen"
        size="md"
        fullScreen={phone}
        centered
      >
        <form onSubmit={handleSubmit} noValidate aria-label="Ergebnis feststellen">
          <Stack gap="md">
            <Text>{introText(motion)}</Text>
            <Preview motion={motion} />
            <TextInput
              label="Code aus Ihrer Authenticator-App"
              description="Sechs Ziffern; ersatzweise einer Ihrer Wiederherstellungscodes."
              leftSection={<IconShieldCheck size={18} aria-hidden />}
              autoComplete="one-time-code"
              autoCapitalize="none"
              spellCheck={false}
              maxLength={20}
              value={code}
              onChange={(event) => setCode(event.currentTarget.value)}
              error={codeError}
              disabled={establish.isPending}
              withAsterisk
              data-autofocus
            />
            {error ? (
              <Alert color="red" variant="light" role="alert">
                {error}
              </Alert>
            ) : null}
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={close} disabled={establish.isPending}>
                Abbrechen
              </Button>
              <Button
                type="submit"
                loading={establish.isPending}
                leftSection={<IconGavel size={18} aria-hidden />}
              >
                Feststellen
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
