import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, NumberInput, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconHandFinger } from '@tabler/icons-react';
import { handCountBodySchema, type Motion } from '@gremienportal/contracts/resolutions';
import { showSuccessToast } from '../../../components/toasts';
import { errorMessage, isApiError } from '../../../lib/api-client';
import { useHandCount, type HandCounts } from '../resolutions.api';
import { countsText, type VoteChoice } from '../motions.rules';
import { CHOICE_LABELS } from '../resolution-labels';

const FIELDS: readonly VoteChoice[] = ['ja', 'nein', 'enthaltung'];
const SAVE_FAILED = 'Die Handzeichen konnten nicht gespeichert werden.';

type Values = Record<VoteChoice, number | string>;

/**
 * "Handzeichen" (Vorsitz, admins): the votes counted in the room, added to those cast in the
 * portal; a new count replaces the earlier one.
 */
export function HandCountForm({ motion }: { motion: Motion }) {
  const saved = motion.hand_count;
  const [values, setValues] = useState<Values>({
    ja: saved?.ja ?? 0,
    nein: saved?.nein ?? 0,
    enthaltung: saved?.enthaltung ?? 0,
  });
  const [errors, setErrors] = useState<Partial<Record<VoteChoice | 'general', string>>>({});
  const handCount = useHandCount(motion.id);

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const input = Object.fromEntries(
      FIELDS.map((field) => [field, values[field] === '' ? undefined : Number(values[field])]),
    );
    const parsed = handCountBodySchema.safeParse(input);
    if (!parsed.success) {
      const found: Partial<Record<VoteChoice, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as VoteChoice;
        found[field] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    handCount.mutate(parsed.data as HandCounts, {
      onSuccess: () => showSuccessToast(`Handzeichen gespeichert: ${countsText(parsed.data)}.`),
      onError: (failure) => {
        const fields = isApiError(failure) ? (failure.errors ?? {}) : {};
        const placed = FIELDS.filter((field) => fields[field]?.[0]);
        setErrors({
          ...Object.fromEntries(placed.map((field) => [field, fields[field]![0]])),
          general: placed.length > 0 ? undefined : errorMessage(failure, SAVE_FAILED),
        });
      },
    });
  };

  return (
    <form onSubmit={handleSubmit} noValidate aria-label="Handzeichen eintragen">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {saved
            ? `Bisher eingetragen: ${countsText(saved)}. Ein neuer Eintrag ersetzt ihn.`
            : 'Die im Raum gezählten Stimmen; sie kommen zu den Stimmen im Portal hinzu.'}
        </Text>
        <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm" maw={480}>
          {FIELDS.map((field) => (
            <NumberInput
              key={field}
              label={CHOICE_LABELS[field]}
              min={0}
              max={10_000}
              allowDecimal={false}
              allowNegative={false}
              value={values[field]}
              onChange={(value) => setValues((current) => ({ ...current, [field]: value }))}
              error={errors[field]}
              disabled={handCount.isPending}
            />
          ))}
        </SimpleGrid>
        {errors.general ? (
          <Alert color="red" variant="light" role="alert">
            {errors.general}
          </Alert>
        ) : null}
        <Group>
          <Button
            type="submit"
            variant="light"
            leftSection={<IconHandFinger size={18} aria-hidden />}
            loading={handCount.isPending}
          >
            Handzeichen speichern
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
