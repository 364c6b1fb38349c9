import type { ReactNode } from 'react';
import { Button, Group } from '@mantine/core';
import type { GeneralError } from '../lib/form-errors';
import { FormError } from './form-error';

interface FormFooterProps {
  busy: boolean;
  generalError: GeneralError | null;
  /** Shows "Abbrechen" left of the submit button (forms in modals). */
  onCancel?: () => void;
  /** Another button left of the submit button, e.g. a link back. */
  secondaryAction?: ReactNode;
  submitIcon: ReactNode;
  submitLabel: ReactNode;
}

/** The general error and the buttons at the bottom of a form, the submit button rightmost. */
export function FormFooter({
  busy,
  generalError,
  onCancel,
  secondaryAction,
  submitIcon,
  submitLabel,
}: FormFooterProps) {
  return (
    <>
      <FormError title={generalError?.title} message={generalError?.messages ?? null} />
      <Group justify="flex-end" gap="sm">
        {onCancel ? (
          <Button variant="default" onClick={onCancel} disabled={busy}>
            Abbrechen
          </Button>
        ) : null}
        {secondaryAction}
        <Button type="submit" loading={busy} leftSection={submitIcon}>
          {submitLabel}
        </Button>
      </Group>
    </>
  );
}
