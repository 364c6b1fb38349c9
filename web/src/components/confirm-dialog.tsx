import type { ReactNode } from 'react';
import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';

export interface ConfirmDialogOptions {
  title: string;
  message: ReactNode;
  /** @default "Löschen" */
  confirmLabel?: string;
  /** @default "Abbrechen" */
  cancelLabel?: string;
  /** A red confirm button for destructive actions. @default true */
  danger?: boolean;
  onConfirm: () => void;
  onCancel?: () => void;
}

/** Asks before something irreversible; the confirm button says what happens ("Löschen"). */
export function openConfirmDialog({
  title,
  message,
  confirmLabel = 'Löschen',
  cancelLabel = 'Abbrechen',
  danger = true,
  onConfirm,
  onCancel,
}: ConfirmDialogOptions): string {
  return modals.openConfirmModal({
    title,
    centered: true,
    children: typeof message === 'string' ? <Text>{message}</Text> : message,
    labels: { confirm: confirmLabel, cancel: cancelLabel },
    confirmProps: danger ? { color: 'red' } : {},
    onConfirm,
    onCancel,
  });
}
