import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { API_KEY_MESSAGES, type ApiKey } from '@gremienportal/contracts/api-keys';
import { json, mockApi, type MockHandler, type RecordedRequest } from '../../../testing/fetch-mock';
import { adminUser, signIn } from '../../../testing/factories';
import { onDesktop } from '../../../testing/media';
import { renderApp } from '../../../testing/render';
import { COPIED_TEXT, SHOWN_ONCE_TEXT } from './new-api-key-token';

const TOKEN = 'gpk_Zm9vYmFyLWJlaXNwaWVsLXNjaGx1ZXNzZWwtMTIzNDU2Nzg5MA';

function apiKey(overrides: Partial<ApiKey> = {}): ApiKey {
  return {
    id: 5,
    name: 'Import Mitgliederverwaltung',
    scopes: ['nutzer:lesen', 'nutzer:schreiben'],
    issued_by: 'Portal Administrator <admin@example.org>',
    created_at: '2026-11-21T13:30:00.000Z',
    expires_at: '2099-11-21T13:30:00.000Z',
    last_used_at: '2026-11-24T07:05:00.000Z',
    ...overrides,
  };
}

const EXPIRED_KEY = apiKey({
  id: 3,
  name: 'Archiv 2024',
  scopes: ['inhalte:lesen'],
  created_at: '2024-01-10T09:00:00.000Z',
  expires_at: '2025-01-09T09:00:00.000Z',
  last_used_at: null,
});

const superAdmin = () => adminUser({ id: 1, roles: ['Super-Admin'] });

const listRequests = (requests: RecordedRequest[]) =>
  requests.filter((r) => r.method === 'GET' && r.url === '/api/v1/api-keys');

async function openPage(routes: Record<string, MockHandler | Response> = {}) {
  onDesktop();
  signIn(superAdmin(), 'super-token');
  const api = mockApi({ 'GET /api/v1/api-keys': json(200, { data: [apiKey(), EXPIRED_KEY] }), ...routes });
  const app = renderApp('/api-keys');
  await screen.findByRole('heading', { name: 'API-Schlüssel', level: 1 });
  return { ...app, ...api };
}

const rowOf = async (name: string) => {
  const table = await screen.findByRole('table', { name: 'API-Schlüssel' });
  const cell = await within(table).findByText(name);
  return cell.closest('tr')!;
};

/** A form field by its label (Mantine may append the required marker " *"). */
const labelled = (name: string) => new RegExp(`^${name}( \\*)?$`);

async function openForm(user: ReturnType<typeof renderApp>['user']) {
  await user.click(screen.getByRole('button', { name: 'Neuer API-Schlüssel' }));
  return screen.findByRole('form', { name: 'Neuer API-Schlüssel' });
}

