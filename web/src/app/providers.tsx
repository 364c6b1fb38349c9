import './mantine-public.css';
import './global.css';
import './mantine-overrides.css';

import type { ReactNode } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { MantineProvider } from '@mantine/core';
import { AuthProvider } from '../lib/auth';
import { cssVariablesResolver, theme } from './theme';

interface AppProvidersProps {
  children: ReactNode;
  /** "test" turns off transitions and portals for Testing Library. */
  mantineEnv?: 'default' | 'test';
}

/**
 * What every page needs, signed in or not. Everything only the signed-in part uses (data
 * fetching, notifications, modals, date pickers) lives in SignedInProviders, loaded with the app
 * shell, so the login page stays small.
 */
export function AppProviders({ children, mantineEnv }: AppProvidersProps) {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} env={mantineEnv}>
      <AuthProvider>{children}</AuthProvider>
    </MantineProvider>
  );
}

/** The root route's element. */
export function RootRoute() {
  return (
    <>
      <ScrollRestoration />
      <Outlet />
    </>
  );
}
