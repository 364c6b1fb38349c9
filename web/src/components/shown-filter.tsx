import { Button, Group } from '@mantine/core';

export interface ShownOption<T extends string> {
  value: T;
  label: string;
}

interface ShownFilterProps<T extends string> {
  options: readonly ShownOption<T>[];
  value: T;
  onChange: (value: T) => void;
}

/**
 * "Anzeigen" above an admins' people list (attendance, Kenntnisnahme): one toggle button per
 * choice, the chosen one pressed.
 */
export function ShownFilter<T extends string>({ options, value, onChange }: ShownFilterProps<T>) {
  return (
    <Group gap={6} role="group" aria-label="Anzeigen">
      {options.map((option) => (
        <Button
          key={option.value}
          size="compact-sm"
          variant={value === option.value ? 'filled' : 'default'}
          aria-pressed={value === option.value}
          onClick={() => onChange(option.value)}
        >
          {option.label}
        </Button>
      ))}
    </Group>
  );
}