describe('/api-keys: the list', () => {
  it('shows name, Berechtigungen in German, issuer, dates, expiry and last use', async () => {
    const { requests } = await openPage();
    const row = await rowOf('Import Mitgliederverwaltung');
    expect(row).toHaveTextContent('Nutzer und Rollen lesen');
    expect(row).toHaveTextContent('Nutzer anlegen, ändern, einladen und löschen');
    expect(row).toHaveTextContent('Portal Administrator');
    expect(row).toHaveTextContent('admin@example.org');
    expect(row).toHaveTextContent('21.11.2026, 14:30');
    expect(row).toHaveTextContent('21.11.2099, 14:30');
    expect(row).toHaveTextContent('24.11.2026, 08:05');
    expect(row).not.toHaveTextContent('abgelaufen');

    const expired = await rowOf('Archiv 2024');
    expect(expired).toHaveTextContent('Ordner, Dokumente, Events und Suche lesen, Dateien herunterladen');
    expect(expired).toHaveTextContent('09.01.2025, 10:00');
    expect(expired).toHaveTextContent('abgelaufen');
    expect(expired).toHaveTextContent('noch nie');

    expect(screen.getByText('2 API-Schlüssel, davon 1 abgelaufen')).toBeInTheDocument();
    expect(listRequests(requests)[0]!.headers.get('Authorization')).toBe('Bearer super-token');
  });

  it('says so when there is no key yet', async () => {
    await openPage({ 'GET /api/v1/api-keys': json(200, { data: [] }) });
    expect(await screen.findByText('Es gibt noch keine API-Schlüssel.')).toBeInTheDocument();
  });

  it('says so when the list cannot be loaded, and loads it again on request', async () => {
    let fail = true;
    const { user } = await openPage({
      'GET /api/v1/api-keys': () =>
        fail
          ? json(500, { message: 'Ein interner Fehler ist aufgetreten.' })
          : json(200, { data: [apiKey()] }),
    });
    expect(await screen.findByText('Daten konnten nicht geladen werden')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
    expect(await rowOf('Import Mitgliederverwaltung')).toBeInTheDocument();
  });
});

describe('/api-keys: "Neuer API-Schlüssel"', () => {
  it('checks the fields with the contract messages and sends nothing', async () => {
    const { user, requests } = await openPage();
    const form = await openForm(user);
    const days = within(form).getByRole('textbox', { name: labelled('Gültigkeit in Tagen') });
    expect(days).toHaveValue('365');

    await user.clear(days);
    await user.click(within(form).getByRole('button', { name: 'Schlüssel anlegen' }));
    expect(await within(form).findByText('Name ist erforderlich.')).toBeInTheDocument();
    expect(within(form).getByText(API_KEY_MESSAGES.scopesRequired)).toBeInTheDocument();
    expect(within(form).getByText(API_KEY_MESSAGES.validDays)).toBeInTheDocument();
    // The checkboxes are a group named by its legend, described by the message.
    const group = within(form).getByRole('group', { name: labelled('Berechtigungen') });
    expect(group.tagName).toBe('FIELDSET');
    expect(group).toHaveAccessibleDescription(expect.stringContaining(API_KEY_MESSAGES.scopesRequired));

    await user.type(within(form).getByRole('textbox', { name: labelled('Name') }), 'AB');
    await user.type(days, '731');
    await user.click(within(form).getByRole('button', { name: 'Schlüssel anlegen' }));
    expect(await within(form).findByText('Name muss mindestens 3 Zeichen lang sein.')).toBeInTheDocument();
    expect(within(form).getByText(API_KEY_MESSAGES.validDays)).toBeInTheDocument();
    expect(requests.some((r) => r.method === 'POST')).toBe(false);
  });

  it('creates the key, shows its token once with "Kopieren" and the header to send, and reloads the list', async () => {
    const created = apiKey({
      id: 9,
      name: 'Archivsystem',
      scopes: ['inhalte:lesen', 'protokoll:lesen'],
      created_at: new Date().toISOString(),
      last_used_at: null,
    });
    const { user, requests } = await openPage({
      'POST /api/v1/api-keys': json(201, {
        message: API_KEY_MESSAGES.created,
        data: { ...created, token: TOKEN },
      }),
    });
    await rowOf('Import Mitgliederverwaltung');
    const before = listRequests(requests).length;
    const form = await openForm(user);

    await user.type(within(form).getByRole('textbox', { name: labelled('Name') }), 'Archivsystem');
    // Ticked in another order than the contract's: sent in the contract's order.
    await user.click(within(form).getByRole('checkbox', { name: 'Aktivitäten lesen und exportieren' }));
    await user.click(
      within(form).getByRole('checkbox', {
        name: 'Ordner, Dokumente, Events und Suche lesen, Dateien herunterladen',
      }),
    );
    const days = within(form).getByRole('textbox', { name: labelled('Gültigkeit in Tagen') });
    await user.clear(days);
    await user.type(days, '90');
    await user.click(within(form).getByRole('button', { name: 'Schlüssel anlegen' }));

    const box = await screen.findByRole('region', { name: 'Neuer API-Schlüssel „Archivsystem“' });
    expect(requests.find((r) => r.method === 'POST')!.body).toEqual({
      name: 'Archivsystem',
      scopes: ['inhalte:lesen', 'protokoll:lesen'],
      valid_days: 90,
    });
    await waitFor(() =>
      expect(screen.queryByRole('form', { name: 'Neuer API-Schlüssel' })).not.toBeInTheDocument(),
    );
    await waitFor(() =>
      expect(within(box).getByRole('heading', { name: 'Neuer API-Schlüssel „Archivsystem“' })).toHaveFocus(),
    );
    const field = within(box).getByRole('textbox', { name: 'Schlüssel' });
    expect(field).toHaveValue(TOKEN);
    expect(field).toHaveAttribute('readonly');
    expect(box).toHaveTextContent(SHOWN_ONCE_TEXT);
    expect(box).toHaveTextContent('Authorization: Bearer gpk_…');
    await waitFor(() => expect(listRequests(requests).length).toBeGreaterThan(before));

    await user.click(within(box).getByRole('button', { name: 'Kopieren' }));
    expect(await within(box).findByText(COPIED_TEXT)).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(TOKEN);

    await user.click(within(box).getByRole('button', { name: 'Ich habe den Schlüssel sicher aufbewahrt' }));
    expect(screen.queryByRole('region', { name: /Neuer API-Schlüssel/ })).not.toBeInTheDocument();
    expect(screen.queryByDisplayValue(TOKEN)).not.toBeInTheDocument();
    expect(document.body).not.toHaveTextContent(TOKEN);
  });

  it('puts the server field messages under the fields and keeps the input', async () => {
    const { user } = await openPage({
      'POST /api/v1/api-keys': json(422, {
        message: 'Die Eingaben sind ungültig.',
        errors: {
          name: ['Name mischt Buchstaben verschiedener Schriften (z. B. lateinisch und kyrillisch).'],
          'scopes.0': [API_KEY_MESSAGES.scopeInvalid],
        },
      }),
    });
    const form = await openForm(user);
    const name = within(form).getByRole('textbox', { name: labelled('Name') });
    await user.type(name, 'Import');
    await user.click(within(form).getByRole('checkbox', { name: 'Nutzer und Rollen lesen' }));
    await user.click(within(form).getByRole('button', { name: 'Schlüssel anlegen' }));

    expect(
      await within(form).findByText(
        'Name mischt Buchstaben verschiedener Schriften (z. B. lateinisch und kyrillisch).',
      ),
    ).toBeInTheDocument();
    expect(name).toHaveAttribute('aria-invalid', 'true');
    // "scopes.0" belongs to the Berechtigungen, not to a general alert.
    expect(within(form).getByRole('group', { name: labelled('Berechtigungen') })).toHaveAccessibleDescription(
      expect.stringContaining(API_KEY_MESSAGES.scopeInvalid),
    );
    expect(within(form).queryByRole('alert')).not.toBeInTheDocument();
    expect(name).toHaveValue('Import');
    expect(screen.queryByRole('region', { name: /Neuer API-Schlüssel/ })).not.toBeInTheDocument();
  });
});

describe('/api-keys: "Widerrufen"', () => {
  it('asks first, naming the key, then revokes it and reloads the list', async () => {
    const { user, requests } = await openPage({
      'DELETE /api/v1/api-keys/5': new Response(null, { status: 204 }),
    });
    const row = await rowOf('Import Mitgliederverwaltung');
    const before = listRequests(requests).length;
    await user.click(
      within(row).getByRole('button', { name: 'API-Schlüssel „Import Mitgliederverwaltung“ widerrufen' }),
    );

    const dialog = await screen.findByRole('dialog', { name: 'API-Schlüssel widerrufen' });
    expect(dialog).toHaveTextContent(
      'Soll der API-Schlüssel „Import Mitgliederverwaltung“ wirklich widerrufen werden?',
    );
    expect(requests.some((r) => r.method === 'DELETE')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Widerrufen' }));

    expect(
      await screen.findByText('API-Schlüssel „Import Mitgliederverwaltung“ widerrufen.'),
    ).toBeInTheDocument();
    expect(requests.some((r) => r.method === 'DELETE' && r.url === '/api/v1/api-keys/5')).toBe(true);
    await waitFor(() => expect(listRequests(requests).length).toBeGreaterThan(before));
  });

  it('keeps the key when the question is cancelled', async () => {
    const { user, requests } = await openPage();
    const row = await rowOf('Archiv 2024');
    await user.click(within(row).getByRole('button', { name: 'API-Schlüssel „Archiv 2024“ widerrufen' }));
    const dialog = await screen.findByRole('dialog', { name: 'API-Schlüssel widerrufen' });
    await user.click(within(dialog).getByRole('button', { name: 'Abbrechen' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(requests.some((r) => r.method === 'DELETE')).toBe(false);
  });

  it('says why when the server refuses', async () => {
    const { user } = await openPage({
      'DELETE /api/v1/api-keys/3': json(404, { message: API_KEY_MESSAGES.notFound }),
    });
    const row = await rowOf('Archiv 2024');
    await user.click(within(row).getByRole('button', { name: 'API-Schlüssel „Archiv 2024“ widerrufen' }));
    const dialog = await screen.findByRole('dialog', { name: 'API-Schlüssel widerrufen' });
    await user.click(within(dialog).getByRole('button', { name: 'Widerrufen' }));
    expect(await screen.findByText(API_KEY_MESSAGES.notFound)).toBeInTheDocument();
    expect(screen.getByText('Der API-Schlüssel konnte nicht widerrufen werden.')).toBeInTheDocument();
  });
});

describe('/api-keys for Admins', () => {
  it('is neither linked nor shown to an Admin who is no Super-Admin', async () => {
    signIn(adminUser({ id: 2, roles: ['Admin'] }));
    const { requests } = mockApi({
      'GET /api/v1/api-keys': json(403, { message: API_KEY_MESSAGES.superAdminOnly }),
    });
    renderApp('/api-keys');
    expect(await screen.findByRole('heading', { name: 'Seite wurde nicht gefunden' })).toBeInTheDocument();
    const nav = await screen.findByRole('navigation', { name: 'Hauptnavigation' });
    expect(within(nav).getByRole('link', { name: 'Papierkorb' })).toBeInTheDocument();
    expect(within(nav).queryByRole('link', { name: 'API-Schlüssel' })).not.toBeInTheDocument();
    expect(listRequests(requests)).toHaveLength(0);
  });

  it('is linked in the navigation for a Super-Admin', async () => {
    await openPage();
    const nav = await screen.findByRole('navigation', { name: 'Hauptnavigation' });
    expect(within(nav).getByRole('link', { name: 'API-Schlüssel' })).toHaveAttribute('href', '/api-keys');
    expect(within(nav).getByRole('link', { name: 'API-Schlüssel' })).toHaveAttribute('aria-current', 'page');
  });
});
