// Over 300 lines: the "Aktivitäten" page and its parts (MyLogins, VisibleToList, AccessList, search params)
// share the audit entry and page factories and the mocked API.
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import type { AuditEntry, AuditListResponse, MyLogin, VisibleUser } from '@gremienportal/contracts/audit';
import { json, mockApi, type MockHandler, type RecordedRequest } from '../../../testing/fetch-mock';
import { adminUser, signIn, vertreterUser } from '../../../testing/factories';
import { renderApp, renderWithProviders } from '../../../testing/render';
import { auditSearchParams } from '../audit.api';
import { AccessList } from './access-list';
import { MY_LOGINS_HINT, MyLogins, NO_LOGINS_MESSAGE } from './my-logins';
import { VisibleToList } from './visible-to-list';
import { splitLabel } from './audit-table';

function entry(overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    id: 1,
    at: '2026-11-21T13:30:00.000Z',
    actor_id: 1,
    actor_label: 'Anna Admin <admin@example.org>',
    action: 'auth.login',
    action_label: 'Anmeldung',
    object_type: 'user',
    object_id: 1,
    object_label: 'Anna Admin <admin@example.org>',
    details: null,
    ip: '203.0.113.7',
    ...overrides,
  };
}

const page = (data: AuditEntry[], total = data.length, perPage = 10): AuditListResponse => ({
  data,
  meta: { total, page: 1, per_page: perPage },
});

const auditRequests = (requests: RecordedRequest[], path = '/api/v1/audit?') =>
  requests.filter((r) => r.url.startsWith(path));

async function openAuditPage(routes: Record<string, MockHandler | ReturnType<typeof json>> = {}) {
  signIn(adminUser(), 'admin-token');
  const api = mockApi({ 'GET /api/v1/audit': json(200, page([entry()], 42)), ...routes });
  const app = renderApp('/audit');
  await screen.findByRole('heading', { name: 'Aktivitäten', level: 1 });
  return { ...app, ...api };
}

describe('auditSearchParams', () => {
  it('writes only the filters that are set, several actions as repeated fields', () => {
    expect(auditSearchParams({}).toString()).toBe('');
    expect(
      auditSearchParams(
        {
          q: '  Öztürk ',
          actions: ['auth.login', 'auth.login_failed'],
          objectType: 'file',
          objectId: 9,
          from: '2026-11-01',
          to: '2026-11-21',
        },
        { page: 2, perPage: 25 },
      ).toString(),
    ).toBe(
      'q=%C3%96zt%C3%BCrk&action=auth.login&action=auth.login_failed&object_type=file&object_id=9' +
        '&from=2026-11-01&to=2026-11-21&page=2&per_page=25',
    );
  });
});

describe('splitLabel', () => {
  it('splits "Name <mail>" and keeps other labels', () => {
    expect(splitLabel('Anna Admin <admin@example.org>')).toEqual({
      name: 'Anna Admin',
      email: 'admin@example.org',
    });
    expect(splitLabel('unbekannt@example.org')).toEqual({ name: 'unbekannt@example.org' });
    expect(splitLabel(null)).toEqual({ name: '–' });
  });
});

