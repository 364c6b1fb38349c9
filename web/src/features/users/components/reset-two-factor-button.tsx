import { Button } from '@mantine/core';
import { IconShieldOff } from '@tabler/icons-react';
import type { User } from '@gremienportal/contracts/users';
import { openConfirmDialog } from '../../../components/confirm-dialog';
import { showFailureToast, showSuccessToast } from '../../../components/toasts';
import { useResetTwoFactor } from '../users.api';

/**
 * "Zwei-Faktor-Anmeldung zurücksetzen" for a member who lost their phone (issue 18): asks first,
 * then the server removes the factor, ends the member's sessions and mails them.
 */
export function ResetTwoFactorButton({ user }: { user: User }) {
  const reset = useResetTwoFactor(user.id);
  const name = `${user.firstname} ${user.lastname}`;
  const ask = () =>
    openConfirmDialog({
      title: 'Zwei-Faktor-Anmeldung zurücksetzen',
      message: `Authenticator-App, Passkeys und Wiederherstellungscodes von ${name} werden entfernt und alle Sitzungen beendet. ${name} erhält eine E-Mail und richtet die Zwei-Faktor-Anmeldung bei der nächsten Anmeldung neu ein.`,
      confirmLabel: 'Zurücksetzen',
      onConfirm: () =>
        reset.mutate(undefined, {
          onSuccess: () => showSuccessToast(`Die Zwei-Faktor-Anmeldung von ${name} wurde zurückgesetzt.`),
          onError: (error) =>
            showFailureToast('Die Zwei-Faktor-Anmeldung konnte nicht zurückgesetzt werden.', error),
        }),
    });
  return (
    <Button
      variant="default"
      color="red"
      leftSection={<IconShieldOff size={18} aria-hidden />}
      loading={reset.isPending}
      onClick={ask}
    >
      Zwei-Faktor-Anmeldung zurücksetzen
    </Button>
  );
}
