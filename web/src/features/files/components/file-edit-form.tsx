import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Controller, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, MultiSelect, Select, Stack, TextInput } from '@mantine/core';
import { IconDeviceFloppy, IconFolderPlus } from '@tabler/icons-react';
import type { Role } from '@gremienportal/contracts/common';
import { updateFileBodySchema, type UpdateFileBody } from '@gremienportal/contracts/files';
import type { FolderRef } from '@gremienportal/contracts/folders';
import { FormError } from '../../../components/form-error';
import { UploadDropzone } from '../../../components/upload-dropzone';
import { errorMessage, isApiError, type UploadProgress } from '../../../lib/api-client';
import { applyFieldErrors } from '../../../lib/form-errors';
import { useSpecForm } from '../../../lib/forms';
import type { StoredFile } from '../files.api';
import { DOCUMENT_EXTENSIONS, roleIdsOf } from '../files.rules';
import { UploadProgressBar } from './upload-progress';

export interface FileEditValues {
  title: string;
  permissions: string[];
  folder_id: string;
}

const EDIT_FIELDS = ['title', 'permissions', 'folder_id'] as const;
const FILE_FIELDS = ['file', 'data'];

/** What the edit form sends; a replacement file only when one was chosen. */
export type EditSubmit = (
  body: UpdateFileBody,
  file: File | null,
  onProgress: (progress: UploadProgress) => void,
  signal: AbortSignal,
) => Promise<void>;

interface FileEditFormProps {
  file: StoredFile;
  roles: readonly Role[];
  /** "Verschieben nach": every folder a file may live in. */
  folderOptions: readonly FolderRef[];
  failureMessage: string;
  onSubmit: EditSubmit;
  /** Opens the "Neuer Ordner" modal (pages only). */
  onNewFolder?: (currentId: number | undefined) => void;
  /** A folder the "Neuer Ordner" modal just created: it becomes the target. */
  createdFolderId?: number;
  secondaryAction?: ReactNode;
  submitLabel?: string;
}

/**
 * "Datei bearbeiten" (spec § 2): title, "Zugriffsberechtigung", "Verschieben nach" and a
 * replacement file. Spec § 5: title at least 3 characters, at least one role, one folder.
 */