describe('/audit: the "Aktivitäten" page', () => {
  it('loads the first page with the bearer header and shows the total', async () => {
    const { requests } = await openAuditPage();
    expect(await screen.findByText('42 Einträge')).toBeInTheDocument();
    const [first] = auditRequests(requests);
    expect(first!.url).toBe('/api/v1/audit?page=1&per_page=10');
    expect(first!.headers.get('Authorization')).toBe('Bearer admin-token');
  });

  it('offers the actions with their German labels and filters by the chosen ones', async () => {
    const { requests, user } = await openAuditPage();
    await screen.findByText('42 Einträge');
    await user.click(screen.getByRole('combobox', { name: 'Aktion' }));
    expect(await screen.findByRole('option', { name: 'Passwort-Reset angefordert' })).toBeInTheDocument();
    expect(screen.getByRole('option', { name: 'Event-Datei heruntergeladen' })).toBeInTheDocument();
    await user.click(screen.getByRole('option', { name: 'Anmeldung fehlgeschlagen' }));
    await user.click(await screen.findByRole('option', { name: 'Datei heruntergeladen' }));
    await waitFor(() =>
      expect(auditRequests(requests).at(-1)!.url).toBe(
        '/api/v1/audit?action=auth.login_failed&action=file.downloaded&page=1&per_page=10',
      ),
    );
  });

  it('filters by person after a pause in typing and by object type', async () => {
    const { requests, user } = await openAuditPage();
    await screen.findByText('42 Einträge');
    await user.type(screen.getByRole('textbox', { name: 'Person' }), 'Öztürk');
    await waitFor(() =>
      expect(auditRequests(requests).at(-1)!.url).toBe('/api/v1/audit?q=%C3%96zt%C3%BCrk&page=1&per_page=10'),
    );
    // Not one request per letter (the pause is 300 ms; a slow machine may split the word once).
    expect(auditRequests(requests).filter((r) => r.url.includes('q=')).length).toBeLessThan(
      'Öztürk'.length - 2,
    );
    await user.click(screen.getByRole('combobox', { name: 'Objekttyp' }));
    await user.click(await screen.findByRole('option', { name: 'Datei' }));
    await waitFor(() => expect(auditRequests(requests).at(-1)!.url).toContain('object_type=file'));
    await user.click(screen.getByRole('button', { name: 'Filter zurücksetzen' }));
    await waitFor(() => expect(auditRequests(requests).at(-1)!.url).toBe('/api/v1/audit?page=1&per_page=10'));
  });

  it('reads the filters from the address', async () => {
    signIn(adminUser());
    const { requests } = mockApi({ 'GET /api/v1/audit': json(200, page([], 0)) });
    renderApp('/audit?action=file.viewed&object_type=file&object_id=9&from=2026-11-01&to=2026-11-21');
    await screen.findByRole('heading', { name: 'Aktivitäten', level: 1 });
    await waitFor(() =>
      expect(auditRequests(requests)[0]!.url).toBe(
        '/api/v1/audit?action=file.viewed&object_type=file&object_id=9&from=2026-11-01&to=2026-11-21&page=1&per_page=10',
      ),
    );
    expect(screen.getByText('Objekt-ID 9')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Von' })).toHaveValue('01.11.2026');
    expect(screen.getByRole('textbox', { name: 'Bis' })).toHaveValue('21.11.2026');
  });

  it('shows who can see the object when the log is filtered to one file, folder or event', async () => {
    signIn(adminUser());
    const { requests } = mockApi({
      'GET /api/v1/audit': json(200, page([], 0)),
      'GET /api/v1/audit/visible-to/folder/2': json(200, { data: [] }),
    });
    renderApp('/audit?object_type=folder&object_id=2');
    expect(await screen.findByRole('heading', { name: 'Sichtbar für' })).toBeInTheDocument();
    expect(requests.some((r) => r.url === '/api/v1/audit/visible-to/folder/2')).toBe(true);
  });

  it('does not ask for readers of other object types', async () => {
    signIn(adminUser());
    const { requests } = mockApi({ 'GET /api/v1/audit': json(200, page([], 0)) });
    renderApp('/audit?object_type=user&object_id=2');
    await screen.findByText('0 Einträge');
    expect(screen.queryByRole('heading', { name: 'Sichtbar für' })).not.toBeInTheDocument();
    expect(requests.some((r) => r.url.includes('visible-to'))).toBe(false);
  });

  it('shows the contract message for a person text that is too long and asks nothing', async () => {
    const { requests, user } = await openAuditPage();
    await screen.findByText('42 Einträge');
    const before = auditRequests(requests).length;
    const input = screen.getByRole('textbox', { name: 'Person' });
    await user.click(input);
    await user.paste('x'.repeat(101));
    expect(await screen.findByText('Der Suchtext darf höchstens 100 Zeichen lang sein.')).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(auditRequests(requests)).toHaveLength(before);
    expect(screen.getByRole('button', { name: 'CSV exportieren' })).toBeDisabled();
  });

  it('exports the CSV through the API client: bearer header, filters, no token in the address', async () => {
    // jsdom has no object URLs; the saved blob only needs one.
    const createObjectURL = vi.fn(() => 'blob:protokoll');
    const original = { create: URL.createObjectURL, revoke: URL.revokeObjectURL };
    URL.createObjectURL = createObjectURL;
    URL.revokeObjectURL = vi.fn();
    onTestFinished(() => {
      URL.createObjectURL = original.create;
      URL.revokeObjectURL = original.revoke;
    });
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const { requests, user } = await openAuditPage({
      'GET /api/v1/audit.csv': new Response('\uFEFFZeitpunkt (Europe/Berlin);Person\r\n', {
        status: 200,
        headers: {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': 'attachment; filename="protokoll-2026-11-21.csv"',
        },
      }),
    });
    await screen.findByText('42 Einträge');
    await user.click(screen.getByRole('combobox', { name: 'Aktion' }));
    await user.click(await screen.findByRole('option', { name: 'Anmeldung' }));
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'CSV exportieren' }));

    await waitFor(() => expect(clicked).toHaveBeenCalled());
    const [exportRequest] = auditRequests(requests, '/api/v1/audit.csv');
    expect(exportRequest!.url).toBe('/api/v1/audit.csv?action=auth.login');
    expect(exportRequest!.headers.get('Authorization')).toBe('Bearer admin-token');
    expect(requests.every((r) => !r.url.includes('admin-token'))).toBe(true);
    expect(createObjectURL).toHaveBeenCalled();
    const link = clicked.mock.contexts[0] as HTMLAnchorElement;
    expect(link.download).toBe('protokoll-2026-11-21.csv');
  });

  it('says so when the export fails', async () => {
    const { user } = await openAuditPage({
      'GET /api/v1/audit.csv': json(500, { message: 'Ein interner Fehler ist aufgetreten.' }),
    });
    await screen.findByText('42 Einträge');
    await user.click(screen.getByRole('button', { name: 'CSV exportieren' }));
    expect(
      await screen.findByText('Der Export ist fehlgeschlagen. Bitte versuchen Sie es erneut.'),
    ).toBeInTheDocument();
  });

  it('shows the load error with a retry', async () => {
    let calls = 0;
    const { user } = await openAuditPage({
      'GET /api/v1/audit': () => {
        calls += 1;
        return calls === 1
          ? json(500, { message: 'Ein interner Fehler ist aufgetreten.' })
          : json(200, page([], 7));
      },
    });
    expect(await screen.findByText('Daten konnten nicht geladen werden')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
    expect(await screen.findByText('7 Einträge')).toBeInTheDocument();
  });

  it('is not there for members', async () => {
    signIn(vertreterUser());
    const { requests } = mockApi({});
    renderApp('/audit');
    expect(await screen.findByRole('heading', { name: /Seite wurde nicht gefunden/ })).toBeInTheDocument();
    expect(auditRequests(requests)).toHaveLength(0);
  });
});

