import type { CSSProperties } from 'react';
import { Select } from '@mantine/core';
import { FOLDER_MESSAGES } from '@gremienportal/contracts/file-messages';
import { folderOptionsOf } from '../lib/folder-paths';
import type { ControlledField } from '../lib/forms';

interface FolderSelectProps extends ControlledField<string> {
  label: string;
  description?: string;
  /** The folders to choose from, named by their path. */
  options: readonly { id: number; breadcrumb: string; archived?: boolean }[];
  readOnly?: boolean;
  style?: CSSProperties;
}

/**
 * A required, searchable folder choice ("Ordner", "Anlegen in", "Verschieben nach"); '' while none is
 * chosen. Every use is the target of a write, so an archived folder (decision 189) is marked and
 * cannot be chosen; the current value stays shown.
 */
export function FolderSelect({ options, value, onChange, description, ...props }: FolderSelectProps) {
  const chosen = options.find((option) => String(option.id) === value)?.breadcrumb;
  const data = folderOptionsOf(options).map((option, index) =>
    options[index]!.archived
      ? {
          ...option,
          label: `${option.label} (${FOLDER_MESSAGES.archivedBadge})`,
          disabled: option.value !== value,
        }
      : option,
  );
  return (
    <Select
      required
      searchable
      // A long path does not fit the field on a phone: it is repeated in full below it.
      description={description ?? (chosen && chosen.length > 30 ? chosen : undefined)}
      inputWrapperOrder={['label', 'input', 'description', 'error']}
      styles={{ description: { overflowWrap: 'break-word', marginTop: 4 } }}
      {...props}
      data={data}
      value={value || null}
      onChange={(next) => onChange(next ?? '')}
    />
  );
}
