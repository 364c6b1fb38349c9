import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { json, mockApi } from '../testing/fetch-mock';
import { adminUser, makeUser, signIn, vertreterUser } from '../testing/factories';
import { renderApp } from '../testing/render';
import { returnTarget } from './guards';

// Feature pages are stand-ins here: these tests are about routing, not about the pages.
vi.mock('./routes/files', () => ({ default: () => <h1>Seite files</h1> }));
vi.mock('./routes/old', () => ({ default: () => <h1>Seite old</h1> }));
vi.mock('./routes/file-new', () => ({ default: () => <h1>Seite file-new</h1> }));
vi.mock('./routes/file-show', () => ({ default: () => <h1>Seite file-show</h1> }));
vi.mock('./routes/file-update', () => ({ default: () => <h1>Seite file-update</h1> }));
vi.mock('./routes/folder-show', () => ({ default: () => <h1>Seite folder-show</h1> }));
vi.mock('./routes/folder-update', () => ({ default: () => <h1>Seite folder-update</h1> }));
vi.mock('./routes/events', () => ({ default: () => <h1>Seite events</h1> }));
vi.mock('./routes/event-show', () => ({ default: () => <h1>Seite event-show</h1> }));
vi.mock('./routes/event-update', () => ({ default: () => <h1>Seite event-update</h1> }));
vi.mock('./routes/users', () => ({ default: () => <h1>Seite users</h1> }));
vi.mock('./routes/user-show', () => ({ default: () => <h1>Seite user-show</h1> }));
vi.mock('./routes/user-update', () => ({ default: () => <h1>Seite user-update</h1> }));
vi.mock('./routes/audit', () => ({ default: () => <h1>Seite audit</h1> }));
vi.mock('./routes/trash', () => ({ default: () => <h1>Seite trash</h1> }));
// The page itself turns Admins who are no Super-Admin away (its own tests show that).
vi.mock('./routes/api-keys', () => ({ default: () => <h1>Seite api-keys</h1> }));

const loginAs = async (app: ReturnType<typeof renderApp>, email = 'erika@example.org') => {
  await app.user.type(await screen.findByLabelText(/E-Mail-Adresse/), email);
  await app.user.type(screen.getByLabelText(/^Passwort/, { selector: 'input' }), 'geheimes-Passwort');
  await app.user.click(screen.getByRole('button', { name: 'Einloggen' }));
};

