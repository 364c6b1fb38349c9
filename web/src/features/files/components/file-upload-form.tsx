import { useEffect, useRef, type FormEvent, type ReactNode } from 'react';
import { Controller, type Resolver } from 'react-hook-form';
import { Fieldset, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import type { Role } from '@gremienportal/contracts/common';
import { createFileBodySchema, type CreateFileBody, type StoredFile } from '@gremienportal/contracts/files';
import { FILE_MESSAGES } from '@gremienportal/contracts/file-messages';
import { UPLOAD_BATCH_MESSAGES } from '@gremienportal/contracts/file-messages';
import type { FolderRef } from '@gremienportal/contracts/folders';
import { NotificationSelect } from '../../../components/role-selects';
import { UploadDropzone } from '../../../components/upload-dropzone';
import type { UploadProgress } from '../../../lib/api-client';
import { contractResolver } from '../../../lib/contract-resolver';
import { useSpecForm } from '../../../lib/forms';
import { roleOptionsOf } from '../../../lib/role-ids';
import { DOCUMENT_EXTENSIONS, defaultUploadRoleIds, notificationOptionsFor } from '../files.rules';
import { AcknowledgementFields } from './acknowledgement-fields';
import { BatchFileList, BatchSummary, batchSubmitLabel } from './batch-file-list';
import { FileFormFooter, FolderChoice, PermissionsSelect } from './file-form-parts';
import { useBatchUpload } from './use-batch-upload';
import { useFileSubmission } from './use-file-submission';

export interface FileUploadValues {
  title: string;
  /** Role ids as the selects hold them. */
  permissions: string[];
  notifications: string[];
  /** The folder id as the select holds it; '' while none is chosen. */
  folder_id: string;
  acknowledgement_required: boolean;
  acknowledgement_due: string;
}

const UPLOAD_FIELDS = [
  'title',
  'permissions',
  'notifications',
  'folder_id',
  'acknowledgement_required',
  'acknowledgement_due',
] as const;

export type UploadSubmit = (
  body: CreateFileBody,
  file: File,
  onProgress: (progress: UploadProgress) => void,
  signal: AbortSignal,
) => Promise<void>;

/** The upload goes into one fixed folder (explorer modal) … */
interface FixedTarget {
  kind: 'fixed';
  id: number;
  breadcrumb: string;
  roles: readonly string[];
}

/** … or into one chosen from a list (/files/new), optionally with a "Neuer Ordner" button. */
interface ChosenTarget {
  kind: 'choose';
  options: readonly FolderRef[];
  /** The roles of a folder, for the preselected "Zugriffsberechtigung". */
  rolesOf: (folderId: number) => readonly string[];
  initialId?: number;
  onNewFolder?: (currentId: number | undefined) => void;
  /** A folder the "Neuer Ordner" modal just created: it becomes the choice. */
  createdId?: number;
}

interface FileUploadFormProps {
  roles: readonly Role[];
  target: FixedTarget | ChosenTarget;
  /** The general text when the upload fails for another reason than the fields (product.md P12). */
  failureMessage: string;
  onSubmit: UploadSubmit;
  secondaryAction?: ReactNode;
  /** The form's accessible name. @default "Datei hochladen" */
  name?: string;
  /**
   * Several files (decision 182): the form uploads them itself, one batch, and calls this once the
   * batch is completed, with the documents that were uploaded. Without it the form says so itself.
   */
  onBatchUploaded?: (files: StoredFile[]) => void;
}

/** In a batch the titles are the list's; the shared fields are checked with this in their place. */
const TITLE_STAND_IN = 'Stapel';

/**
 * Title, "Zugriffsberechtigung", "Benachrichtigung an" and the file (product.md P3). The roles start
 * with the folder's default (product.md P4); notifications can only go to the chosen roles and are
 * cleared whenever the roles change. Closing the form aborts a running upload. Several files turn
 * "Titel" into a list of titles, one per file; the other fields hold for all (decision 182).
 */
export function FileUploadForm({
  roles,
  target,
  failureMessage,
  onSubmit,
  secondaryAction,
  name = 'Datei hochladen',
  onBatchUploaded,
}: FileUploadFormProps) {
  const initialFolderId = target.kind === 'fixed' ? target.id : target.initialId;
  const pathOf = (folderId: number | undefined) =>
    target.kind === 'fixed'
      ? target.breadcrumb
      : (target.options.find((option) => option.id === folderId)?.breadcrumb ?? '');
  const rolesOfFolder = (folderId: number | undefined) =>
    target.kind === 'fixed' ? target.roles : folderId === undefined ? [] : target.rolesOf(folderId);
  const defaultsFor = (folderId: number | undefined) =>
    folderId === undefined ? [] : defaultUploadRoleIds(pathOf(folderId), rolesOfFolder(folderId), roles);

  const batch = useBatchUpload();
  // A batch once begun stays one, however few of its files are left in the list.
  const several = batch.rows.length > 1 || batch.rows.some((row) => row.status !== 'waiting');
  const severalNow = useRef(several);
  severalNow.current = several;
  const contract = contractResolver<FileUploadValues, CreateFileBody>(createFileBodySchema);
  const resolver: Resolver<FileUploadValues, unknown, CreateFileBody> = (values, context, options) =>
    contract(severalNow.current ? { ...values, title: TITLE_STAND_IN } : values, context, options);

  const form = useSpecForm<FileUploadValues, unknown, CreateFileBody>({
    resolver,
    defaultValues: {
      title: '',
      permissions: defaultsFor(initialFolderId),
      notifications: [],
      folder_id: initialFolderId === undefined ? '' : String(initialFolderId),
      acknowledgement_required: false,
      acknowledgement_due: '',
    },
  });
  const { control, setValue, watch } = form;
  const file = !several && batch.rows.length === 1 ? batch.rows[0]!.file : null;
  const submission = useFileSubmission(failureMessage);
  const { fileError, setFileError, setGeneralError } = submission;
  // Whether the person chose roles themselves; then a new folder choice keeps them.
  const rolesChosen = useRef(false);
  const { isSubmitting: busy } = form.formState;
  // Once a batch has begun, its shared fields stay as its first files were sent.
  const locked = several && batch.rows.some((row) => row.status !== 'waiting');
  /** Completes the batch (`send` does when nothing failed); a lost completion the server does later. */
  const completing = async (work: () => Promise<StoredFile[] | null>) => {
    try {
      const created = await work();
      if (created) onBatchUploaded?.(created);
    } catch {
      setGeneralError({ messages: [UPLOAD_BATCH_MESSAGES.completeFailed] });
    }
  };

  const roleOptions = roleOptionsOf(roles);
  const chosenRoles = watch('permissions') ?? [];
  const notificationOptions = notificationOptionsFor(chosenRoles, roles);

  const chooseFolder = (value: string) => {
    setValue('folder_id', value);
    form.handleFieldChange('folder_id');
    if (!rolesChosen.current) {
      setValue('permissions', defaultsFor(value ? Number(value) : undefined));
      setValue('notifications', []);
    }
  };

  const createdId = target.kind === 'choose' ? target.createdId : undefined;
  useEffect(() => {
    if (createdId !== undefined) chooseFolder(String(createdId));
    // Only a newly created folder changes the choice.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [createdId]);

  const handleSubmit = form.handleSubmit(async (body) => {
    setGeneralError(null);
    if (several) {
      if (batch.checkTitles()) await completing(() => batch.send(body));
      return;
    }
    if (!file) return;
    // Without a folder field (explorer modal) a folder error belongs to the general message.
    const shownFields = UPLOAD_FIELDS.filter((field) => field !== 'folder_id' || target.kind === 'choose');
    await submission.submit(
      (onProgress, signal) => onSubmit(body, file, onProgress, signal),
      form.setError,
      shownFields,
    );
  });

  // The file is checked together with the fields, so every missing thing shows at once.
  const submit = (event: FormEvent<HTMLFormElement>) => {
    if (batch.rows.length === 0) setFileError(FILE_MESSAGES.fileRequired);
    if (several) batch.checkTitles();
    return handleSubmit(event);
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label={name}>
      <Stack gap="md">
        {several ? null : <TextInput label="Titel" required data-autofocus {...form.field('title')} />}
        <Fieldset variant="unstyled" disabled={locked} p={0} m={0}>
          <Stack gap="md">
            {target.kind === 'choose' ? (
              <Controller
                control={control}
                name="folder_id"
                render={({ field }) => (
                  <FolderChoice
                    label="Ordner"
                    options={target.options}
                    {...form.controlled(field)}
                    onChange={chooseFolder}
                    onNewFolder={
                      target.onNewFolder
                        ? () => {
                            const current = watch('folder_id');
                            target.onNewFolder?.(current ? Number(current) : undefined);
                          }
                        : undefined
                    }
                  />
                )}
              />
            ) : null}
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <Controller
                control={control}
                name="permissions"
                render={({ field }) => (
                  <PermissionsSelect
                    data={roleOptions}
                    {...form.controlled(field, () => {
                      rolesChosen.current = true;
                      // product.md P4: choosing roles clears the notification choice.
                      setValue('notifications', []);
                    })}
                  />
                )}
              />
              <Controller
                control={control}
                name="notifications"
                render={({ field }) => (
                  <NotificationSelect
                    rolesChosen={chosenRoles.length > 0}
                    noRolesHint="Zuerst die Zugriffsberechtigung wählen"
                    hint="Diese Rollen erhalten eine E-Mail zur neuen Datei"
                    data={notificationOptions}
                    {...form.controlled(field)}
                    onBlur={field.onBlur}
                  />
                )}
              />
            </SimpleGrid>
            <AcknowledgementFields form={form} />
          </Stack>
        </Fieldset>
        <UploadDropzone
          extensions={DOCUMENT_EXTENSIONS}
          value={file}
          required
          onChange={(next) => {
            batch.clear();
            if (next) batch.addFiles([next]);
            setFileError(undefined);
          }}
          onAddMany={(added) => {
            batch.addFiles(added);
            setFileError(undefined);
          }}
          error={fileError}
          disabled={busy}
        />
        {several ? (
          <BatchFileList rows={batch.rows} busy={busy} onTitle={batch.setTitle} onRemove={batch.removeRow} />
        ) : null}
        {several && !busy ? (
          <BatchSummary
            rows={batch.rows}
            completed={batch.completed}
            onFinish={() => void completing(batch.finish)}
          />
        ) : null}
        <FileFormFooter
          busy={busy}
          progress={several ? null : submission.progress}
          generalError={submission.generalError}
          secondaryAction={secondaryAction}
          submitIcon={<IconUpload size={18} aria-hidden />}
          submitLabel={several ? batchSubmitLabel(batch.rows) : 'Hochladen'}
        />
      </Stack>
    </form>
  );
}
