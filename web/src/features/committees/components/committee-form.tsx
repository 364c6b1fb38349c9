import { useId, useState } from 'react';
import { Controller } from 'react-hook-form';
import {
  Button,
  MultiSelect,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { IconCaretDown, IconDeviceFloppy, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import {
  COMMITTEE_KIND_LABELS,
  COMMITTEE_KINDS,
  committeeRulesSchema,
  createCommitteeBodySchema,
  DEFAULT_COMMITTEE_RULES,
  MAJORITY_BASES,
  MAJORITY_BASIS_LABELS,
  MAJORITY_LABELS,
  MAJORITY_RULES,
  MEMBER_FUNCTION_LABELS,
  MEMBER_FUNCTIONS,
  QUORUM_LABELS,
  QUORUM_RULES,
  TIE_LABELS,
  TIE_RULES,
  type Committee,
  type CommitteeKind,
  type CommitteeRules,
  type CreateCommitteeBody,
} from '@gremienportal/contracts/committees';
import { msg } from '@gremienportal/contracts/common';
import { FormFooter } from '../../../components/form-footer';
import { showSuccessToast } from '../../../components/toasts';
import type { GeneralError } from '../../../lib/form-errors';
import { useSpecForm } from '../../../lib/forms';
import { folderChoicesQueryOptions, useCreateCommittee, useUpdateCommittee } from '../committees.api';
import { formFailure } from './form-failure';
import { mappedResolver, numberOrNull, textOrNull } from './mapped-resolver';

interface CommitteeValues {
  name: string;
  kind: CommitteeKind | '';
  /** The folder's id as the select holds it; '' for "a new folder of the committee's name". */
  folder_id: string;
  rules: Omit<CommitteeRules, 'notice_days'> & { notice_days: number | string };
}

const NOTICE_LABEL = 'Einberufungsfrist in Tagen';
const NOTICE_RANGE = 'Die Einberufungsfrist beträgt 0 bis 120 Tage.';

/** The contract's body; the form always sends every rule, so the Einberufungsfrist is required here. */
const committeeFormSchema = createCommitteeBodySchema.extend({
  rules: committeeRulesSchema.extend({
    notice_days: z
      .number({ error: msg.required('Einberufungsfrist') })
      .int({ error: NOTICE_RANGE })
      .min(0, { error: NOTICE_RANGE })
      .max(120, { error: NOTICE_RANGE }),
  }),
});

const toInput = (values: CommitteeValues) => ({
  ...values,
  folder_id: textOrNull(values.folder_id) === null ? undefined : Number(values.folder_id),
  rules: { ...values.rules, notice_days: numberOrNull(values.rules.notice_days) ?? undefined },
});

const FIELDS = [
  'name',
  'kind',
  'folder_id',
  'rules',
  'rules.quorum',
  'rules.majority',
  'rules.majority_basis',
  'rules.abstentions_count',
  'rules.tie',
  'rules.circular_allowed',
  'rules.circular_objection_stops',
  'rules.minutes_signers',
  'rules.substitutes_see_papers',
  'rules.notice_days',
] as const;

const optionsOf = <K extends string>(keys: readonly K[], labels: Record<K, string>) =>
  keys.map((key) => ({ value: key, label: labels[key] }));

export const COMMITTEE_TEXTS = {
  created: (name: string) => `Das Gremium „${name}“ wurde angelegt.`,
  saved: 'Die Änderungen am Gremium wurden gespeichert.',
  createFailed: 'Das Gremium konnte nicht angelegt werden.',
  saveFailed: 'Die Änderungen am Gremium konnten nicht gespeichert werden.',
};

interface CommitteeFormProps {
  /** Without: "Gremium anlegen"; with: its edit form. */
  committee?: Committee;
  onDone: (committee: Committee) => void;
  onCancel: () => void;
}

/** Name, Art, Ordner and the rules of a committee (rules folded away: the defaults fit most). */
export default function CommitteeForm({ committee, onDone, onCancel }: CommitteeFormProps) {
  const folders = useQuery(folderChoicesQueryOptions());
  const create = useCreateCommittee();
  const update = useUpdateCommittee(committee?.id ?? 0);
  const form = useSpecForm<CommitteeValues, unknown, CreateCommitteeBody>({
    resolver: mappedResolver<CommitteeValues, CreateCommitteeBody>(committeeFormSchema, toInput),
    defaultValues: {
      name: committee?.name ?? '',
      kind: committee?.kind ?? '',
      folder_id: committee?.folder ? String(committee.folder.id) : '',
      rules: committee?.rules ?? DEFAULT_COMMITTEE_RULES,
    },
  });
  const [rulesOpen, setRulesOpen] = useState(false);
  const [generalError, setGeneralError] = useState<GeneralError | null>(null);
  const rulesId = useId();
  const busy = form.formState.isSubmitting;
  const circularAllowed = form.watch('rules.circular_allowed');

  const handleSubmit = form.handleSubmit(
    async (body) => {
      setGeneralError(null);
      try {
        const saved = committee ? await update.mutateAsync(body) : await create.mutateAsync(body);
        showSuccessToast(committee ? COMMITTEE_TEXTS.saved : COMMITTEE_TEXTS.created(saved.name));
        onDone(saved);
      } catch (error) {
        const failure = formFailure(
          error,
          committee ? COMMITTEE_TEXTS.saveFailed : COMMITTEE_TEXTS.createFailed,
          form.setError,
          FIELDS,
        );
        if (failure.fields.some((field) => field.startsWith('rules'))) setRulesOpen(true);
        setGeneralError(failure.general);
      }
    },
    // A rule's message must be visible, so the section opens.
    (errors) => {
      if (errors.rules) setRulesOpen(true);
    },
  );

  const select = <K extends string>(
    name: 'kind' | 'rules.quorum' | 'rules.majority' | 'rules.majority_basis' | 'rules.tie',
    label: string,
    keys: readonly K[],
    labels: Record<K, string>,
    description?: string,
  ) => (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <Select
          label={label}
          description={description}
          required
          data={optionsOf(keys, labels)}
          {...form.controlled(field)}
          value={(field.value as string) || null}
          onChange={(next) => form.controlled(field).onChange((next ?? '') as never)}
        />
      )}
    />
  );

  const toggle = (
    name:
      | 'rules.abstentions_count'
      | 'rules.circular_allowed'
      | 'rules.circular_objection_stops'
      | 'rules.substitutes_see_papers',
    label: string,
    disabled = false,
  ) => (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <Switch
          label={label}
          name={field.name}
          ref={field.ref}
          checked={field.value}
          onChange={(event) => field.onChange(event.currentTarget.checked)}
          onBlur={field.onBlur}
          disabled={busy || disabled}
          error={form.errorOf(name)}
        />
      )}
    />
  );

  // As lib/folder-paths' folderOptionsOf, written out: importing it here would split the chunk
  // the explorer's first load shares with it into two files.
  const folderOptions = (folders.data ?? []).map((folder) => ({
    value: String(folder.id),
    label: folder.breadcrumb,
  }));

  return (
    <form
      onSubmit={(event) => void handleSubmit(event)}
      noValidate
      aria-label={committee ? 'Gremium bearbeiten' : 'Gremium anlegen'}
    >
      <Stack gap="md">
        <TextInput label="Name" required {...form.field('name')} />
        {select('kind', 'Art', COMMITTEE_KINDS, COMMITTEE_KIND_LABELS)}
        <Controller
          control={form.control}
          name="folder_id"
          render={({ field }) => (
            <Select
              label="Ordner"
              description={
                folders.isError
                  ? `Die Ordner konnten nicht geladen werden: ${folders.error.message}`
                  : 'Optional. Ohne Auswahl wird ein Ordner mit dem Namen des Gremiums angelegt.'
              }
              placeholder={folders.isPending ? 'Ordner werden geladen …' : 'Neuer Ordner'}
              searchable
              clearable={!committee?.folder}
              clearButtonProps={{ 'aria-label': 'Ordner leeren' }}
              limit={100}
              data={folderOptions}
              {...form.controlled(field)}
              value={field.value || null}
              onChange={(next) => form.controlled(field).onChange(next ?? '')}
            />
          )}
        />

        <div>
          <Button
            variant="subtle"
            px="xs"
            onClick={() => setRulesOpen((open) => !open)}
            aria-expanded={rulesOpen}
            aria-controls={rulesId}
            rightSection={
              <IconCaretDown
                size={18}
                aria-hidden
                style={{ transform: rulesOpen ? 'rotate(180deg)' : undefined }}
              />
            }
          >
            Regeln
          </Button>
          <Text size="sm" c="dimmed">
            Beschlussfähigkeit, Mehrheit, Umlaufverfahren und Niederschrift; voreingestellt nach der
            Mustersatzung.
          </Text>
        </div>
        {/* Hidden, not unmounted: the rules keep their values while folded away. */}
        <div hidden={!rulesOpen} id={rulesId}>
          <Stack gap="md">
            {select(
              'rules.quorum',
              'Beschlussfähigkeit',
              QUORUM_RULES,
              QUORUM_LABELS,
              'Wie viele Mitglieder anwesend sein müssen.',
            )}
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              {select('rules.majority', 'Mehrheit', MAJORITY_RULES, MAJORITY_LABELS)}
              {select('rules.majority_basis', 'Bezogen auf', MAJORITY_BASES, MAJORITY_BASIS_LABELS)}
            </SimpleGrid>
            {toggle('rules.abstentions_count', 'Enthaltungen zählen als abgegebene Stimmen')}
            {select('rules.tie', 'Stimmengleichheit', TIE_RULES, TIE_LABELS)}
            {toggle('rules.circular_allowed', 'Umlaufverfahren erlaubt')}
            {toggle(
              'rules.circular_objection_stops',
              'Ein Widerspruch verhindert das Umlaufverfahren',
              !circularAllowed,
            )}
            {toggle('rules.substitutes_see_papers', 'Ersatzmitglieder sehen die Unterlagen')}
            <Controller
              control={form.control}
              name="rules.minutes_signers"
              render={({ field }) => (
                <MultiSelect
                  label="Die Niederschrift unterschreiben"
                  required
                  data={optionsOf(MEMBER_FUNCTIONS, MEMBER_FUNCTION_LABELS)}
                  clearable
                  clearButtonProps={{ 'aria-label': 'Auswahl leeren' }}
                  {...form.controlled(field)}
                  onChange={(next) => form.controlled(field).onChange(next as typeof field.value)}
                />
              )}
            />
            <Controller
              control={form.control}
              name="rules.notice_days"
              render={({ field }) => (
                <NumberInput
                  label={NOTICE_LABEL}
                  description="Mindestabstand zwischen Einladung und Sitzung."
                  required
                  min={0}
                  max={120}
                  clampBehavior="none"
                  allowDecimal={false}
                  allowNegative={false}
                  hideControls
                  {...form.controlled(field)}
                />
              )}
            />
          </Stack>
        </div>

        <FormFooter
          busy={busy}
          generalError={generalError}
          onCancel={onCancel}
          submitIcon={
            committee ? <IconDeviceFloppy size={18} aria-hidden /> : <IconPlus size={18} aria-hidden />
          }
          submitLabel={committee ? 'Speichern' : 'Gremium anlegen'}
        />
      </Stack>
    </form>
  );
}
