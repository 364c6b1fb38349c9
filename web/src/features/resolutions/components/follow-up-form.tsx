import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, Radio, Select, Stack, Textarea } from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { IconCalendar, IconDeviceFloppy } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import {
  FOLLOW_UP_STATE_LABELS,
  FOLLOW_UP_STATES,
  followUpBodySchema,
  type FollowUpState,
  type Resolution,
} from '@gremienportal/contracts/beschlussbuch';
import { GermanDates } from '../../../components/german-dates';
import { showSuccessToast } from '../../../components/toasts';
import { errorMessage, isApiError } from '../../../lib/api-client';
import { committeeMembersQueryOptions, useUpdateFollowUp } from '../resolutions.api';
import { parseGermanDay } from '../../../lib/german-day';

const SAVE_FAILED = 'Die Umsetzung konnte nicht gespeichert werden.';
const NOTE_MAX = 5000;

type Field = 'responsible_id' | 'due_on' | 'status' | 'note';

/** The people of the committee's current term, each once, by name. */
function useResponsibleChoices(committeeId: number, current: Resolution['follow_up']) {
  const members = useQuery(committeeMembersQueryOptions(committeeId));
  const seen = new Map<string, string>();
  for (const membership of members.data ?? []) {
    if (membership.user.id === null || !membership.active) continue;
    seen.set(String(membership.user.id), `${membership.user.firstname} ${membership.user.lastname}`);
  }
  // Whoever is responsible now stays choosable, also after their membership ended.
  if (current?.responsible && !seen.has(String(current.responsible.id)))
    seen.set(String(current.responsible.id), current.responsible.name);
  const choices = [...seen.entries()]
    .map(([value, label]) => ({ value, label }))
    .sort((a, b) => a.label.localeCompare(b.label, 'de'));
  return { choices, loading: members.isPending };
}

/**
 * "Umsetzung" of a resolution (Vorsitz, Schriftführung, admins): who is responsible, by when,
 * whether it is done, and a note. It lives outside the Beschlussbuch's chain, so it may change.
 */
export function FollowUpForm({ resolution, onDone }: { resolution: Resolution; onDone: () => void }) {
  const current = resolution.follow_up;
  const [responsible, setResponsible] = useState<string | null>(
    current?.responsible ? String(current.responsible.id) : null,
  );
  const [dueOn, setDueOn] = useState<string | null>(current?.due_on ?? null);
  const [status, setStatus] = useState<FollowUpState>(current?.status ?? 'offen');
  const [note, setNote] = useState(current?.note ?? '');
  const [errors, setErrors] = useState<Partial<Record<Field | 'general', string>>>({});
  const { choices, loading } = useResponsibleChoices(resolution.committee.id, current);
  const save = useUpdateFollowUp(resolution.id);

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = followUpBodySchema.safeParse({
      responsible_id: responsible === null ? null : Number(responsible),
      due_on: dueOn,
      status,
      note: note.trim(),
    });
    if (!parsed.success) {
      const found: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) found[issue.path[0] as Field] ??= issue.message;
      setErrors(found);
      return;
    }
    setErrors({});
    save.mutate(parsed.data, {
      onSuccess: () => {
        showSuccessToast(`Die Umsetzung von ${resolution.number} wurde gespeichert.`);
        onDone();
      },
      onError: (failure) => {
        const fields = isApiError(failure) ? (failure.errors ?? {}) : {};
        const placed = (['responsible_id', 'due_on', 'status', 'note'] as const).filter(
          (f) => fields[f]?.[0],
        );
        setErrors({
          ...Object.fromEntries(placed.map((field) => [field, fields[field]![0]])),
          // A 403 (not of the committee's office) says so in German.
          general: placed.length > 0 ? undefined : errorMessage(failure, SAVE_FAILED),
        });
      },
    });
  };

  return (
    <form onSubmit={handleSubmit} noValidate aria-label={`Umsetzung von ${resolution.number}`}>
      <Stack gap="md">
        <Select
          label="Verantwortlich"
          placeholder={loading ? 'Wird geladen …' : 'Niemand'}
          data={choices}
          value={responsible}
          onChange={setResponsible}
          clearable
          searchable
          nothingFoundMessage="Niemand gefunden"
          error={errors.responsible_id}
          disabled={save.isPending}
          comboboxProps={{ withinPortal: true }}
          clearButtonProps={{ 'aria-label': 'Verantwortliche Person entfernen' }}
        />
        <GermanDates>
          <DateInput
            label="Fällig am"
            placeholder="TT.MM.JJJJ"
            valueFormat="DD.MM.YYYY"
            dateParser={parseGermanDay}
            value={dueOn}
            onChange={(day) => setDueOn(day || null)}
            clearable
            clearButtonProps={{ 'aria-label': 'Fälligkeit entfernen' }}
            error={errors.due_on}
            disabled={save.isPending}
            leftSection={<IconCalendar size={18} aria-hidden />}
            previousLabel="Vorheriger Monat"
            nextLabel="Nächster Monat"
            popoverProps={{ withinPortal: true }}
            maw={240}
          />
        </GermanDates>
        <Radio.Group
          label="Stand"
          value={status}
          onChange={(value) => setStatus(value as FollowUpState)}
          error={errors.status}
        >
          <Group gap="lg" mt={6}>
            {FOLLOW_UP_STATES.map((state) => (
              <Radio
                key={state}
                value={state}
                label={FOLLOW_UP_STATE_LABELS[state]}
                disabled={save.isPending}
              />
            ))}
          </Group>
        </Radio.Group>
        <Textarea
          label="Notiz"
          description={`Freiwillig, höchstens ${NOTE_MAX.toLocaleString('de-DE')} Zeichen`}
          autosize
          minRows={3}
          maxLength={NOTE_MAX}
          value={note}
          onChange={(event) => setNote(event.currentTarget.value)}
          error={errors.note}
          disabled={save.isPending}
        />
        {errors.general ? (
          <Alert color="red" variant="light" role="alert">
            {errors.general}
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone} disabled={save.isPending}>
            Abbrechen
          </Button>
          <Button
            type="submit"
            loading={save.isPending}
            leftSection={<IconDeviceFloppy size={18} aria-hidden />}
          >
            Speichern
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
