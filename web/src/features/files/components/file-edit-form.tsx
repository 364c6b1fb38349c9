import { useEffect, useState, type ReactNode } from 'react';
import { Controller } from 'react-hook-form';
import { Stack, TextInput } from '@mantine/core';
import { IconDeviceFloppy } from '@tabler/icons-react';
import type { Role } from '@gremienportal/contracts/common';
import { updateFileBodySchema, type UpdateFileBody } from '@gremienportal/contracts/files';
import type { FolderRef } from '@gremienportal/contracts/folders';
import { UploadDropzone } from '../../../components/upload-dropzone';
import type { UploadProgress } from '../../../lib/api-client';
import { contractResolver } from '../../../lib/contract-resolver';
import { useSpecForm } from '../../../lib/forms';
import type { StoredFile } from '../files.api';
import { DOCUMENT_EXTENSIONS } from '../files.rules';
import { roleIdsOf, roleOptionsOf } from '../../../lib/role-ids';
import { AcknowledgementFields, AcknowledgementResetField } from './acknowledgement-fields';
import { FileFormFooter, FolderChoice, PermissionsSelect } from './file-form-parts';
import { useFileSubmission } from './use-file-submission';

export interface FileEditValues {
  title: string;
  permissions: string[];
  folder_id: string;
  acknowledgement_required: boolean;
  acknowledgement_due: string;
  acknowledgement_reset: boolean;
}

const EDIT_FIELDS = [
  'title',
  'permissions',
  'folder_id',
  'acknowledgement_required',
  'acknowledgement_due',
  'acknowledgement_reset',
] as const;

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
 * "Datei bearbeiten" (product.md P3): title, "Zugriffsberechtigung", "Verschieben nach" and a
 * replacement file. product.md P11: title at least 3 characters, at least one role, one folder.
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
    resolver: contractResolver(updateFileBodySchema),
    defaultValues: {
      title: file.title,
      permissions: roleIdsOf(file.roles, roles),
      folder_id: String(file.folder_id),
      acknowledgement_required: file.acknowledgement_required ?? false,
      acknowledgement_due: file.acknowledgement_due ?? '',
      acknowledgement_reset: true,
    },
  });
  const { control, setValue } = form;
  const [replacement, setReplacement] = useState<File | null>(null);
  const submission = useFileSubmission(failureMessage);
  const { fileError, setFileError } = submission;
  const { isSubmitting: busy } = form.formState;

  useEffect(() => {
    if (createdFolderId !== undefined) {
      setValue('folder_id', String(createdFolderId));
      form.handleFieldChange('folder_id');
    }
    // Only a newly created folder changes the choice.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [createdFolderId]);

  const roleOptions = roleOptionsOf(roles);
  // The current folder stays selectable even if the list does not hold it (e.g. still loading).
  const folderData = folderOptions.some((option) => option.id === file.folder_id)
    ? folderOptions
    : [
        {
          id: file.folder_id,
          breadcrumb: file.folder?.breadcrumb ?? file.folder_name,
          archived: file.archived,
        },
        ...folderOptions,
      ];

  const handleSubmit = form.handleSubmit(async (parsed) => {
    submission.setGeneralError(null);
    // Whether to ask again only means something with a new content.
    const body = replacement ? parsed : { ...parsed, acknowledgement_reset: undefined };
    await submission.submit(
      (onProgress, signal) => onSubmit(body, replacement, onProgress, signal),
      form.setError,
      EDIT_FIELDS,
    );
  });

  return (
    <form onSubmit={(event) => void handleSubmit(event)} noValidate aria-label="Datei bearbeiten">
      <Stack gap="md">
        <TextInput label="Titel" required data-autofocus {...form.field('title')} />
        <Controller
          control={control}
          name="permissions"
          render={({ field }) => <PermissionsSelect data={roleOptions} {...form.controlled(field)} />}
        />
        <Controller
          control={control}
          name="folder_id"
          render={({ field }) => (
            <FolderChoice
              label="Verschieben nach"
              options={folderData}
              {...form.controlled(field)}
              onNewFolder={
                onNewFolder
                  ? () => {
                      const current = form.getValues('folder_id');
                      onNewFolder(current ? Number(current) : undefined);
                    }
                  : undefined
              }
            />
          )}
        />
        <AcknowledgementFields form={form} />
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
        {replacement ? <AcknowledgementResetField form={form} /> : null}
        <FileFormFooter
          busy={busy}
          progress={submission.progress}
          generalError={submission.generalError}
          secondaryAction={secondaryAction}
          submitIcon={<IconDeviceFloppy size={18} aria-hidden />}
          submitLabel={submitLabel}
        />
      </Stack>
    </form>
  );
}
