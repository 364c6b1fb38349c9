import { useEffect, useState, type ReactNode } from 'react';
import { Controller, type FieldValues, type Resolver } from 'react-hook-form';
import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Radio,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import {
  IconAlertTriangle,
  IconDeviceFloppy,
  IconFilePlus,
  IconLink,
  IconPlus,
  IconUnlink,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import type { $ZodType } from 'zod/v4/core';
import {
  MAJORITY_BASES,
  MAJORITY_BASIS_LABELS,
  MAJORITY_LABELS,
  MAJORITY_RULES,
  QUORUM_LABELS,
  QUORUM_RULES,
  type MajorityBasis,
  type MajorityRule,
  type QuorumRule,
} from '@gremienportal/contracts/committees';
import {
  createMotionBodySchema,
  updateMotionBodySchema,
  VOTE_MODE_LABELS,
  VOTE_MODES,
  type CreateMotionBody,
  type Motion,
  type VoteMode,
} from '@gremienportal/contracts/resolutions';
import { FormFooter } from '../../../components/form-footer';
import { showSuccessToast } from '../../../components/toasts';
import { useAuth } from '../../../lib/auth';
import { contractResolver } from '../../../lib/contract-resolver';
import { generalErrorOf, type GeneralError } from '../../../lib/form-errors';
import { useSpecForm } from '../../../lib/forms';
import { plural } from '../../../lib/plural';
import {
  committeeChoicesQueryOptions,
  ownMembershipsQueryOptions,
  useCreateMotion,
  useUpdateMotion,
} from '../resolutions.api';
import { writableCommittees } from '../resolutions.rules';

/** A document as the picker hands it over (the agenda editor's picker, wired in by the page). */
export interface PickedDocument {
  id: number;
  title: string;
  format: string;
  size_bytes: number | null;
}

export interface DocumentPickerProps {
  /** Whose documents are chosen; null: closed. */
  target: string | null;
  initial: readonly PickedDocument[];
  onApply: (documents: PickedDocument[]) => void;
  onClose: () => void;
}

interface MotionValues {
  committee_id: string;
  title: string;
  text: string;
  justification: string;
  mode: VoteMode | '';
  /** '' for the committee's own rule. */
  majority: MajorityRule | '';
  majority_basis: MajorityBasis | '';
  quorum: QuorumRule | '';
}

const FIELDS = [
  'committee_id',
  'title',
  'text',
  'justification',
  'mode',
  'majority',
  'majority_basis',
  'quorum',
] as const;

const COMMITTEE_REQUIRED = 'Bitte ein Gremium wählen.';
const createFormSchema = createMotionBodySchema.extend({
  committee_id: z.coerce.number({ error: COMMITTEE_REQUIRED }).int().positive({ error: COMMITTEE_REQUIRED }),
});

const blankToUndefined = <T extends string>(value: T | ''): T | undefined =>
  value === '' ? undefined : value;

/** The form's values as the contract reads them: '' for "not chosen" is left out. */
const toInput = (values: MotionValues) => ({
  ...values,
  committee_id: values.committee_id === '' ? undefined : Number(values.committee_id),
  mode: blankToUndefined(values.mode),
  majority: blankToUndefined(values.majority),
  majority_basis: blankToUndefined(values.majority_basis),
  quorum: blankToUndefined(values.quorum),
});

function mappedResolver(
  schema: $ZodType<unknown, FieldValues>,
): Resolver<MotionValues, unknown, CreateMotionBody> {
  const resolve = contractResolver<FieldValues, CreateMotionBody>(schema);
  return (values, context, options) =>
    resolve(toInput(values), context, options as unknown as Parameters<typeof resolve>[2]) as ReturnType<
      Resolver<MotionValues, unknown, CreateMotionBody>
    >;
}

const optionsOf = <K extends string>(keys: readonly K[], labels: Record<K, string>, own: string) => [
  { value: '', label: own },
  ...keys.map((key) => ({ value: key, label: labels[key] })),
];

const fileName = (document: PickedDocument) =>
  document.format ? `${document.title}.${document.format}` : document.title;

interface MotionFormProps {
  /** Without: "Beschlussvorlage anlegen"; with: the motion to change. */
  motion?: Motion;
  /** A new motion's committee, meeting and agenda item (from the page it was started on). */
  defaults?: { committeeId?: number; eventId?: number; agendaItemId?: number };
  /** Which meeting and item the motion belongs to, in words ("Sitzung … · TOP 3 …"). */
  context?: ReactNode;
  /** The document picker; without it the form keeps the motion's documents as they are. */
  renderDocumentPicker?: (props: DocumentPickerProps) => ReactNode;
  onDone: (motion: Motion, notice: string | null) => void;
  onCancel: () => void;
}

/**
 * A Beschlussvorlage: committee, title, the exact text to be resolved, the justification, how it is
 * voted, where it departs from the committee's majority or quorum, and its documents. Validated
 * with the contract's schema, so the form and the server say the same German text.
 */
export function MotionForm({
  motion,
  defaults = {},
  context,
  renderDocumentPicker,
  onDone,
  onCancel,
}: MotionFormProps) {
  const { isAdmin } = useAuth();
  const committees = useQuery({ ...committeeChoicesQueryOptions(), enabled: !motion });
  const memberships = useQuery({ ...ownMembershipsQueryOptions(), enabled: !motion && !isAdmin });
  const choices = writableCommittees(committees.data ?? [], isAdmin, memberships.data ?? []);
  const create = useCreateMotion();
  const update = useUpdateMotion(motion?.id ?? 0);
  const [documents, setDocuments] = useState<PickedDocument[]>(
    () =>
      motion?.files.map((file) => ({ id: file.id, title: file.name, format: '', size_bytes: null })) ?? [],
  );
  const [picking, setPicking] = useState(false);
  const [generalError, setGeneralError] = useState<GeneralError | null>(null);
  const form = useSpecForm<MotionValues, unknown, CreateMotionBody>({
    resolver: mappedResolver(motion ? updateMotionBodySchema : createFormSchema),
    defaultValues: {
      committee_id: String(motion?.committee.id ?? defaults.committeeId ?? ''),
      title: motion?.title ?? '',
      text: motion?.text ?? '',
      justification: motion?.justification ?? '',
      mode: motion?.mode ?? '',
      majority: motion?.majority ?? '',
      majority_basis: motion?.majority_basis ?? '',
      quorum: motion?.quorum ?? '',
    },
  });
  // One committee to choose from: it is chosen.
  const onlyChoice = choices.length === 1 ? String(choices[0]!.id) : null;
  const { getValues, setValue } = form;
  useEffect(() => {
    if (!motion && onlyChoice && getValues('committee_id') === '') setValue('committee_id', onlyChoice);
  }, [motion, onlyChoice, getValues, setValue]);
  const busy = form.formState.isSubmitting;
  const failureText = motion
    ? 'Die Beschlussvorlage konnte nicht gespeichert werden.'
    : 'Die Beschlussvorlage konnte nicht angelegt werden.';

  const handleSubmit = form.handleSubmit(async (body) => {
    setGeneralError(null);
    const file_ids = documents.map((document) => document.id);
    try {
      if (motion) {
        const { committee_id: _committee, ...fields } = body;
        const res = await update.mutateAsync({ ...fields, ...(renderDocumentPicker ? { file_ids } : {}) });
        showSuccessToast('Die Beschlussvorlage wurde gespeichert.');
        onDone(res.data, res.message);
      } else {
        const saved = await create.mutateAsync({
          ...body,
          ...(defaults.eventId !== undefined ? { event_id: defaults.eventId } : {}),
          ...(defaults.agendaItemId !== undefined ? { agenda_item_id: defaults.agendaItemId } : {}),
          ...(file_ids.length > 0 ? { file_ids } : {}),
        });
        showSuccessToast(`Die Beschlussvorlage „${saved.title}“ wurde angelegt.`);
        onDone(saved, null);
      }
    } catch (error) {
      setGeneralError(generalErrorOf(error, failureText, form.setError, FIELDS));
    }
  });

  const select = (
    name: 'majority' | 'majority_basis' | 'quorum',
    label: string,
    options: { value: string; label: string }[],
  ) => (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => {
        const controlled = form.controlled(field);
        return (
          <Select
            label={label}
            data={options}
            allowDeselect={false}
            name={controlled.name}
            ref={controlled.ref}
            value={controlled.value}
            onChange={(value) => controlled.onChange((value ?? '') as typeof field.value)}
            onBlur={controlled.onBlur}
            error={controlled.error}
            disabled={controlled.disabled}
            comboboxProps={{ withinPortal: true }}
          />
        );
      }}
    />
  );

  return (
    <form
      onSubmit={(event) => void handleSubmit(event)}
      noValidate
      aria-label={motion ? 'Beschlussvorlage bearbeiten' : 'Beschlussvorlage anlegen'}
    >
      <Stack gap="md" maw={760}>
        {context ? <Text size="sm">{context}</Text> : null}
        {motion?.state === 'abstimmung' ? (
          <Alert
            color="orange"
            variant="light"
            icon={<IconAlertTriangle aria-hidden />}
            title="Die Abstimmung läuft"
          >
            Wenn Sie die Vorlage jetzt ändern, wird die laufende Abstimmung ungültig: Die abgegebenen Stimmen
            verfallen, die Vorlage wird wieder ein Entwurf, und die Stimmberechtigten werden benachrichtigt.
          </Alert>
        ) : null}
        {motion ? (
          <Text size="sm">Gremium: {motion.committee.name}</Text>
        ) : (
          <Controller
            control={form.control}
            name="committee_id"
            render={({ field }) => {
              const controlled = form.controlled(field);
              return (
                <Select
                  label="Gremium"
                  withAsterisk
                  placeholder={committees.isPending ? 'Wird geladen …' : 'Gremium wählen'}
                  data={choices.map((committee) => ({ value: String(committee.id), label: committee.name }))}
                  name={controlled.name}
                  ref={controlled.ref}
                  value={controlled.value || null}
                  onChange={(value) => controlled.onChange(value ?? '')}
                  onBlur={controlled.onBlur}
                  error={controlled.error}
                  disabled={controlled.disabled}
                  nothingFoundMessage="Sie schreiben für kein Gremium Beschlussvorlagen."
                  comboboxProps={{ withinPortal: true }}
                />
              );
            }}
          />
        )}
        <TextInput label="Titel" withAsterisk maxLength={200} {...form.field('title')} />
        <Textarea
          label="Beschlusstext"
          description="Der genaue Wortlaut, über den abgestimmt wird und der ins Beschlussbuch kommt."
          withAsterisk
          autosize
          minRows={4}
          maxLength={5000}
          {...form.field('text')}
        />
        <Textarea
          label="Begründung"
          description="Freiwillig: warum der Beschluss gefasst werden soll."
          autosize
          minRows={3}
          {...form.field('justification')}
        />
        <Controller
          control={form.control}
          name="mode"
          render={({ field }) => {
            const controlled = form.controlled(field);
            return (
              <Radio.Group
                label="Abstimmungsart"
                withAsterisk
                name={controlled.name}
                value={controlled.value}
                onChange={(value) => controlled.onChange(value as VoteMode)}
                error={controlled.error}
              >
                <Stack gap="xs" mt={6}>
                  {VOTE_MODES.map((mode, index) => (
                    <Radio
                      key={mode}
                      value={mode}
                      label={VOTE_MODE_LABELS[mode]}
                      disabled={controlled.disabled}
                      ref={index === 0 ? controlled.ref : undefined}
                      onBlur={controlled.onBlur}
                    />
                  ))}
                </Stack>
              </Radio.Group>
            );
          }}
        />
        <Stack gap="xs">
          <Title order={2} size="h5">
            Mehrheit und Beschlussfähigkeit
          </Title>
          <Text size="sm" c="dimmed">
            Ohne Angabe gelten die Regeln des Gremiums.
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            {select(
              'majority',
              'Mehrheit',
              optionsOf(MAJORITY_RULES, MAJORITY_LABELS, 'Wie im Gremium festgelegt'),
            )}
            {select(
              'majority_basis',
              'Bezogen auf',
              optionsOf(MAJORITY_BASES, MAJORITY_BASIS_LABELS, 'Wie im Gremium festgelegt'),
            )}
            {select(
              'quorum',
              'Beschlussfähig bei',
              optionsOf(QUORUM_RULES, QUORUM_LABELS, 'Wie im Gremium festgelegt'),
            )}
          </SimpleGrid>
        </Stack>
        {renderDocumentPicker ? (
          <Stack gap="xs" role="group" aria-label="Dokumente">
            <Title order={2} size="h5">
              Dokumente
            </Title>
            {documents.length === 0 ? (
              <Text size="sm" c="dimmed">
                Keine Dokumente verknüpft.
              </Text>
            ) : (
              <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
                {documents.map((document) => (
                  <li key={document.id}>
                    <Group gap="xs" wrap="nowrap">
                      <IconLink size={18} aria-hidden style={{ flexShrink: 0 }} />
                      <Text style={{ overflowWrap: 'anywhere', flex: 1 }}>{fileName(document)}</Text>
                      <ActionIcon
                        variant="subtle"
                        color="gray"
                        size="lg"
                        aria-label={`„${fileName(document)}“ entfernen`}
                        onClick={() =>
                          setDocuments((current) => current.filter((entry) => entry.id !== document.id))
                        }
                        disabled={busy}
                      >
                        <IconUnlink size={18} aria-hidden />
                      </ActionIcon>
                    </Group>
                  </li>
                ))}
              </ul>
            )}
            <Group>
              <Button
                variant="default"
                leftSection={<IconFilePlus size={18} aria-hidden />}
                onClick={() => setPicking(true)}
                disabled={busy}
              >
                Dokumente auswählen
              </Button>
              {documents.length > 0 ? (
                <Text size="sm" c="dimmed">
                  {plural(documents.length, 'Dokument', 'Dokumente')} verknüpft
                </Text>
              ) : null}
            </Group>
            {renderDocumentPicker({
              target: picking ? 'die Beschlussvorlage' : null,
              initial: documents,
              onApply: (chosen) => {
                setDocuments(chosen);
                setPicking(false);
              },
              onClose: () => setPicking(false),
            })}
          </Stack>
        ) : null}
        <FormFooter
          busy={busy}
          generalError={generalError}
          onCancel={onCancel}
          submitIcon={
            motion ? <IconDeviceFloppy size={18} aria-hidden /> : <IconPlus size={18} aria-hidden />
          }
          submitLabel={motion ? 'Speichern' : 'Beschlussvorlage anlegen'}
        />
      </Stack>
    </form>
  );
}
