import { useState } from 'react';
import { Controller } from 'react-hook-form';
import { SimpleGrid, Stack, Text } from '@mantine/core';
import { IconCalendarPlus, IconDeviceFloppy } from '@tabler/icons-react';
import {
  createTermBodySchema,
  termTitle,
  updateTermBodySchema,
  type CreateTermBody,
  type Term,
} from '@gremienportal/contracts/committees';
import { FormFooter } from '../../../components/form-footer';
import { showSuccessToast } from '../../../components/toasts';
import { contractResolver } from '../../../lib/contract-resolver';
import type { GeneralError } from '../../../lib/form-errors';
import { useSpecForm } from '../../../lib/forms';
import { useCreateTerm, useUpdateTerm } from '../committees.api';
import { DayField } from './day-field';
import { formFailure } from './form-failure';

interface TermValues {
  start: string;
  end: string;
}

const FIELDS = ['start', 'end'] as const;

interface TermFormProps {
  committeeId: number;
  /** Without: "Amtsperiode anlegen"; with: the term's dates to change. */
  term?: Term;
  /** A new term's suggested start (the day after the last one ended). */
  suggestedStart?: string;
  onDone: (term: Term) => void;
  onCancel: () => void;
}

/** Beginn and Ende of an Amtsperiode; the title ("Amtsperiode 2026–2030") follows from them. */
export default function TermForm({ committeeId, term, suggestedStart, onDone, onCancel }: TermFormProps) {
  const create = useCreateTerm(committeeId);
  const update = useUpdateTerm(committeeId);
  const form = useSpecForm<TermValues, unknown, CreateTermBody>({
    resolver: contractResolver(term ? updateTermBodySchema : createTermBodySchema),
    defaultValues: { start: term?.start ?? suggestedStart ?? '', end: term?.end ?? '' },
  });
  const [generalError, setGeneralError] = useState<GeneralError | null>(null);
  const busy = form.formState.isSubmitting;
  const [start, end] = form.watch(['start', 'end']);
  const failureText = term
    ? 'Die Amtsperiode konnte nicht gespeichert werden.'
    : 'Die Amtsperiode konnte nicht angelegt werden.';

  const handleSubmit = form.handleSubmit(async (body) => {
    setGeneralError(null);
    try {
      const saved = term
        ? await update.mutateAsync({ id: term.id, body: { start: body.start, end: body.end } })
        : await create.mutateAsync(body);
      showSuccessToast(term ? `Die ${saved.title} wurde gespeichert.` : `Die ${saved.title} wurde angelegt.`);
      onDone(saved);
    } catch (error) {
      setGeneralError(formFailure(error, failureText, form.setError, FIELDS).general);
    }
  });

  const dayInput = (name: 'start' | 'end', label: string) => (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => {
        const controlled = form.controlled(field, () => {
          // "Ende nach Beginn" may have become right or wrong.
          if (name === 'start' && form.errorOf('end')) void form.trigger('end');
        });
        return (
          <DayField
            label={label}
            name={field.name}
            inputRef={field.ref}
            required
            value={field.value}
            onChange={controlled.onChange}
            onBlur={controlled.onBlur}
            error={controlled.error}
            disabled={controlled.disabled}
          />
        );
      }}
    />
  );

  return (
    <form
      onSubmit={(event) => void handleSubmit(event)}
      noValidate
      aria-label={term ? 'Amtsperiode bearbeiten' : 'Amtsperiode anlegen'}
    >
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          {dayInput('start', 'Beginn')}
          {dayInput('end', 'Ende')}
        </SimpleGrid>
        <Text size="sm" c="dimmed" aria-live="polite">
          {start && end && end > start
            ? `Titel: ${termTitle(start, end)}`
            : 'Eine Amtsperiode dauert höchstens zehn Jahre und überschneidet sich mit keiner anderen.'}
        </Text>
        <FormFooter
          busy={busy}
          generalError={generalError}
          onCancel={onCancel}
          submitIcon={
            term ? <IconDeviceFloppy size={18} aria-hidden /> : <IconCalendarPlus size={18} aria-hidden />
          }
          submitLabel={term ? 'Speichern' : 'Amtsperiode anlegen'}
        />
      </Stack>
    </form>
  );
}
