import { useState } from 'react';
import { Controller } from 'react-hook-form';
import { NumberInput, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconCalendarPlus } from '@tabler/icons-react';
import { periodBodySchema, type Folder, type PeriodBody } from '@gremienportal/contracts/folders';
import {
  FOLDER_MESSAGES,
  PERIOD_MAX_YEAR,
  PERIOD_MAX_YEARS,
  PERIOD_MIN_YEAR,
} from '@gremienportal/contracts/file-messages';
import { FormFooter } from '../../../components/form-footer';
import { generalErrorOf, type GeneralError } from '../../../lib/form-errors';
import { contractResolver } from '../../../lib/contract-resolver';
import { useSpecForm } from '../../../lib/forms';
import { useCreatePeriod } from '../folders.api';
import { showFailureToast, showSuccessToast } from '../../../components/toasts';

interface PeriodValues {
  folder_id: number;
  /** NumberInput gives '' while empty. */
  start: number | string;
  end: number | string;
}

interface PeriodFormProps {
  /** The folder the period folder is created in (the active one). */
  folderId: number;
  onCreated: (folder: Folder) => void;
  onCancel?: () => void;
  /** For tests: the current year. */
  currentYear?: number;
}

/**
 * "Amtsperiode erstellen" (product.md P6.8): start and end year, both the current year at first,
 * 1950–2100, at most 10 years; one folder per year is created inside "Amtsperiode {start}–{end}".
 */
export function PeriodForm({
  folderId,
  onCreated,
  onCancel,
  currentYear = new Date().getFullYear(),
}: PeriodFormProps) {
  const createPeriod = useCreatePeriod();
  const form = useSpecForm<PeriodValues, unknown, PeriodBody>({
    resolver: contractResolver(periodBodySchema),
    defaultValues: { folder_id: folderId, start: currentYear, end: currentYear },
  });
  const [generalError, setGeneralError] = useState<GeneralError | null>(null);
  const { isSubmitting: busy } = form.formState;

  const handleSubmit = form.handleSubmit(async (body) => {
    setGeneralError(null);
    try {
      const folder = await createPeriod.mutateAsync(body);
      showSuccessToast(FOLDER_MESSAGES.periodCreated);
      onCreated(folder);
    } catch (error) {
      showFailureToast(FOLDER_MESSAGES.periodFailed, error);
      setGeneralError(generalErrorOf(error, FOLDER_MESSAGES.periodFailed, form.setError, ['start', 'end']));
    }
  });

  const yearInput = (name: 'start' | 'end', label: string) => (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <NumberInput
          label={label}
          required
          {...form.controlled(field, () => {
            // "Ende vor Start" may have become right or wrong.
            if (name === 'start' && form.errorOf('end')) void form.trigger('end');
          })}
          min={PERIOD_MIN_YEAR}
          max={PERIOD_MAX_YEAR}
          clampBehavior="none"
          allowDecimal={false}
          allowNegative={false}
          thousandSeparator={false}
        />
      )}
    />
  );

  return (
    <form onSubmit={(event) => void handleSubmit(event)} noValidate aria-label="Amtsperiode erstellen">
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          {yearInput('start', 'Start')}
          {yearInput('end', 'Ende')}
        </SimpleGrid>
        <Text size="sm" c="dimmed">
          Jahre von {PERIOD_MIN_YEAR} bis {PERIOD_MAX_YEAR}, höchstens {PERIOD_MAX_YEARS} Jahre. Schon
          vorhandene Ordner werden weiterverwendet.
        </Text>
        <FormFooter
          busy={busy}
          generalError={generalError}
          onCancel={onCancel}
          submitIcon={<IconCalendarPlus size={18} aria-hidden />}
          submitLabel="Amtsperiode erstellen"
        />
      </Stack>
    </form>
  );
}
