import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { forgetLegalLinks } from '../../lib/legal-links';
import { json, mockApi } from '../../testing/fetch-mock';
import { adminUser, signIn, vertreterUser } from '../../testing/factories';
import { renderApp } from '../../testing/render';

// Feature pages are stand-ins here: these tests are about routing, not about the pages.
vi.mock('../routes/files', () => ({ default: () => <h1>Seite files</h1> }));
vi.mock('../routes/old', () => ({ default: () => <h1>Seite old</h1> }));
vi.mock('../routes/file-new', () => ({ default: () => <h1>Seite file-new</h1> }));
vi.mock('../routes/file-show', () => ({ default: () => <h1>Seite file-show</h1> }));
vi.mock('../routes/file-update', () => ({ default: () => <h1>Seite file-update</h1> }));
vi.mock('../routes/folder-show', () => ({ default: () => <h1>Seite folder-show</h1> }));
vi.mock('../routes/folder-update', () => ({ default: () => <h1>Seite folder-update</h1> }));
vi.mock('../routes/events', () => ({ default: () => <h1>Seite events</h1> }));
vi.mock('../routes/event-show', () => ({ default: () => <h1>Seite event-show</h1> }));
vi.mock('../routes/event-update', () => ({ default: () => <h1>Seite event-update</h1> }));
vi.mock('../routes/users', () => ({ default: () => <h1>Seite users</h1> }));
vi.mock('../routes/user-show', () => ({ default: () => <h1>Seite user-show</h1> }));
vi.mock('../routes/user-update', () => ({ default: () => <h1>Seite user-update</h1> }));
vi.mock('../routes/audit', () => ({ default: () => <h1>Seite audit</h1> }));
vi.mock('../routes/trash', () => ({ default: () => <h1>Seite trash</h1> }));
vi.mock('../routes/api-keys', () => ({ default: () => <h1>Seite api-keys</h1> }));
vi.mock('../routes/committees', () => ({ default: () => <h1>Seite committees</h1> }));
vi.mock('../routes/committee-show', () => ({ default: () => <h1>Seite committee-show</h1> }));
vi.mock('../routes/resolutions', () => ({ default: () => <h1>Seite resolutions</h1> }));
vi.mock('../routes/motion-show', () => ({ default: () => <h1>Seite motion-show</h1> }));

const settings = {
  imprint_url: 'https://www.example.org/impressum',
  privacy_url: 'https://www.example.org/datenschutz',
  contacts: { Aufsichtsrat: 'ar@example.org', Vertreter: 'vertreter@example.org' },
};

const linkNames = (container: HTMLElement) =>
  within(container)
    .getAllByRole('link')
    .map((link) => link.textContent);