describe('MyLogins ("Letzte Anmeldungen")', () => {
  const logins: MyLogin[] = [
    {
      id: 3,
      at: '2026-11-21T13:30:00.000Z',
      action: 'auth.login',
      action_label: 'Anmeldung',
      ip: '203.0.113.7',
    },
    {
      id: 2,
      at: '2026-07-01T08:05:00.000Z',
      action: 'auth.login_failed',
      action_label: 'Anmeldung fehlgeschlagen',
      ip: null,
    },
  ];

  it('lists the own sign-ins with Berlin times and addresses', async () => {
    signIn(vertreterUser());
    const { requests } = mockApi({ 'GET /api/v1/audit/my-logins': json(200, { data: logins }) });
    renderWithProviders(<MyLogins />, { signedIn: true });
    expect(await screen.findByRole('heading', { name: 'Letzte Anmeldungen' })).toBeInTheDocument();
    const items = await screen.findAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('Anmeldung');
    expect(items[0]).toHaveTextContent('21.11.2026, 14:30 · Adresse 203.0.113.7');
    expect(items[1]).toHaveTextContent('Anmeldung fehlgeschlagen');
    expect(items[1]).toHaveTextContent('01.07.2026, 10:05');
    expect(screen.getByText(MY_LOGINS_HINT)).toBeInTheDocument();
    expect(requests[0]!.url).toBe('/api/v1/audit/my-logins');
  });

  it('says when there are none and when loading failed', async () => {
    signIn(vertreterUser());
    mockApi({ 'GET /api/v1/audit/my-logins': json(200, { data: [] }) });
    const { unmount } = renderWithProviders(<MyLogins />, { signedIn: true });
    expect(await screen.findByText(NO_LOGINS_MESSAGE)).toBeInTheDocument();
    unmount();
    mockApi({ 'GET /api/v1/audit/my-logins': json(500, { message: 'Fehler' }) });
    renderWithProviders(<MyLogins />, { signedIn: true });
    expect(await screen.findByText('Daten konnten nicht geladen werden')).toBeInTheDocument();
  });
});

