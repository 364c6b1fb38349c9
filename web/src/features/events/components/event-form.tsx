import { useState, type ReactNode } from 'react';
import { Controller, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Progress, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import type { Role } from '@gremienportal/contracts/common';
import {
  createEventBodySchema,
  updateEventBodySchema,
  type CreateEventBody,
  type CreateEventInput,
  type UpdateEventBody,
} from '@gremienportal/contracts/events';
import { FormFooter } from '../../../components/form-footer';
import { NotificationSelect, RoleSelect } from '../../../components/role-selects';
import { UploadDropzone, type UploadExtension } from '../../../components/upload-dropzone';
import { errorMessage, type UploadProgress } from '../../../lib/api-client';
import { applyFieldErrors } from '../../../lib/form-errors';
import { useSpecForm } from '../../../lib/forms';
import { roleOptionsOf } from '../../../lib/role-ids';
import { EventDateTimeInput } from './event-date-time-input';
import { ChangeNoticeFields, noticeLines } from './change-notice-fields';

/** Form values as the contract reads them; the selects hold role ids as strings. */
export type EventFormValues = CreateEventInput & { notify?: boolean };

export const EMPTY_EVENT_VALUES: EventFormValues = {
  title: '',
  roles: [],
  start: '',
  end: '',
  location: '',
  description: '',
  notifications: [],
};
const EVENT_FIELDS = [
  'title',
  'roles',
  'start',
  'end',
  'location',
  'description',
  'notifications',
  'notify',
] as const;
const FILE_FIELDS = ['file', 'data'];
/** The information file types offered (product.md P13.1's map plus common office formats). */
// prettier-ignore
const EVENT_FILE_EXTENSIONS: readonly UploadExtension[] = [
  'pdf', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'odt', 'txt',
  'png', 'jpg', 'jpeg', 'gif', 'ico', 'zip', 'mp4', 'mov', 'avi', 'mkv',
];

/** Role ids as the selects hold them, whatever the form state holds. */
export const asIdList = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.map(String)
    : value === undefined || value === null || value === ''
      ? []
      : [String(value)];

type SubmitBody<M extends 'create' | 'update'> = M extends 'create' ? CreateEventBody : UpdateEventBody;

interface EventFormProps<M extends 'create' | 'update'> {
  /** Create: with "Benachrichtigung an" and product.md P11's create rules; update: the update rules. */
  mode: M;
  /** The form's accessible name, e.g. "Event erstellen". */
  name: string;
  roles: readonly Role[];
  initialValues?: EventFormValues;
  submitLabel: string;
  submitIcon?: ReactNode;
  /** The general text when the server refuses for another reason than the fields (product.md P12). */
  failureMessage: string;
  /** Throws the ApiError of a failed call; the form shows it. */
  onSubmit: (
    body: SubmitBody<M>,
    file: File | null,
    onProgress: (progress: UploadProgress) => void,
  ) => Promise<void>;
  /** The create form empties itself, selects and file included, after success (product.md P4). */
  resetOnSuccess?: boolean;
  /** Shown under the drop zone while no new file is chosen (edit page). */
  currentFileNote?: string;
  /** Further buttons next to the submit button (e.g. "Abbrechen"). */
  secondaryAction?: ReactNode;
}

/** Title, time, place, description, roles and information file of an event. */
export function EventForm<M extends 'create' | 'update'>({
  mode,
  name,
  roles,
  initialValues = EMPTY_EVENT_VALUES,
  submitLabel,
  submitIcon,
  failureMessage,
  onSubmit,
  resetOnSuccess = false,
  currentFileNote,
  secondaryAction,
}: EventFormProps<M>) {
  // Both schemas read the same values; "notifications" counts on update only with "notify".
  const resolver = (
    mode === 'create' ? zodResolver(createEventBodySchema) : zodResolver(updateEventBodySchema)
  ) as Resolver<EventFormValues, unknown, SubmitBody<M>>;
  const form = useSpecForm<EventFormValues, unknown, SubmitBody<M>>({
    resolver,
    defaultValues: initialValues,
  });
  const { control, setValue, watch, errorOf } = form;
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | undefined>(undefined);
  const [generalError, setGeneralError] = useState<{ title?: string; messages: string[] } | null>(null);
  const [progress, setProgress] = useState<number | undefined>(undefined);
  const { isSubmitting: busy } = form.formState;

  const roleOptions = roleOptionsOf(roles);
  const chosenRoles = asIdList(watch('roles'));
  const notificationOptions = roleOptions.filter((option) => chosenRoles.includes(option.value));
  const [title, start, end, location, description] = watch([
    'title',
    'start',
    'end',
    'location',
    'description',
  ]);
  const lines =
    mode === 'update'
      ? noticeLines(initialValues, { title, start, end, location, description }, file !== null)
      : [];

  const handleSubmit = form.handleSubmit(async (body) => {
    setGeneralError(null);
    setFileError(undefined);
    try {
      await onSubmit(body, file, (p) => setProgress(p.percent));
      if (resetOnSuccess) {
        form.reset(EMPTY_EVENT_VALUES);
        setFile(null);
      }
    } catch (error) {
      const placed = applyFieldErrors(error, form.setError, EVENT_FIELDS, { fileFields: FILE_FIELDS });
      if (placed) {
        if (placed.fileError) setFileError(placed.fileError);
        setGeneralError(placed.unplaced.length > 0 ? { messages: placed.unplaced } : null);
      } else {
        const detail = errorMessage(error, '');
        setGeneralError(
          detail ? { title: failureMessage, messages: [detail] } : { messages: [failureMessage] },
        );
      }
    } finally {
      setProgress(undefined);
    }
  });

  /** "Benachrichtigung an": on create for the new event, on update for a notice of the change. */
  const notificationSelect = (hint: string) => (
    <Controller
      control={control}
      name="notifications"
      render={({ field }) => (
        <NotificationSelect
          rolesChosen={chosenRoles.length > 0}
          noRolesHint="Zuerst Rollen wählen"
          hint={hint}
          data={notificationOptions}
          {...form.controlled(field)}
          value={asIdList(field.value)}
          onBlur={field.onBlur}
        />
      )}
    />
  );

  const dateTimeInput = (which: 'start' | 'end', label: 'Beginn' | 'Ende') => (
    <Controller
      control={control}
      name={which}
      render={({ field }) => (
        <EventDateTimeInput
          label={label}
          name={field.name}
          required
          value={typeof field.value === 'string' ? field.value : ''}
          onChange={(next) => {
            field.onChange(next);
            form.handleFieldChange(which);
            // "Ende vor Beginn" may have become right or wrong.
            if (which === 'start' && errorOf('end')) void form.trigger('end');
          }}
          onClose={() => form.handleFieldBlur(which)}
          error={errorOf(which)}
          disabled={busy}
        />
      )}
    />
  );

  return (
    <form onSubmit={handleSubmit} noValidate aria-label={name}>
      <Stack gap="md">
        <TextInput label="Titel" required {...form.field('title')} />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          {dateTimeInput('start', 'Beginn')}
          {dateTimeInput('end', 'Ende')}
        </SimpleGrid>
        <TextInput label="Ort" required {...form.field('location')} />
        <Textarea
          label="Beschreibung"
          required
          minRows={4}
          resize="vertical"
          {...form.field('description')}
        />
        <SimpleGrid cols={{ base: 1, sm: mode === 'create' ? 2 : 1 }} spacing="md">
          <Controller
            control={control}
            name="roles"
            render={({ field }) => (
              <RoleSelect
                label="Rollen"
                description="Wer das Event sehen darf"
                data={roleOptions}
                // product.md P4: choosing roles clears the notification choice.
                {...form.controlled(field, () => setValue('notifications', []))}
                value={asIdList(field.value)}
              />
            )}
          />
          {mode === 'create' ? notificationSelect('Diese Rollen erhalten eine E-Mail zum neuen Event') : null}
        </SimpleGrid>
        <UploadDropzone
          label="Informationsdatei"
          optional
          extensions={EVENT_FILE_EXTENSIONS}
          value={file}
          onChange={(next) => {
            setFile(next);
            setFileError(undefined);
          }}
          error={fileError}
          disabled={busy}
          emptyNote={currentFileNote}
        />
        {mode === 'update' ? (
          <ChangeNoticeFields
            lines={lines}
            notify={watch('notify') === true}
            onNotifyChange={(next) => {
              setValue('notify', next);
              // All of the event's roles by default: a change concerns everyone invited.
              if (next && asIdList(watch('notifications')).length === 0)
                setValue('notifications', chosenRoles);
            }}
            disabled={busy}
          >
            {notificationSelect('Diese Rollen erhalten die E-Mail')}
          </ChangeNoticeFields>
        ) : null}
        {busy && progress !== undefined ? (
          <Progress value={progress} size="sm" aria-label="Fortschritt des Hochladens" />
        ) : null}
        <FormFooter
          busy={busy}
          generalError={generalError}
          secondaryAction={secondaryAction}
          submitIcon={submitIcon}
          submitLabel={submitLabel}
        />
      </Stack>
    </form>
  );
}
