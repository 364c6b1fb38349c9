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
export function FolderSelect({ options, value, onChange, ...props }: FolderSelectProps) {
  return (
    <Select
      required
      searchable
      {...props}
      data={folderOptionsOf(options)}
      value={value || null}
      onChange={(next) => onChange(next ?? '')}
    />
  );
}
