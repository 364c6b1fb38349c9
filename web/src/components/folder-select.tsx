import type { CSSProperties } from 'react';
import { Select } from '@mantine/core';
import { folderOptionsOf } from '../lib/folder-paths';
import type { ControlledField } from '../lib/forms';

interface FolderSelectProps extends ControlledField<string> {
  label: string;
  description?: string;
  /** The folders to choose from, named by their path. */
  options: readonly { id: number; breadcrumb: string }[];
  style?: CSSProperties;
}

/** A required, searchable folder choice ("Ordner", "Anlegen in", "Verschieben nach"); '' while none is chosen. */
export function FolderSelect({ options, value, onChange, description, ...props }: FolderSelectProps) {
  const chosen = options.find((option) => String(option.id) === value)?.breadcrumb;
  return (
    <Select
      required
      searchable
      // A long path does not fit the field on a phone: it is repeated in full below it.
      description={description ?? (chosen && chosen.length > 30 ? chosen : undefined)}
      inputWrapperOrder={['label', 'input', 'description', 'error']}
      styles={{ description: { overflowWrap: 'break-word', marginTop: 4 } }}
      {...props}
      data={folderOptionsOf(options)}
      value={value || null}
      onChange={(next) => onChange(next ?? '')}
    />
  );
}
