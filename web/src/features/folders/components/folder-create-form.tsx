import { useState } from 'react';
import { Controller } from 'react-hook-form';
import { Stack, Text, TextInput } from '@mantine/core';
import { IconFolderPlus } from '@tabler/icons-react';
import {
  createFolderBodySchema,
  type CreateFolderBody,
  type Folder,
  type FolderRef,
} from '@gremienportal/contracts/folders';
import { FOLDER_MESSAGES } from '@gremienportal/contracts/file-messages';
import { FolderSelect } from '../../../components/folder-select';
import { FormFooter } from '../../../components/form-footer';
import { generalErrorOf, type GeneralError } from '../../../lib/form-errors';
import { contractResolver } from '../../../lib/contract-resolver';
import { useSpecForm } from '../../../lib/forms';
import { useCreateFolder } from '../folders.api';
import { showFailureToast, showSuccessToast } from '../../../components/toasts';

interface FolderCreateValues {
  title: string;
  folder_id: string;
}

export type ParentChoice =
  /** The explorer creates in the active folder. */
  | { kind: 'fixed'; id: number }
  /** Pages let the admin choose the parent. */
  | { kind: 'choose'; options: readonly FolderRef[]; initialId?: number };

interface FolderCreateFormProps {
  parent: ParentChoice;
  onCreated: (folder: Folder) => void;
  onCancel?: () => void;
}

/**
 * "Ordner erstellen" / "Neuer Ordner": a name (product.md P11: at least 3 characters, no "/"). The new
 * folder takes the roles of the folder it is created in (product.md P6.2).
 */
export function FolderCreateForm({ parent, onCreated, onCancel }: FolderCreateFormProps) {
  const createFolder = useCreateFolder();
  const initialParent = parent.kind === 'fixed' ? parent.id : parent.initialId;
  const form = useSpecForm<FolderCreateValues, unknown, CreateFolderBody>({
    resolver: contractResolver(createFolderBodySchema),
    defaultValues: { title: '', folder_id: initialParent === undefined ? '' : String(initialParent) },
  });
  const [generalError, setGeneralError] = useState<GeneralError | null>(null);
  const { isSubmitting: busy } = form.formState;

  const handleSubmit = form.handleSubmit(async (body) => {
    setGeneralError(null);
    if (body.folder_id === undefined) {
      form.setError('folder_id', { message: 'Bitte einen Ordner wählen.' });
      return;
    }
    try {
      const folder = await createFolder.mutateAsync({ title: body.title, folder_id: body.folder_id });
      showSuccessToast(FOLDER_MESSAGES.created);
      onCreated(folder);
    } catch (error) {
      showFailureToast(FOLDER_MESSAGES.createFailed, error);
      const fields = parent.kind === 'choose' ? (['title', 'folder_id'] as const) : (['title'] as const);
      setGeneralError(generalErrorOf(error, FOLDER_MESSAGES.createFailed, form.setError, fields));
    }
  });

  return (
    <form onSubmit={(event) => void handleSubmit(event)} noValidate aria-label="Ordner erstellen">
      <Stack gap="md">
        {parent.kind === 'choose' ? (
          <Controller
            control={form.control}
            name="folder_id"
            render={({ field }) => (
              <FolderSelect
                label="Anlegen in"
                options={parent.options}
                {...form.controlled(field)}
                onBlur={field.onBlur}
              />
            )}
          />
        ) : null}
        <TextInput label="Name" required data-autofocus {...form.field('title')} />
        <Text size="sm" c="dimmed">
          Der neue Ordner übernimmt die Zugriffsberechtigung des Ordners, in dem er angelegt wird.
        </Text>
        <FormFooter
          busy={busy}
          generalError={generalError}
          onCancel={onCancel}
          submitIcon={<IconFolderPlus size={18} aria-hidden />}
          submitLabel="Ordner erstellen"
        />
      </Stack>
    </form>
  );
}
