import type { ComponentProps, ReactNode } from 'react';
import { Button, Group } from '@mantine/core';
import { IconFolderPlus } from '@tabler/icons-react';
import type { FolderRef } from '@gremienportal/contracts/folders';
import { FormFooter } from '../../../components/form-footer';
import { FolderSelect } from '../../../components/folder-select';
import { RoleSelect } from '../../../components/role-selects';
import type { UploadProgress } from '../../../lib/api-client';
import type { GeneralError } from '../../../lib/form-errors';
import type { ControlledField } from '../../../lib/forms';
import { UploadProgressBar } from './upload-progress';

/** "Zugriffsberechtigung" of the upload and the edit form. */
export function PermissionsSelect(props: Omit<ComponentProps<typeof RoleSelect>, 'label' | 'description'>) {
  return <RoleSelect {...props} label="Zugriffsberechtigung" description="Wer das Dokument sehen darf" />;
}

/** The folder select ("Ordner", "Verschieben nach") with the optional "Neuer Ordner" button. */
export function FolderChoice({
  label,
  options,
  onNewFolder,
  ...field
}: ControlledField<string> & {
  label: string;
  options: readonly FolderRef[];
  onNewFolder?: () => void;
}) {
  const chosen = options.find((option) => String(option.id) === field.value)?.breadcrumb;
  return (
    <Group gap="xs" align="flex-end" wrap="wrap">
      <FolderSelect label={label} options={options} {...field} style={{ flex: '1 1 240px', minWidth: 0 }} />
      {onNewFolder ? (
        <Button
          variant="default"
          leftSection={<IconFolderPlus size={18} aria-hidden />}
          disabled={field.disabled}
          onClick={onNewFolder}
          // Keeps the button on the select's line when the select shows an error or the path.
          mb={field.error ? 22 : chosen && chosen.length > 30 ? 24 : 0}
        >
          Neuer Ordner
        </Button>
      ) : null}
    </Group>
  );
}

/** Progress, general error and the buttons under the upload and the edit form. */
export function FileFormFooter({
  busy,
  progress,
  generalError,
  secondaryAction,
  submitIcon,
  submitLabel,
}: {
  busy: boolean;
  progress: UploadProgress | null;
  generalError: GeneralError | null;
  secondaryAction?: ReactNode;
  submitIcon: ReactNode;
  submitLabel: string;
}) {
  return (
    <>
      {busy && progress ? <UploadProgressBar progress={progress} /> : null}
      <FormFooter
        busy={busy}
        generalError={generalError}
        secondaryAction={secondaryAction}
        submitIcon={submitIcon}
        submitLabel={submitLabel}
      />
    </>
  );
}
