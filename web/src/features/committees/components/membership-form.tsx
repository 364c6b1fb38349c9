import { useState } from 'react';
import { Controller } from 'react-hook-form';
import { NumberInput, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconDeviceFloppy, IconUserPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import {
  COMMITTEE_MESSAGES,
  createMembershipBodySchema,
  END_REASON_LABELS,
  END_REASONS,
  germanDate,
  MEMBER_FUNCTION_LABELS,
  MEMBER_FUNCTIONS,
  updateMembershipBodySchema,
  type CreateMembershipBody,
  type EndReason,
  type MemberFunction,
  type Membership,
  type Term,
  type UpdateMembershipBody,
} from '@gremienportal/contracts/committees';
import type { User } from '@gremienportal/contracts/users';
import { FormFooter } from '../../../components/form-footer';
import { showSuccessToast } from '../../../components/toasts';
import type { GeneralError } from '../../../lib/form-errors';
import { useSpecForm } from '../../../lib/forms';
import { peopleQueryOptions, useCreateMembership, useUpdateMembership } from '../committees.api';
import { memberName } from '../committees.rules';
import { DayField } from './day-field';
import { formFailure } from './form-failure';
import { mappedResolver, numberOrNull, textOrNull } from './mapped-resolver';

interface MembershipValues {
  /** The person's id as the select holds it (new memberships only). */
  user_id: string;
  function: MemberFunction | '';
  /** NumberInput gives '' while empty. */
  rank: number | string;
  from: string;
  until: string;
  district: string;
  reason: EndReason | '';
}

const FIELDS = ['user_id', 'function', 'rank', 'from', 'until', 'district', 'reason'] as const;
export const PERSON_REQUIRED = 'Bitte eine Person wählen.';

const collator = new Intl.Collator('de-DE', { sensitivity: 'base' });

/** People as the select offers them, by last name: "Łucja Nowak (lucja@example.org)". */
export const personOptions = (people: readonly User[]) =>
  [...people]
    .sort((a, b) => collator.compare(a.lastname, b.lastname) || collator.compare(a.firstname, b.firstname))
    .map((person) => ({
      value: String(person.id),
      label: `${person.firstname} ${person.lastname} (${person.email})`,
    }));

type DatedValues = Pick<CreateMembershipBody, 'function' | 'rank' | 'from' | 'until'> & {
  reason?: EndReason | null;
};

/** The rules the server checks against the term too, with its messages, before anything is sent. */
function checkWithinTerm(term: Pick<Term, 'start' | 'end'>) {
  return (value: DatedValues, ctx: z.RefinementCtx) => {
    if (value.function === 'ersatzmitglied' && (value.rank === null || value.rank === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['rank'], message: COMMITTEE_MESSAGES.rankRequired });
    }
    if (value.from && value.from < term.start) {
      ctx.addIssue({ code: 'custom', path: ['from'], message: COMMITTEE_MESSAGES.outsideTerm });
    }
    if (value.until && value.until > term.end) {
      ctx.addIssue({ code: 'custom', path: ['until'], message: COMMITTEE_MESSAGES.outsideTerm });
    } else if (value.from && value.until && value.until < value.from) {
      ctx.addIssue({ code: 'custom', path: ['until'], message: COMMITTEE_MESSAGES.untilBeforeFrom });
    }
    if (value.reason && value.until && value.until >= term.end) {
      ctx.addIssue({ code: 'custom', path: ['reason'], message: COMMITTEE_MESSAGES.reasonNeedsEarlyEnd });
    }
  };
}

const createSchema = (term: Term) =>
  createMembershipBodySchema
    .extend({
      user_id: z.string({ error: PERSON_REQUIRED }).min(1, { error: PERSON_REQUIRED }).transform(Number),
    })
    .superRefine(checkWithinTerm(term));

const updateSchema = (term: Term) => updateMembershipBodySchema.superRefine(checkWithinTerm(term));

/** The form's values as the contract reads them: a rank only for Ersatzmitglieder, a reason only for an early end. */
const toInput = (term: Term, editing: boolean) => (values: MembershipValues) => {
  const common = {
    function: values.function,
    rank: values.function === 'ersatzmitglied' ? numberOrNull(values.rank) : null,
    district: textOrNull(values.district),
    from: values.from,
    until: values.until,
  };
  if (editing) {
    return { ...common, reason: values.until && values.until < term.end ? values.reason || null : null };
  }
  return { ...common, term_id: term.id, user_id: values.user_id };
};

interface MembershipFormProps {
  committeeId: number;
  term: Term;
  /** Without: "Mitglied hinzufügen"; with: the membership to change. */
  membership?: Membership;
  /** The rank a new Ersatzmitglied gets unless changed: the next free one. */
  nextRank?: number;
  onDone: () => void;
  onCancel: () => void;
}