describe('VisibleToList ("Sichtbar für")', () => {
  const person = (id: number, reason: VisibleUser['reason'], roles: string[]): VisibleUser => ({
    id,
    title: 'Frau',
    firstname: `Vorname${id}`,
    lastname: `Nachname${id}`,
    email: `p${id}@example.org`,
    roles,
    reason,
  });

  it('counts the members and the admins who can see the item', async () => {
    signIn(adminUser());
    const { requests } = mockApi({
      'GET /api/v1/audit/visible-to/file/9': json(200, {
        data: [
          person(1, 'admin', ['Admin']),
          person(2, 'roles', ['Vertreter']),
          person(3, 'roles', ['Aufsichtsrat']),
        ],
      }),
    });
    renderWithProviders(<VisibleToList type="file" id={9} />, { signedIn: true });
    expect(await screen.findByRole('heading', { name: 'Sichtbar für' })).toBeInTheDocument();
    expect(
      await screen.findByText(
        '2 Personen aus den Gremien sehen dieses Dokument, dazu 1 Person mit der Rolle Admin oder Super-Admin.',
      ),
    ).toBeInTheDocument();
    expect(requests[0]!.url).toBe('/api/v1/audit/visible-to/file/9');
  });

  it('says "1 Person … sieht" for one member, with German table texts only', async () => {
    signIn(adminUser());
    mockApi({
      'GET /api/v1/audit/visible-to/event/5': json(200, {
        data: [
          person(1, 'admin', ['Admin']),
          person(2, 'admin', ['Super-Admin']),
          person(3, 'roles', ['Vertreter']),
        ],
      }),
    });
    renderWithProviders(<VisibleToList type="event" id={5} />, { signedIn: true });
    expect(
      await screen.findByText(
        '1 Person aus den Gremien sieht dieses Event, dazu 2 Personen mit der Rolle Admin oder Super-Admin.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText('No records')).not.toBeInTheDocument();
  });

  it('says when only the office can see it', async () => {
    signIn(adminUser());
    mockApi({
      'GET /api/v1/audit/visible-to/event/4': json(200, { data: [person(1, 'admin', ['Super-Admin'])] }),
    });
    renderWithProviders(<VisibleToList type="event" id={4} />, { signedIn: true });
    expect(
      await screen.findByText(
        'Niemand außer der Geschäftsstelle: Nur Admins und Super-Admins (1 Person) sehen dieses Event.',
      ),
    ).toBeInTheDocument();
  });
});

describe('AccessList ("Zugriffe")', () => {
  it('asks for the accesses of that object, page by page', async () => {
    signIn(adminUser());
    const { requests } = mockApi({
      'GET /api/v1/audit/object/file/9': json(200, page([entry({ action: 'file.viewed' })], 1)),
    });
    renderWithProviders(<AccessList type="file" id={9} />, { signedIn: true });
    expect(await screen.findByRole('heading', { name: 'Zugriffe' })).toBeInTheDocument();
    await waitFor(() => expect(requests[0]!.url).toBe('/api/v1/audit/object/file/9?page=1&per_page=10'));
  });

  it('shows the load error', async () => {
    signIn(adminUser());
    mockApi({ 'GET /api/v1/audit/object/event/2': json(500, { message: 'Fehler' }) });
    renderWithProviders(<AccessList type="event" id={2} />, { signedIn: true });
    expect(await screen.findByText('Daten konnten nicht geladen werden')).toBeInTheDocument();
  });
});