describe('app layout', () => {
  beforeEach(forgetLegalLinks);

  it('shows admins every area, and who is signed in with the account and the logout', async () => {
    signIn(adminUser());
    const { user } = renderApp('/events');
    const nav = await screen.findByRole('navigation', { name: 'Hauptnavigation' });

    expect(linkNames(nav)).toEqual([
      'Dateien',
      'Events',
      'Gremien',
      'Beschlüsse',
      'Nutzerverwaltung',
      'Aktivitäten',
      'Papierkorb',
    ]);
    expect(screen.getByRole('link', { name: 'Gremienportal' })).toHaveAttribute('href', '/');

    // The name opens Accountverwaltung and Abmelden (decision 124).
    await user.click(within(nav).getByRole('button', { name: 'Angemeldet als Anna Admin' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'Accountverwaltung' })).toHaveAttribute(
      'href',
      '/account',
    );
    expect(within(menu).getByRole('menuitem', { name: 'Abmelden' })).toBeInTheDocument();
  });

  it('adds the API-Schlüssel for Super-Admins, in the header and in the burger menu', async () => {
    signIn(adminUser({ roles: ['Super-Admin'] }));
    const { user } = renderApp('/api-keys');
    const nav = await screen.findByRole('navigation', { name: 'Hauptnavigation' });

    expect(linkNames(nav)).toEqual([
      'Dateien',
      'Events',
      'Gremien',
      'Beschlüsse',
      'Nutzerverwaltung',
      'Aktivitäten',
      'Papierkorb',
      'API-Schlüssel',
    ]);
    expect(within(nav).getByRole('link', { name: 'API-Schlüssel' })).toHaveAttribute('aria-current', 'page');

    await user.click(screen.getByRole('button', { name: 'Menü öffnen' }));
    const drawer = await screen.findByRole('dialog', { name: 'Menü' });
    expect(within(drawer).getByRole('link', { name: 'API-Schlüssel' })).toHaveAttribute('href', '/api-keys');
  });

  it('hides the user administration, the audit log and the Papierkorb from other roles', async () => {
    signIn(vertreterUser());
    renderApp('/events');
    const nav = await screen.findByRole('navigation', { name: 'Hauptnavigation' });

    expect(linkNames(nav)).toEqual(['Dateien', 'Events', 'Gremien', 'Beschlüsse']);
    expect(within(nav).getByRole('button', { name: /^Angemeldet als/ })).toBeInTheDocument();
  });

  it('marks the current area', async () => {
    signIn(vertreterUser());
    renderApp('/events/show/4');
    const nav = await screen.findByRole('navigation', { name: 'Hauptnavigation' });
    expect(within(nav).getByRole('link', { name: 'Events' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Dateien' })).not.toHaveAttribute('aria-current');
  });

  it('marks Gremien on a committee page', async () => {
    signIn(vertreterUser());
    renderApp('/gremien/3');
    const nav = await screen.findByRole('navigation', { name: 'Hauptnavigation' });
    expect(await screen.findByRole('heading', { name: 'Seite committee-show' })).toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: 'Gremien' })).toHaveAttribute('aria-current', 'page');
  });

  it('marks Beschlüsse on a motion page', async () => {
    signIn(vertreterUser());
    renderApp('/beschluesse/vorlagen/3');
    const nav = await screen.findByRole('navigation', { name: 'Hauptnavigation' });
    expect(await screen.findByRole('heading', { name: 'Seite motion-show' })).toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: 'Beschlüsse' })).toHaveAttribute('aria-current', 'page');
  });

  it('lists the same entries in the burger menu', async () => {
    signIn(adminUser());
    const { user } = renderApp('/account');
    const burger = await screen.findByRole('button', { name: 'Menü öffnen' });
    expect(burger).toHaveAttribute('aria-expanded', 'false');

    await user.click(burger);

    const drawer = await screen.findByRole('dialog', { name: 'Menü' });
    expect(linkNames(drawer)).toEqual([
      'Dateien',
      'Events',
      'Gremien',
      'Beschlüsse',
      'Nutzerverwaltung',
      'Aktivitäten',
      'Papierkorb',
      'Accountverwaltung',
    ]);
    expect(within(drawer).getByRole('button', { name: 'Abmelden' })).toBeInTheDocument();
    expect(within(drawer).getByText('Angemeldet als Anna Admin')).toBeInTheDocument();

    await user.click(within(drawer).getByRole('link', { name: 'Events' }));
    expect(await screen.findByRole('heading', { name: 'Seite events' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Menü' })).not.toBeInTheDocument());
  });

  it('offers a skip link to the main content', async () => {
    signIn();
    const { user } = renderApp('/events');
    await screen.findByRole('heading', { name: 'Seite events' });

    const skip = screen.getByRole('link', { name: 'Zum Inhalt springen' });
    await user.click(skip);
    expect(screen.getByRole('main')).toHaveFocus();
  });

  it('shows imprint and privacy links from the settings in the footer', async () => {
    signIn();
    mockApi({ 'GET /api/v1/settings': json(200, { data: settings }) });
    renderApp('/events');

    const footer = await screen.findByRole('contentinfo');
    expect(await within(footer).findByRole('link', { name: 'Impressum' })).toHaveAttribute(
      'href',
      settings.imprint_url,
    );
    expect(within(footer).getByRole('link', { name: 'Datenschutz' })).toHaveAttribute(
      'href',
      settings.privacy_url,
    );
  });

  it('keeps the footer without links while the settings cannot be loaded', async () => {
    signIn();
    mockApi({ 'GET /api/v1/settings': json(404, { message: 'Nicht gefunden.' }) });
    renderApp('/events');

    const footer = await screen.findByRole('contentinfo');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(within(footer).queryByRole('link')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Seite events' })).toBeInTheDocument();
  });

  it('ignores settings links that are not web addresses', async () => {
    signIn();
    mockApi({
      'GET /api/v1/settings': json(200, { data: { ...settings, imprint_url: 'javascript:alert(1)' } }),
    });
    renderApp('/events');
    const footer = await screen.findByRole('contentinfo');
    expect(await within(footer).findByRole('link', { name: 'Datenschutz' })).toBeInTheDocument();
    expect(within(footer).queryByRole('link', { name: 'Impressum' })).not.toBeInTheDocument();
  });

  it('shows imprint and privacy links on the signed-out pages too (decision 124)', async () => {
    mockApi({ 'GET /api/v1/legal-links': json(200, { data: settings }) });
    renderApp('/login');
    await screen.findByRole('heading', { name: 'Einloggen' });

    const footer = screen.getByRole('contentinfo');
    expect(await within(footer).findByRole('link', { name: 'Impressum' })).toHaveAttribute(
      'href',
      settings.imprint_url,
    );
    expect(within(footer).getByRole('link', { name: 'Datenschutz' })).toHaveAttribute(
      'href',
      settings.privacy_url,
    );
  });

  it('keeps the signed-out footer without links when the links cannot be loaded', async () => {
    mockApi({ 'GET /api/v1/legal-links': json(401, { message: 'Bitte melden Sie sich an.' }) });
    renderApp('/forgot-password');
    await screen.findByRole('heading', { name: 'Passwort zurücksetzen' });

    const footer = screen.getByRole('contentinfo');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(within(footer).queryByRole('link')).not.toBeInTheDocument();
    expect(
      screen.queryByText('Ihre Sitzung ist abgelaufen. Bitte melden Sie sich erneut an.'),
    ).not.toBeInTheDocument();
  });
});
