import './mantine-signed-in.css';
import '@mantine/notifications/styles.css';
import '@mantine/dropzone/styles.css';
import '@mantine/dates/styles.css';
import 'mantine-datatable/styles.css';

import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { ModalsProvider } from '@mantine/modals';
import { QueryClientProvider } from '@tanstack/react-query';
import { onSignOut } from '../lib/auth';
import { queryClient } from '../lib/query-client';

// The toasts' container loads after the first paint (decision 184): a toast shown before it is
// there waits in Mantine's store and appears when it mounts.
const ToastContainer = lazy(() => import('./toast-container'));

/**
 * Providers of the signed-in part, inside the router so modal content may use links. Toasts sit
 * top-right and close after 5 seconds (product.md P2.1); German date pickers get their locale
 * where they are used (components/german-dates.tsx).
 */
export function SignedInProviders({ children }: { children: ReactNode }) {
  // Nothing one user loaded may stay in memory for the next one.
  useEffect(() => onSignOut(() => queryClient.clear()), []);
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);

  return (
    <QueryClientProvider client={queryClient}>
      <ModalsProvider labels={{ confirm: 'Bestätigen', cancel: 'Abbrechen' }}>
        {mounted ? (
          <Suspense fallback={null}>
            <ToastContainer />
          </Suspense>
        ) : null}
        {children}
      </ModalsProvider>
    </QueryClientProvider>
  );
}