/** Person, Funktion (Rang for Ersatzmitglieder), von, bis, Wahlbezirk and, for an early end, the Grund. */
export default function MembershipForm({
  committeeId,
  term,
  membership,
  nextRank = 1,
  onDone,
  onCancel,
}: MembershipFormProps) {
  const editing = membership !== undefined;
  const people = useQuery({ ...peopleQueryOptions(), enabled: !editing });
  const create = useCreateMembership(committeeId);
  const update = useUpdateMembership(committeeId);
  const form = useSpecForm<MembershipValues, unknown, CreateMembershipBody | UpdateMembershipBody>({
    resolver: mappedResolver<MembershipValues, CreateMembershipBody | UpdateMembershipBody>(
      editing ? updateSchema(term) : createSchema(term),
      toInput(term, editing),
    ),
    defaultValues: {
      user_id: '',
      function: membership?.function ?? '',
      rank: membership?.rank ?? '',
      from: membership?.from ?? term.start,
      until: membership?.until ?? term.end,
      district: membership?.district ?? '',
      reason: membership?.reason ?? '',
    },
  });
  const [generalError, setGeneralError] = useState<GeneralError | null>(null);
  const busy = form.formState.isSubmitting;
  const [fn, until] = form.watch(['function', 'until']);
  const endsEarly = Boolean(until) && until < term.end;

  const handleSubmit = form.handleSubmit(async (body) => {
    setGeneralError(null);
    try {
      if (membership) {
        await update.mutateAsync({ id: membership.id, body: body as UpdateMembershipBody });
        showSuccessToast(`Die Mitgliedschaft von ${memberName(membership)} wurde gespeichert.`);
      } else {
        const created = await create.mutateAsync(body as CreateMembershipBody);
        showSuccessToast(`${memberName(created)} ist jetzt Mitglied des Gremiums (${term.title}).`);
      }
      onDone();
    } catch (error) {
      const failText = editing
        ? 'Die Mitgliedschaft konnte nicht gespeichert werden.'
        : 'Das Mitglied konnte nicht hinzugefügt werden.';
      setGeneralError(formFailure(error, failText, form.setError, FIELDS).general);
    }
  });

  const dayInput = (name: 'from' | 'until', label: string, description?: string) => (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => {
        const controlled = form.controlled(field, () => {
          if (name === 'from' && form.errorOf('until')) void form.trigger('until');
          if (name === 'until' && form.errorOf('reason')) void form.trigger('reason');
        });
        return (
          <DayField
            label={label}
            description={description}
            name={field.name}
            inputRef={field.ref}
            required
            value={field.value}
            minDate={term.start}
            maxDate={term.end}
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
      aria-label={editing ? 'Mitgliedschaft bearbeiten' : 'Mitglied hinzufügen'}
    >
      <Stack gap="md">
        {membership ? (
          <Text fw={600}>{memberName(membership)}</Text>
        ) : (
          <Controller
            control={form.control}
            name="user_id"
            render={({ field }) => (
              <Select
                label="Person"
                required
                searchable
                limit={50}
                placeholder={people.isPending ? 'Personen werden geladen …' : 'Name oder E-Mail eingeben'}
                description={
                  people.isError
                    ? `Die Personen konnten nicht geladen werden: ${people.error.message}`
                    : 'Neue Personen legen Sie in der Nutzerverwaltung an oder über „Mitglieder importieren“.'
                }
                data={personOptions(people.data ?? [])}
                {...form.controlled(field)}
                value={field.value || null}
                onChange={(next) => form.controlled(field).onChange(next ?? '')}
              />
            )}
          />
        )}
        <SimpleGrid cols={{ base: 1, xs: fn === 'ersatzmitglied' ? 2 : 1 }} spacing="md">
          <Controller
            control={form.control}
            name="function"
            render={({ field }) => {
              const controlled = form.controlled(field, () => {
                if (form.getValues('function') === 'ersatzmitglied' && form.getValues('rank') === '') {
                  form.setValue('rank', nextRank);
                }
              });
              return (
                <Select
                  label="Funktion"
                  required
                  data={MEMBER_FUNCTIONS.map((key) => ({ value: key, label: MEMBER_FUNCTION_LABELS[key] }))}
                  {...controlled}
                  value={field.value || null}
                  onChange={(next) => controlled.onChange((next ?? '') as MembershipValues['function'])}
                />
              );
            }}
          />
          {fn === 'ersatzmitglied' ? (
            <Controller
              control={form.control}
              name="rank"
              render={({ field }) => (
                <NumberInput
                  label="Rang"
                  description="Rang 1 rückt zuerst nach."
                  required
                  min={1}
                  max={999}
                  clampBehavior="none"
                  allowDecimal={false}
                  allowNegative={false}
                  hideControls
                  {...form.controlled(field)}
                />
              )}
            />
          ) : null}
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          {dayInput('from', 'Von')}
          {dayInput('until', 'Bis', `Amtsperiode bis ${germanDate(term.end)}`)}
        </SimpleGrid>
        {editing && endsEarly ? (
          <Controller
            control={form.control}
            name="reason"
            render={({ field }) => (
              <Select
                label="Grund"
                description="Warum die Mitgliedschaft vor dem Ende der Amtsperiode endet."
                clearable
                clearButtonProps={{ 'aria-label': 'Grund leeren' }}
                data={END_REASONS.map((key) => ({ value: key, label: END_REASON_LABELS[key] }))}
                {...form.controlled(field)}
                value={field.value || null}
                onChange={(next) =>
                  form.controlled(field).onChange((next ?? '') as MembershipValues['reason'])
                }
              />
            )}
          />
        ) : null}
        <TextInput label="Wahlbezirk" description="Optional." {...form.field('district')} />
        <FormFooter
          busy={busy}
          generalError={generalError}
          onCancel={onCancel}
          submitIcon={
            editing ? <IconDeviceFloppy size={18} aria-hidden /> : <IconUserPlus size={18} aria-hidden />
          }
          submitLabel={editing ? 'Speichern' : 'Mitglied hinzufügen'}
        />
      </Stack>
    </form>
  );
}