export function FileEditForm({
  file,
  roles,
  folderOptions,
  failureMessage,
  onSubmit,
  onNewFolder,
  createdFolderId,
  secondaryAction,
  submitLabel = 'Speichern',
}: FileEditFormProps) {
  const form = useSpecForm<FileEditValues, unknown, UpdateFileBody>({
    resolver: zodResolver(updateFileBodySchema) as unknown as Resolver<
      FileEditValues,
      unknown,
      UpdateFileBody
    >,
    defaultValues: {
      title: file.title,
      permissions: roleIdsOf(file.roles, roles),
      folder_id: String(file.folder_id),
    },
  });
  const { control, setValue, errorOf } = form;
  const [replacement, setReplacement] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | undefined>(undefined);
  const [generalError, setGeneralError] = useState<{ title?: string; messages: string[] } | null>(null);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const abort = useRef<AbortController | null>(null);
  const { isSubmitting: busy } = form.formState;

  useEffect(() => () => abort.current?.abort(), []);
  useEffect(() => {
    if (createdFolderId !== undefined) {
      setValue('folder_id', String(createdFolderId));
      form.handleFieldChange('folder_id');
    }
    // Only a newly created folder changes the choice.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [createdFolderId]);

  const roleOptions = roles.map((role) => ({ value: String(role.id), label: role.name }));
  // The current folder stays selectable even if the list does not hold it (e.g. still loading).
  const folderData = folderOptions.some((option) => option.id === file.folder_id)
    ? folderOptions
    : [{ id: file.folder_id, breadcrumb: file.folder?.breadcrumb ?? file.folder_name }, ...folderOptions];

  const handleSubmit = form.handleSubmit(async (body) => {
    setGeneralError(null);
    setFileError(undefined);
    abort.current = new AbortController();
    try {
      await onSubmit(body, replacement, setProgress, abort.current.signal);
    } catch (error) {
      if (isApiError(error) && error.kind === 'aborted') return;
      const placed = applyFieldErrors(error, form.setError, EDIT_FIELDS, { fileFields: FILE_FIELDS });
      if (placed) {
        if (placed.fileError) setFileError(placed.fileError);
        setGeneralError({
          title: failureMessage,
          messages: placed.unplaced.length > 0 ? placed.unplaced : [placed.message],
        });
      } else if (isApiError(error) && error.status === 413) {
        setFileError(error.message);
        setGeneralError({ messages: [failureMessage] });
      } else {
        const detail = isApiError(error) && error.status === 422 ? errorMessage(error, '') : '';
        setGeneralError(
          detail ? { title: failureMessage, messages: [detail] } : { messages: [failureMessage] },
        );
      }
    } finally {
      setProgress(null);
      abort.current = null;
    }
  });

  return (
    <form onSubmit={(event) => void handleSubmit(event)} noValidate aria-label="Datei bearbeiten">
      <Stack gap="md">
        <TextInput label="Titel" required disabled={busy} data-autofocus {...form.field('title')} />
        <Controller
          control={control}
          name="permissions"
          render={({ field }) => (
            <MultiSelect
              label="Zugriffsberechtigung"
              description="Wer die Datei sehen darf"
              required
              name={field.name}
              ref={field.ref}
              data={roleOptions}
              value={field.value ?? []}
              onChange={(next) => {
                field.onChange(next);
                form.handleFieldChange('permissions');
              }}
              onBlur={() => {
                field.onBlur();
                form.handleFieldBlur('permissions');
              }}
              error={errorOf('permissions')}
              disabled={busy}
              clearable
              clearButtonProps={{ 'aria-label': 'Zugriffsberechtigung leeren' }}
            />
          )}
        />
        <Group gap="xs" align="flex-end" wrap="wrap">
          <Controller
            control={control}
            name="folder_id"
            render={({ field }) => (
              <Select
                label="Verschieben nach"
                required
                searchable
                name={field.name}
                ref={field.ref}
                data={folderData.map((option) => ({ value: String(option.id), label: option.breadcrumb }))}
                value={field.value || null}
                onChange={(value) => {
                  field.onChange(value ?? '');
                  form.handleFieldChange('folder_id');
                }}
                onBlur={() => {
                  field.onBlur();
                  form.handleFieldBlur('folder_id');
                }}
                error={errorOf('folder_id')}
                disabled={busy}
                style={{ flex: '1 1 240px', minWidth: 0 }}
              />
            )}
          />
          {onNewFolder ? (
            <Button
              variant="default"
              leftSection={<IconFolderPlus size={18} aria-hidden />}
              disabled={busy}
              onClick={() => {
                const current = form.getValues('folder_id');
                onNewFolder(current ? Number(current) : undefined);
              }}
              mb={errorOf('folder_id') ? 22 : 0}
            >
              Neuer Ordner
            </Button>
          ) : null}
        </Group>
        <UploadDropzone
          extensions={DOCUMENT_EXTENSIONS}
          label="Neue Datei"
          value={replacement}
          onChange={(next) => {
            setReplacement(next);
            setFileError(undefined);
          }}
          error={fileError}
          disabled={busy}
          emptyNote={`Ohne neue Datei bleibt „${file.title}.${file.format}“ unverändert.`}
        />
        {busy && progress ? <UploadProgressBar progress={progress} /> : null}
        <FormError title={generalError?.title} message={generalError?.messages ?? null} />
        <Group justify="flex-end" gap="sm">
          {secondaryAction}
          <Button type="submit" loading={busy} leftSection={<IconDeviceFloppy size={18} aria-hidden />}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
