import './mantine-signed-in.css';
import '@mantine/notifications/styles.css';
import '@mantine/dropzone/styles.css';
import '@mantine/dates/styles.css';
import 'mantine-datatable/styles.css';

import { useEffect, type ReactNode } from 'react';
import { DatesProvider } from '@mantine/dates';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import 'dayjs/locale/de';
import { onSignOut } from '../lib/auth';
import { queryClient } from '../lib/query-client';

/**
 * Providers of the signed-in part, inside the router so modal content may use links. Toasts sit
 * top-right and close after 5 seconds (product.md P2.1).
 */
export function SignedInProviders({ children }: { children: ReactNode }) {
  // Nothing one user loaded may stay in memory for the next one.
  useEffect(() => onSignOut(() => queryClient.clear()), []);

  return (
    <QueryClientProvider client={queryClient}>
      <DatesProvider settings={{ locale: 'de', firstDayOfWeek: 1 }}>
        <ModalsProvider labels={{ confirm: 'Bestätigen', cancel: 'Abbrechen' }}>
          <Notifications position="top-right" autoClose={5000} />
          {children}
        </ModalsProvider>
      </DatesProvider>
    </QueryClientProvider>
  );
}
