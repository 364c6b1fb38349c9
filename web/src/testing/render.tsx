import type { ReactElement, ReactNode } from 'react';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, MemoryRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { AppProviders } from '../app/providers';
import { routes } from '../app/router';
import { SignedInProviders } from '../app/signed-in-providers';

/** Renders the whole app (real routes, guards and layouts) at a path. */
export function renderApp(path = '/') {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const user = userEvent.setup();
  const result = render(
    <AppProviders mantineEnv="test">
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...result, router, user };
}

/**
 * Renders one component with the app's providers and a router around it; `signedIn` adds what
 * the signed-in part provides (queries, modals, notifications).
 */
export function renderWithProviders(
  ui: ReactElement,
  { path = '/', signedIn = false }: { path?: string; signedIn?: boolean } = {},
) {
  const user = userEvent.setup();
  const Wrapper = ({ children }: { children: ReactNode }) => (
    <AppProviders mantineEnv="test">
      <MemoryRouter initialEntries={[path]}>
        {signedIn ? <SignedInProviders>{children}</SignedInProviders> : children}
      </MemoryRouter>
    </AppProviders>
  );
  return { ...render(ui, { wrapper: Wrapper }), user };
}
