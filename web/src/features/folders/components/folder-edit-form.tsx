import { useState } from 'react';
import { Controller } from 'react-hook-form';
import { Stack, TextInput } from '@mantine/core';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { Role } from '@gremienportal/contracts/common';
import { updateFolderBodySchema, type Folder, type UpdateFolderBody } from '@gremienportal/contracts/folders';
import { FOLDER_MESSAGES } from '@gremienportal/contracts/file-messages';
import { ErrorState } from '../../../components/error-state';
import { FolderSelect } from '../../../components/folder-select';
import { FormFooter } from '../../../components/form-footer';
import { RoleSelect } from '../../../components/role-selects';
import { LoadingState } from '../../../components/loading-state';
import { generalErrorOf, type GeneralError } from '../../../lib/form-errors';
import { contractResolver } from '../../../lib/contract-resolver';
import { useSpecForm } from '../../../lib/forms';
import { moveTargetsQueryOptions, useUpdateFolder } from '../folders.api';
import { rolesQueryOptions } from '../../../lib/roles';
import { roleIdsOf, roleOptionsOf } from '../../../lib/role-ids';
import { showFailureToast, showSuccessToast } from '../../../components/toasts';

interface FolderEditValues {
  title: string;
  parent_id: string;
  /** Left out of the rename form: the folder keeps its roles. */
  roles?: string[];
}

export interface EditableFolder {
  id: number;
  title: string;
  parent_id: number | null;
  roles: readonly string[];
  /** An ended Amtsperiode's folder or below it (decision 189): name and place stay, roles may change. */
  archived?: boolean;
}

interface FolderEditFormProps {
  folder: EditableFolder;
  /** With "Verschieben nach" and "Zugriffsberechtigung" (explorer) or the name only (rename form). */
  variant?: 'full' | 'rename';
  onSaved: (folder: Folder) => void;
  onCancel?: () => void;
}

function FolderEditFields({
  folder,
  variant,
  roles,
  moveTargets,
  onSaved,
  onCancel,
}: Required<Pick<FolderEditFormProps, 'variant'>> &
  Omit<FolderEditFormProps, 'variant'> & {
    roles: readonly Role[];
    moveTargets: readonly { id: number; breadcrumb: string }[];
  }) {
  const updateFolder = useUpdateFolder(folder.id);
  const form = useSpecForm<FolderEditValues, unknown, UpdateFolderBody>({
    resolver: contractResolver(updateFolderBodySchema),
    defaultValues: {
      title: folder.title,
      parent_id: folder.parent_id === null ? '' : String(folder.parent_id),
      roles: variant === 'full' ? roleIdsOf(folder.roles, roles) : undefined,
    },
  });
  const [generalError, setGeneralError] = useState<GeneralError | null>(null);
  const { isSubmitting: busy } = form.formState;
  // Read-only rather than disabled: a disabled field would leave its value out of the body.
  const fixed = folder.archived === true;
  const fixedNote = fixed ? FOLDER_MESSAGES.archived : undefined;

  const handleSubmit = form.handleSubmit(async (body) => {
    setGeneralError(null);
    try {
      const saved = await updateFolder.mutateAsync(variant === 'full' ? body : { title: body.title });
      showSuccessToast(FOLDER_MESSAGES.updated);
      onSaved(saved);
    } catch (error) {
      showFailureToast(FOLDER_MESSAGES.updateFailed, error);
      const fields = variant === 'full' ? (['title', 'parent_id', 'roles'] as const) : (['title'] as const);
      setGeneralError(generalErrorOf(error, FOLDER_MESSAGES.updateFailed, form.setError, fields));
    }
  });

  return (
    <form
      onSubmit={(event) => void handleSubmit(event)}
      noValidate
      aria-label={variant === 'full' ? 'Ordner bearbeiten' : 'Ordner umbenennen'}
    >
      <Stack gap="md">
        <TextInput
          label="Name"
          required
          data-autofocus={fixed ? undefined : true}
          readOnly={fixed}
          description={fixedNote}
          {...form.field('title')}
        />
        {variant === 'full' ? (
          <>
            <Controller
              control={form.control}
              name="parent_id"
              render={({ field }) => (
                <FolderSelect
                  label="Verschieben nach"
                  description={fixedNote ?? 'Der Ordner, in dem dieser Ordner liegt'}
                  readOnly={fixed}
                  options={moveTargets}
                  {...form.controlled(field)}
                  onBlur={field.onBlur}
                />
              )}
            />
            <Controller
              control={form.control}
              name="roles"
              render={({ field }) => (
                <RoleSelect
                  label="Zugriffsberechtigung"
                  description="Wer den Ordner sehen darf"
                  data={roleOptionsOf(roles)}
                  {...form.controlled(field)}
                  value={field.value ?? []}
                />
              )}
            />
          </>
        ) : null}
        <FormFooter
          busy={busy}
          generalError={generalError}
          onCancel={onCancel}
          submitIcon={<IconDeviceFloppy size={18} aria-hidden />}
          submitLabel="Speichern"
        />
      </Stack>
    </form>
  );
}

/**
 * "Ordner bearbeiten" (product.md P3): rename, move ("Verschieben nach", from the move targets, which
 * never include the folder itself or anything below it) and its roles. The rename variant is the
 * form of /folders/update/{id}.
 */
export function FolderEditForm({ variant = 'full', ...props }: FolderEditFormProps) {
  const full = variant === 'full';
  const roles = useQuery({ ...rolesQueryOptions(), enabled: full });
  const moveTargets = useQuery({ ...moveTargetsQueryOptions(props.folder.id), enabled: full });

  if (full && (roles.isError || moveTargets.isError)) {
    return (
      <ErrorState
        onRetry={() => {
          void roles.refetch();
          void moveTargets.refetch();
        }}
      />
    );
  }
  if (full && (roles.isPending || moveTargets.isPending)) return <LoadingState />;
  return (
    <FolderEditFields
      {...props}
      variant={variant}
      roles={roles.data ?? []}
      moveTargets={moveTargets.data ?? []}
    />
  );
}