describe('routes', () => {
  // The signed-in shell is a lazy module with most of the app behind it; loaded once here, the
  // first test that shows it does not spend its wait on a cold transform.
  beforeAll(async () => {
    await import('./layouts/app-layout');
  }, 60_000);

  it('shows the 404 text with a way back for unknown paths', async () => {
    renderApp('/gibt-es-nicht');
    expect(await screen.findByRole('heading', { name: 'Seite wurde nicht gefunden' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Zur Startseite' })).toHaveAttribute('href', '/');
  });

  it('shows the 404 page inside the signed-in frame for signed-in users', async () => {
    signIn();
    renderApp('/irgendwo/anders');
    expect(await screen.findByRole('heading', { name: 'Seite wurde nicht gefunden' })).toBeInTheDocument();
    expect(await screen.findByRole('navigation', { name: 'Hauptnavigation' })).toBeInTheDocument();
  });

  it('shows signed-out visitors of / the welcome page with the way to the login', async () => {
    const { router } = renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Willkommen im Gremienportal' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Zur Anmeldung/ })).toHaveAttribute('href', '/login');
    expect(router.state.location.pathname).toBe('/');
  });

  it('shows signed-in users the file explorer at / and /files', async () => {
    signIn();
    renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Seite files' })).toBeInTheDocument();
  });

  it.each([
    ['/files', 'Seite files'],
    ['/events', 'Seite events'],
    ['/events/show/3', 'Seite event-show'],
    ['/old', 'Seite old'],
    ['/files/show/5', 'Seite file-show'],
    ['/folders/show/2', 'Seite folder-show'],
    // product.md P3: the user view is open to signed-in users (the server limits it to their own record).
    ['/user/show/4', 'Seite user-show'],
  ])('opens %s for every signed-in user', async (path, heading) => {
    signIn(vertreterUser());
    renderApp(path);
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
  });

  it.each([
    ['/files/new', 'Seite file-new'],
    ['/files/update/5', 'Seite file-update'],
    ['/folders/update/5', 'Seite folder-update'],
    ['/events/update/3', 'Seite event-update'],
    ['/user', 'Seite users'],
    ['/user/update/4', 'Seite user-update'],
    ['/audit', 'Seite audit'],
    ['/trash', 'Seite trash'],
    ['/api-keys', 'Seite api-keys'],
  ])(
    'opens the admin function %s for admins and shows the 404 page to everybody else',
    async (path, heading) => {
      signIn(adminUser());
      const admin = renderApp(path);
      expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
      admin.unmount();

      window.localStorage.clear();
      signIn(vertreterUser());
      const { router } = renderApp(path);
      expect(await screen.findByRole('heading', { name: 'Seite wurde nicht gefunden' })).toBeInTheDocument();
      expect(screen.queryByRole('heading', { level: 1, name: heading })).not.toBeInTheDocument();
      expect(router.state.location.pathname).toBe(path);
    },
  );

  it('redirects /user/{id} to /user/show/{id}', async () => {
    signIn(adminUser());
    const { router } = renderApp('/user/12');
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/show/12'));
  });
});

describe('route guard', () => {
  it('sends signed-out users to /login and back to where they came from after the login', async () => {
    const user = makeUser();
    mockApi({
      'POST /api/v1/auth/login': json(200, { access_token: 'tok', token_type: 'Bearer', user }),
    });
    const app = renderApp('/events/show/3?tab=info#datei');

    expect(await screen.findByRole('heading', { name: 'Einloggen' })).toBeInTheDocument();
    expect(app.router.state.location.pathname).toBe('/login');

    await loginAs(app);

    expect(await screen.findByRole('heading', { level: 1, name: 'Seite event-show' })).toBeInTheDocument();
    expect(app.router.state.location).toMatchObject({
      pathname: '/events/show/3',
      search: '?tab=info',
      hash: '#datei',
    });
  });

  it('sends signed-in users away from /login, /forgot-password and /reset-password', async () => {
    signIn();
    for (const path of ['/login', '/forgot-password', '/reset-password?id=1&token=x']) {
      const { router, unmount } = renderApp(path);
      await waitFor(() => expect(router.state.location.pathname).toBe('/'));
      unmount();
    }
  });

  it('only returns to paths inside the app', () => {
    expect(returnTarget({ from: { pathname: '/account', search: '', hash: '' } })).toBe('/account');
    expect(returnTarget({ from: { pathname: '//evil.example', search: '', hash: '' } })).toBe('/');
    expect(returnTarget({ from: { pathname: '/login', search: '', hash: '' } })).toBe('/');
    expect(returnTarget(null)).toBe('/');
  });
});

describe('sign-out', () => {
  it('a 401 on any call signs the user out, sends them to /login and back after the next login', async () => {
    const user = signIn(vertreterUser(), 'expired-token');
    mockApi({
      'GET /api/v1/account': json(401, { message: 'Bitte melden Sie sich an.' }),
      'POST /api/v1/auth/login': json(200, { access_token: 'fresh', token_type: 'Bearer', user }),
    });
    const app = renderApp('/account');

    expect(await screen.findByRole('heading', { name: 'Einloggen' })).toBeInTheDocument();
    expect(
      screen.getByText('Ihre Sitzung ist abgelaufen. Bitte melden Sie sich erneut an.'),
    ).toBeInTheDocument();
    expect(window.localStorage.getItem('access_token')).toBeNull();
    expect(window.localStorage.getItem('user')).toBeNull();

    mockApi({
      'POST /api/v1/auth/login': json(200, { access_token: 'fresh', token_type: 'Bearer', user }),
      'GET /api/v1/account': json(200, {
        data: { ...user, roles_string: 'Vertreter' },
      }),
    });
    await loginAs(app);
    expect(await screen.findByRole('button', { name: 'Aktualisieren' })).toBeInTheDocument();
    expect(app.router.state.location.pathname).toBe('/account');
    expect(
      screen.queryByText('Ihre Sitzung ist abgelaufen. Bitte melden Sie sich erneut an.'),
    ).not.toBeInTheDocument();
  });

  it('"Abmelden" ends the session on the server, clears the storage and shows the login', async () => {
    signIn(vertreterUser(), 'my-token');
    const { requests } = mockApi({ 'POST /api/v1/auth/logout': new Response(null, { status: 204 }) });
    const app = renderApp('/events');
    const nav = await screen.findByRole('navigation', { name: 'Hauptnavigation' });

    // "Abmelden" sits in the menu under the signed-in user's name (decision 124).
    await app.user.click(within(nav).getByRole('button', { name: /^Angemeldet als/ }));
    await app.user.click(await screen.findByRole('menuitem', { name: 'Abmelden' }));

    expect(await screen.findByRole('heading', { name: 'Einloggen' })).toBeInTheDocument();
    const logout = requests.find((request) => request.url === '/api/v1/auth/logout');
    expect(logout?.method).toBe('POST');
    expect(logout?.headers.get('Authorization')).toBe('Bearer my-token');
    expect(window.localStorage.getItem('access_token')).toBeNull();
    expect(window.localStorage.getItem('user')).toBeNull();
    // An explicit logout does not bring the next user back to the previous user's page.
    expect(app.router.state.location.state).toBeNull();
  });

  it('signs out locally even when the logout call fails', async () => {
    signIn();
    mockApi({ 'POST /api/v1/auth/logout': () => Promise.reject(new TypeError('offline')) });
    const app = renderApp('/events');
    const nav = await screen.findByRole('navigation', { name: 'Hauptnavigation' });
    await app.user.click(within(nav).getByRole('button', { name: /^Angemeldet als/ }));
    await app.user.click(await screen.findByRole('menuitem', { name: 'Abmelden' }));
    expect(await screen.findByRole('heading', { name: 'Einloggen' })).toBeInTheDocument();
    expect(window.localStorage.getItem('access_token')).toBeNull();
  });

  it('follows a logout in another tab', async () => {
    signIn();
    renderApp('/events');
    await screen.findByRole('heading', { name: 'Seite events' });

    act(() => {
      window.localStorage.clear();
      window.dispatchEvent(new StorageEvent('storage', { key: 'access_token' }));
    });

    expect(await screen.findByRole('heading', { name: 'Einloggen' })).toBeInTheDocument();
  });

  it('keeps the session over a reload', async () => {
    signIn(adminUser());
    const first = renderApp('/user');
    expect(await screen.findByRole('heading', { name: 'Seite users' })).toBeInTheDocument();
    first.unmount();

    renderApp('/user');
    expect(await screen.findByRole('heading', { name: 'Seite users' })).toBeInTheDocument();
  });
});
