import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { IconPencilCheck } from '@tabler/icons-react';
import { correctionBodySchema, type Resolution } from '@gremienportal/contracts/beschlussbuch';
import { showSuccessToast } from '../../../components/toasts';
import { errorMessage, isApiError } from '../../../lib/api-client';
import { useCorrectResolution } from '../resolutions.api';

const CORRECTION_FAILED = 'Die Berichtigung konnte nicht eingetragen werden.';
type Field = 'text' | 'reason';

/**
 * "Berichtigung" (the committee's Vorsitz): the corrected text and why, as a new entry of the
 * Beschlussbuch that names this one; the entry itself stays as it was.
 */
export function CorrectionForm({
  resolution,
  onDone,
}: {
  resolution: Resolution;
  onDone: (correction: Resolution | null) => void;
}) {
  const [text, setText] = useState(resolution.text);
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field | 'general', string>>>({});
  const correct = useCorrectResolution(resolution.id);

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = correctionBodySchema.safeParse({ text, reason });
    if (!parsed.success) {
      const found: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) found[issue.path[0] as Field] ??= issue.message;
      setErrors(found);
      return;
    }
    setErrors({});
    correct.mutate(parsed.data, {
      onSuccess: (entry) => {
        showSuccessToast(`Die Berichtigung ${entry.number} zu ${resolution.number} ist eingetragen.`);
        onDone(entry);
      },
      onError: (failure) => {
        const fields = isApiError(failure) ? (failure.errors ?? {}) : {};
        setErrors({
          text: fields.text?.[0],
          reason: fields.reason?.[0],
          general: fields.text || fields.reason ? undefined : errorMessage(failure, CORRECTION_FAILED),
        });
      },
    });
  };

  return (
    <form onSubmit={handleSubmit} noValidate aria-label={`Berichtigung zu ${resolution.number}`}>
      <Stack gap="md">
        <Text size="sm">
          Die Berichtigung wird ein neuer Eintrag im Beschlussbuch („Berichtigung zu {resolution.number}“) mit
          eigener Nummer; {resolution.number} bleibt unverändert. Die Mitglieder des Gremiums erhalten sie per
          E-Mail.
        </Text>
        <Textarea
          label="Berichtigter Beschlusstext"
          withAsterisk
          autosize
          minRows={4}
          maxLength={5000}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          error={errors.text}
          disabled={correct.isPending}
        />
        <Textarea
          label="Grund der Berichtigung"
          withAsterisk
          autosize
          minRows={2}
          maxLength={2000}
          value={reason}
          onChange={(event) => setReason(event.currentTarget.value)}
          error={errors.reason}
          disabled={correct.isPending}
          data-autofocus
        />
        {errors.general ? (
          <Alert color="red" variant="light" role="alert">
            {errors.general}
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={() => onDone(null)} disabled={correct.isPending}>
            Abbrechen
          </Button>
          <Button
            type="submit"
            loading={correct.isPending}
            leftSection={<IconPencilCheck size={18} aria-hidden />}
          >
            Berichtigung eintragen
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
