import { useEffect, useState } from 'react';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, Link, Outlet } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { describe, expect, it } from 'vitest';
import { PageTitle } from '../../components/page-title';
import { AppProviders } from '../providers';
import { MainContent } from './main-content';

function Start() {
  return (
    <>
      <PageTitle>Start</PageTitle>
      <Link to="/document">Dokument öffnen</Link>
      <Link to="/later">Langsame Seite</Link>
      <Link to="/form">Formular</Link>
    </>
  );
}

/** A page whose heading comes with its data. */
function Later() {
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    const timeout = setTimeout(() => setLoaded(true), 30);
    return () => clearTimeout(timeout);
  }, []);
  return loaded ? <PageTitle>Später da</PageTitle> : <p>Wird geladen …</p>;
}

function renderLayout() {
  const router = createMemoryRouter(
    [
      {
        element: (
          <>
            <nav aria-label="Navigation">
              <Link to="/">Zur Startseite</Link>
            </nav>
            <MainContent>
              <Outlet />
            </MainContent>
          </>
        ),
        children: [
          { path: '/', element: <Start /> },
          { path: '/document', element: <PageTitle>Satzung 2026</PageTitle> },
          { path: '/later', element: <Later /> },
          {
            path: '/form',
            element: (
              <>
                <PageTitle>Einloggen</PageTitle>
                <input aria-label="E-Mail" autoFocus />
              </>
            ),
          },
        ],
      },
    ],
    { initialEntries: ['/'] },
  );
  const user = userEvent.setup();
  render(
    <AppProviders mantineEnv="test">
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { user };
}

describe('MainContent', () => {
  it('leaves focus alone on the first page, then moves it to the heading of every new page', async () => {
    const { user } = renderLayout();
    expect(screen.getByRole('heading', { level: 1, name: 'Start' })).toBeInTheDocument();
    expect(document.body).toHaveFocus();

    await user.click(screen.getByRole('link', { name: 'Dokument öffnen' }));
    const heading = screen.getByRole('heading', { level: 1, name: 'Satzung 2026' });
    expect(heading).toHaveFocus();
    // Reached by script, not by Tab.
    expect(heading).toHaveAttribute('tabindex', '-1');

    // The same from a link outside <main>, with the keyboard.
    screen.getByRole('link', { name: 'Zur Startseite' }).focus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('heading', { level: 1, name: 'Start' })).toHaveFocus();
  });

  it('holds focus on <main> until a loading page has its heading, never on <body>', async () => {
    const { user } = renderLayout();
    await user.click(screen.getByRole('link', { name: 'Langsame Seite' }));
    expect(screen.getByRole('main')).toHaveFocus();
    await waitFor(() => expect(screen.getByRole('heading', { level: 1, name: 'Später da' })).toHaveFocus());
  });

  it('keeps a field the new page focused itself', async () => {
    const { user } = renderLayout();
    await user.click(screen.getByRole('link', { name: 'Formular' }));
    expect(screen.getByRole('textbox', { name: 'E-Mail' })).toHaveFocus();
  });
});
