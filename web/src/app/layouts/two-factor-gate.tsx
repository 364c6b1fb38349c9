import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { notifications } from '@mantine/notifications';
import { setTwoFactorSetupHandler } from '../../lib/api-client';

const NOTICE_ID = 'two-factor-setup-required';

/**
 * A member whose role requires a second factor they have not set up yet can do nothing else
 * (decision 126): whatever call the server refuses with that reason, they land on the account page,
 * where the section "Zwei-Faktor-Anmeldung" sets it up, with the server's German explanation.
 */
export function TwoFactorGate() {
  const navigate = useNavigate();
  useEffect(
    () =>
      setTwoFactorSetupHandler((message) => {
        notifications.show({
          id: NOTICE_ID,
          color: 'yellow',
          title: 'Zwei-Faktor-Anmeldung einrichten',
          message,
        });
        void navigate('/account#zwei-faktor', { replace: true });
      }),
    [navigate],
  );
  return null;
}
