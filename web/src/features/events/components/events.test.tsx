// Over 300 lines: the /events pages (create form, list, show, update) and the table filter share the event
// factory, the XMLHttpRequest upload stand-in and the date-time picker helpers.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import 'dayjs/locale/de';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { EVENT_MESSAGES, parseEventTime, type PortalEvent } from '@gremienportal/contracts/events';
import { json, mockApi, type MockHandler } from '../../../testing/fetch-mock';
import { adminUser, signIn, vertreterUser } from '../../../testing/factories';
import { renderApp } from '../../../testing/render';
import { mockUploads } from '../../../testing/upload-mock';
import { filterEvents, sortEvents, EMPTY_FILTERS } from './events-table';

const ROLES = [
  { id: 1, name: 'Admin' },
  { id: 2, name: 'Super-Admin' },
  { id: 3, name: 'Aufsichtsrat' },
  { id: 4, name: 'Vertreter' },
];

function makeEvent(overrides: Partial<PortalEvent> = {}): PortalEvent {
  const roles = overrides.roles ?? ['Vertreter'];
  return {
    id: 5,
    title: 'Vertreterversammlung',
    start: '2026-07-15T16:00:00.000Z',
    end: '2026-07-15T18:00:00.000Z',
    location: 'Stadthalle',
    description: 'Ordentliche Versammlung\nmit Wahlen',
    external: 'AbCdEfGhIjKlMnOpQrStUv',
    file_format: 'pdf',
    default_start: '2026-07-15T18:00',
    default_end: '2026-07-15T20:00',
    created_at: '2026-07-01T10:00:00.000Z',
    updated_at: '2026-07-01T10:00:00.000Z',
    my_attendance: null,
    minutes: null,
    agenda_count: 0,
    agenda_published_at: null,
    ...overrides,
    roles,
    roles_string: roles.join(', '),
  };
}

// ---------------------------------------------------------------------------------------------

const labelled = (name: string) => new RegExp(`^${name}( \\*)?$`);
const form = (name: string) => screen.getByRole('form', { name });
const field = (scope: HTMLElement, name: string) =>
  within(scope).getByRole('textbox', { name: labelled(name) });
const combobox = (scope: HTMLElement, name: string) =>
  within(scope).getByRole('combobox', { name: labelled(name) });

type User = ReturnType<typeof renderApp>['user'];

async function choose(user: User, scope: HTMLElement, box: string, option: string) {
  if (!screen.queryByRole('option', { name: option })) await user.click(combobox(scope, box));
  await user.click(await screen.findByRole('option', { name: option }));
}

/** Picks a day of the shown month and a time in the date-time picker, then confirms. */
async function pickDateTime(
  user: User,
  scope: HTMLElement,
  label: 'Beginn' | 'Ende',
  day: number,
  time: string,
) {
  await user.click(within(scope).getByRole('button', { name: labelled(label) }));
  // The picker is a dialog of its own beside the create drawer.
  const dialog = await waitFor(() => {
    const picker = screen
      .getAllByRole('dialog')
      .find((candidate) => within(candidate).queryByRole('button', { name: `${label} übernehmen` }));
    if (!picker) throw new Error(`Kein Kalender für ${label}`);
    return picker;
  });
  const dayLabel = dayjs().locale('de').date(day).format('D MMMM YYYY');
  await user.click(within(dialog).getByRole('button', { name: dayLabel }));
  const [hours, minutes] = time.split(':') as [string, string];
  await user.type(within(dialog).getByLabelText('Stunden'), hours);
  await user.type(within(dialog).getByLabelText('Minuten'), minutes);
  await user.click(within(dialog).getByRole('button', { name: `${label} übernehmen` }));
}

function eventsApi(overrides: Record<string, MockHandler | ReturnType<typeof json>> = {}) {
  return mockApi({
    'GET /api/v1/events': json(200, { data: [makeEvent()] }),
    'GET /api/v1/roles': json(200, { data: ROLES }),
    ...overrides,
  });
}

/** Opens /events and the create drawer ("Event erstellen" above the list). */
async function openEventsPage() {
  const app = renderApp('/events');
  await app.user.click(await screen.findByRole('button', { name: 'Event erstellen' }));
  await screen.findByRole('form', { name: 'Event erstellen' });
  return app;
}

beforeEach(() => {
  // Downloads end in a blob link; jsdom has no object URLs.
  URL.createObjectURL = vi.fn(() => 'blob:test');
  URL.revokeObjectURL = vi.fn();
});

describe('/events: create form (admins)', () => {
  it('shows the page heading and validates every field on submit with the contract messages', async () => {
    signIn(adminUser());
    eventsApi();
    const uploads = mockUploads(() => ({ status: 500 }));
    const { user } = await openEventsPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Übersicht Bereich Events' })).toBeInTheDocument();

    await user.click(within(form('Event erstellen')).getByRole('button', { name: 'Event erstellen' }));
    for (const message of [
      'Titel ist erforderlich.',
      'Beginn ist erforderlich.',
      'Ende ist erforderlich.',
      'Ort ist erforderlich.',
      'Beschreibung ist erforderlich.',
      EVENT_MESSAGES.rolesRequired,
    ]) {
      expect(await screen.findByText(message)).toBeInTheDocument();
    }
    expect(uploads).toHaveLength(0);
  });

  it('validates a filled title on blur (min 3 characters)', async () => {
    signIn(adminUser());
    eventsApi();
    const { user } = await openEventsPage();
    await user.type(field(form('Event erstellen'), 'Titel'), 'AB');
    await user.tab();
    expect(await screen.findByText('Titel muss mindestens 3 Zeichen lang sein.')).toBeInTheDocument();
  });

  it('limits "Benachrichtigung an" to the chosen roles and clears it when the roles change', async () => {
    signIn(adminUser());
    eventsApi();
    const { user } = await openEventsPage();
    const scope = form('Event erstellen');
    expect(combobox(scope, 'Benachrichtigung an')).toBeDisabled();

    await choose(user, scope, 'Rollen', 'Vertreter');
    await user.keyboard('{Escape}');
    await user.click(combobox(scope, 'Benachrichtigung an'));
    expect(await screen.findByRole('option', { name: 'Vertreter' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Aufsichtsrat' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('option', { name: 'Vertreter' }));
    await user.keyboard('{Escape}');
    expect(within(scope).getAllByText('Vertreter', { selector: '.mantine-Pill-label' })).toHaveLength(2);

    await choose(user, scope, 'Rollen', 'Aufsichtsrat');
    await user.keyboard('{Escape}');
    // The roles changed: the notification choice is gone, the role pills remain.
    await waitFor(() =>
      expect(within(scope).getAllByText('Vertreter', { selector: '.mantine-Pill-label' })).toHaveLength(1),
    );
    expect(within(scope).getByText('Aufsichtsrat', { selector: '.mantine-Pill-label' })).toBeInTheDocument();
  });

  it('uploads multipart with Berlin times as UTC, role ids and the file; then closes and empties the form', async () => {
    signIn(adminUser());
    const created = makeEvent({ id: 77, title: 'Sommerfest' });
    eventsApi();
    const uploads = mockUploads(() => ({ status: 201, body: { event: created } }));
    const { user } = await openEventsPage();
    const scope = form('Event erstellen');

    await user.type(field(scope, 'Titel'), 'Sommerfest');
    await pickDateTime(user, scope, 'Beginn', 15, '18:30');
    await pickDateTime(user, scope, 'Ende', 15, '22:00');
    await user.type(field(scope, 'Ort'), 'Festwiese');
    await user.type(field(scope, 'Beschreibung'), 'Grillen und Musik');
    await choose(user, scope, 'Rollen', 'Vertreter');
    await choose(user, scope, 'Rollen', 'Aufsichtsrat');
    await user.keyboard('{Escape}');
    await choose(user, scope, 'Benachrichtigung an', 'Vertreter');
    await user.keyboard('{Escape}');
    const pdf = new File(['%PDF-1.4'], 'programm.pdf', { type: 'application/pdf' });
    await user.upload(within(scope).getByLabelText('Informationsdatei', { selector: 'input' }), pdf);
    expect(within(scope).getByText(/programm\.pdf/)).toBeInTheDocument();
    await user.click(within(scope).getByRole('button', { name: 'Event erstellen' }));

    expect(await screen.findByText(EVENT_MESSAGES.created)).toBeInTheDocument();
    expect(uploads).toHaveLength(1);
    const [upload] = uploads;
    expect(upload!.method).toBe('POST');
    expect(upload!.url).toBe('/api/v1/events');
    expect(upload!.headers.authorization).toBe('Bearer test-token');
    const day = dayjs().date(15).format('YYYY-MM-DD');
    expect(upload!.body.get('title')).toBe('Sommerfest');
    expect(upload!.body.get('start')).toBe(parseEventTime(`${day}T18:30`));
    expect(upload!.body.get('end')).toBe(parseEventTime(`${day}T22:00`));
    expect(upload!.body.get('location')).toBe('Festwiese');
    expect(upload!.body.get('description')).toBe('Grillen und Musik');
    expect(upload!.body.getAll('roles')).toEqual(['4', '3']);
    expect(upload!.body.getAll('notifications')).toEqual(['4']);
    expect((upload!.body.get('file') as File).name).toBe('programm.pdf');

    // The drawer closes onto the list; opened again, the form is empty (product.md P4.2).
    await waitFor(() =>
      expect(screen.queryByRole('form', { name: 'Event erstellen' })).not.toBeInTheDocument(),
    );
    await user.click(screen.getByRole('button', { name: 'Event erstellen' }));
    const again = await screen.findByRole('form', { name: 'Event erstellen' });
    expect(field(again, 'Titel')).toHaveValue('');
    expect(field(again, 'Ort')).toHaveValue('');
    expect(within(again).queryByText(/programm\.pdf/)).not.toBeInTheDocument();
    expect(
      within(again).queryByText('Vertreter', { selector: '.mantine-Pill-label' }),
    ).not.toBeInTheDocument();
  }, 30_000);

  it('shows server field errors under the fields and the generic text for other failures', async () => {
    signIn(adminUser());
    eventsApi();
    let status = 422;
    mockUploads(() =>
      status === 422
        ? {
            status: 422,
            body: {
              message: 'Die Eingaben sind ungültig.',
              errors: {
                notifications: [EVENT_MESSAGES.notificationsOutsideRoles],
                file: ['Die Datei ist leer.'],
              },
            },
          }
        : { status: 500, body: { message: 'Ein interner Fehler ist aufgetreten.' } },
    );
    const { user } = await openEventsPage();
    const scope = form('Event erstellen');
    await user.type(field(scope, 'Titel'), 'Sommerfest');
    await pickDateTime(user, scope, 'Beginn', 15, '18:30');
    await pickDateTime(user, scope, 'Ende', 15, '22:00');
    await user.type(field(scope, 'Ort'), 'Festwiese');
    await user.type(field(scope, 'Beschreibung'), 'Grillen und Musik');
    await choose(user, scope, 'Rollen', 'Vertreter');
    await user.keyboard('{Escape}');
    await user.click(within(scope).getByRole('button', { name: 'Event erstellen' }));

    expect(await screen.findByText(EVENT_MESSAGES.notificationsOutsideRoles)).toBeInTheDocument();
    expect(screen.getByText('Die Datei ist leer.')).toBeInTheDocument();
    expect(field(scope, 'Titel')).toHaveValue('Sommerfest');

    status = 500;
    await user.click(within(scope).getByRole('button', { name: 'Event erstellen' }));
    expect(await screen.findByText(EVENT_MESSAGES.createFailed)).toBeInTheDocument();
    expect(screen.getByText('Ein interner Fehler ist aufgetreten.')).toBeInTheDocument();
  }, 30_000);

  it('explains a refused file in German', async () => {
    signIn(adminUser());
    eventsApi();
    await openEventsPage();
    const input = within(form('Event erstellen')).getByLabelText('Informationsdatei', { selector: 'input' });
    fireEvent.change(input, {
      target: { files: [new File(['MZ'], 'programm.exe', { type: 'application/x-msdownload' })] },
    });
    expect(
      await screen.findByText(
        'Dieser Dateityp ist nicht erlaubt. Erlaubt sind: PDF, DOC, DOCX, XLS, XLSX, PPT, PPTX, ODT, TXT, ' +
          'PNG, JPG, JPEG, GIF, ICO, ZIP, MP4, MOV, AVI, MKV.',
      ),
    ).toBeInTheDocument();
  });
});

describe('/events for members', () => {
  it('shows the overview without create form and without the roles filter', async () => {
    signIn(vertreterUser());
    const { requests } = eventsApi();
    renderApp('/events');
    expect(await screen.findByRole('heading', { name: 'Übersicht Bereich Events' })).toBeInTheDocument();
    expect(await screen.findByRole('textbox', { name: 'Titel enthält' })).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Event erstellen' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Event erstellen' })).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Rollen enthalten' })).not.toBeInTheDocument();
    expect(requests.some((r) => r.url === '/api/v1/roles')).toBe(false);
  });

  it('says so when the events cannot be loaded', async () => {
    signIn(vertreterUser());
    eventsApi({ 'GET /api/v1/events': json(500, { message: 'Ein interner Fehler ist aufgetreten.' }) });
    renderApp('/events');
    expect(await screen.findByText(EVENT_MESSAGES.loadFailed)).toBeInTheDocument();
  });
});

describe('/events/show/{id}', () => {
  it('shows place, times in Berlin time and the description; no roles or admin controls for members', async () => {
    signIn(vertreterUser());
    const { requests } = eventsApi({
      'GET /api/v1/events/5': json(200, { data: makeEvent() }),
      'GET /api/v1/events/5/ics': new Response('BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n', {
        status: 200,
        headers: {
          'Content-Type': 'text/calendar; charset=utf-8',
          'Content-Disposition': `attachment; filename="Vertreterversammlung.ics"`,
        },
      }),
      'GET /api/v1/info/AbCdEfGhIjKlMnOpQrStUv': new Response('%PDF-1.4', {
        status: 200,
        headers: { 'Content-Type': 'application/pdf' },
      }),
    });
    const { user } = renderApp('/events/show/5');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Vertreterversammlung' }),
    ).toBeInTheDocument();
    const entry = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling;
    expect(entry('Ort')).toHaveTextContent('Stadthalle');
    expect(entry('Beginn')).toHaveTextContent('15.07.2026, 18:00 Uhr');
    expect(entry('Ende')).toHaveTextContent('15.07.2026, 20:00 Uhr');
    expect(screen.queryByText('Rollen', { selector: 'dt' })).not.toBeInTheDocument();
    expect(screen.getByText(/Ordentliche Versammlung/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Löschen/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Bearbeiten/ })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'In Kalender übernehmen' }));
    await waitFor(() => expect(requests.some((r) => r.url === '/api/v1/events/5/ics')).toBe(true));
    const ics = requests.find((r) => r.url === '/api/v1/events/5/ics')!;
    expect(ics.headers.get('Authorization')).toBe('Bearer test-token');
    await user.click(screen.getByRole('button', { name: 'Informationsdatei herunterladen' }));
    await waitFor(() =>
      expect(requests.some((r) => r.url === '/api/v1/info/AbCdEfGhIjKlMnOpQrStUv')).toBe(true),
    );
    expect(URL.createObjectURL).toHaveBeenCalledTimes(2);
  });

  it('gives admins the roles, edit and a delete with confirmation that leads back to the list', async () => {
    signIn(adminUser());
    const { requests } = eventsApi({
      'GET /api/v1/events/5': json(200, { data: makeEvent({ roles: ['Aufsichtsrat', 'Vertreter'] }) }),
      'DELETE /api/v1/events/5': new Response(null, { status: 204 }),
    });
    const { user, router } = renderApp('/events/show/5');
    await screen.findByRole('heading', { level: 1, name: 'Vertreterversammlung' });
    expect(screen.getByText('Rollen', { selector: 'dt' }).nextElementSibling).toHaveTextContent(
      'Aufsichtsrat, Vertreter',
    );
    expect(screen.getByRole('link', { name: 'Bearbeiten' })).toHaveAttribute('href', '/events/update/5');

    await user.click(screen.getByRole('button', { name: 'Löschen' }));
    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText('Soll das Event „Vertreterversammlung“ wirklich gelöscht werden?'),
    ).toBeInTheDocument();
    expect(within(dialog).getByText(EVENT_MESSAGES.deleteToTrashWithFile)).toBeInTheDocument();
    expect(requests.some((r) => r.method === 'DELETE')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Löschen' }));

    expect(await screen.findByText(EVENT_MESSAGES.deleted)).toBeInTheDocument();
    expect(requests.some((r) => r.method === 'DELETE' && r.url === '/api/v1/events/5')).toBe(true);
    await waitFor(() => expect(router.state.location.pathname).toBe('/events'));
  });

  it('shows the delete failure banner', async () => {
    signIn(adminUser());
    eventsApi({
      'GET /api/v1/events/5': json(200, { data: makeEvent() }),
      'DELETE /api/v1/events/5': json(500, { message: 'Ein interner Fehler ist aufgetreten.' }),
    });
    const { user } = renderApp('/events/show/5');
    await screen.findByRole('heading', { level: 1, name: 'Vertreterversammlung' });
    await user.click(screen.getByRole('button', { name: 'Löschen' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Löschen' }));
    expect(await screen.findByText(EVENT_MESSAGES.deleteFailed)).toBeInTheDocument();
  });

  it('answers a hidden or unknown event with the 404 page, as documents do', async () => {
    signIn(vertreterUser());
    eventsApi({ 'GET /api/v1/events/6': json(404, { message: EVENT_MESSAGES.notFound }) });
    renderApp('/events/show/6');
    expect(await screen.findByRole('heading', { name: 'Seite wurde nicht gefunden' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Zur Startseite' })).toHaveAttribute('href', '/');
    expect(screen.queryByText('Daten konnten nicht geladen werden')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Erneut versuchen' })).not.toBeInTheDocument();
  });

  it("shows the member's answer above the facts and the Sitzungsmappe right after them", async () => {
    signIn(vertreterUser());
    eventsApi({
      'GET /api/v1/events/6': json(200, { data: makeEvent({ id: 6, agenda_count: 2 }) }),
      'GET /api/v1/events/6/agenda': json(200, { data: [] }),
    });
    renderApp('/events/show/6');
    const answer = await screen.findByRole('heading', { name: 'Ihre Antwort' });
    const sections = screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);
    // The facts (with their "Beschreibung") stand between the answer and the Sitzungsmappe.
    expect(sections.slice(0, 4)).toEqual(['Ihre Antwort', 'Beschreibung', 'Sitzungsmappe', 'Tagesordnung']);
    const place = screen.getByText('Ort');
    expect(answer.compareDocumentPosition(place) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(
      place.compareDocumentPosition(screen.getByRole('heading', { name: 'Sitzungsmappe' })) &
        Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
  });
});

describe('/events/update/{id}', () => {
  it('is prefilled, applies the update rules and goes back to /events after "Aktualisieren"', async () => {
    signIn(adminUser());
    eventsApi({ 'GET /api/v1/events/5': json(200, { data: makeEvent({ roles: ['Aufsichtsrat'] }) }) });
    const uploads = mockUploads(() => ({ status: 200, body: { event: makeEvent({ title: 'Neu' }) } }));
    const { user, router } = renderApp('/events/update/5');
    const scope = await screen.findByRole('form', { name: 'Event bearbeiten' });
    expect(field(scope, 'Titel')).toHaveValue('Vertreterversammlung');
    expect(within(scope).getByRole('button', { name: labelled('Beginn') })).toHaveTextContent(
      '15.07.2026 18:00',
    );
    expect(within(scope).getByText('Aufsichtsrat', { selector: '.mantine-Pill-label' })).toBeInTheDocument();
    expect(within(scope).queryByRole('combobox', { name: labelled('Benachrichtigung an') })).toBeNull();
    expect(
      within(scope).getByText(/Aktuelle Informationsdatei: Vertreterversammlung\.pdf/),
    ).toBeInTheDocument();

    await user.clear(field(scope, 'Ort'));
    await user.type(field(scope, 'Ort'), 'ab');
    await user.clear(field(scope, 'Beschreibung'));
    await user.type(field(scope, 'Beschreibung'), 'kurz');
    await user.click(within(scope).getByRole('button', { name: 'Aktualisieren' }));
    expect(await screen.findByText('Ort muss mindestens 3 Zeichen lang sein.')).toBeInTheDocument();
    expect(screen.getByText('Beschreibung muss mindestens 5 Zeichen lang sein.')).toBeInTheDocument();
    expect(uploads).toHaveLength(0);

    await user.type(field(scope, 'Ort'), 'c');
    await user.type(field(scope, 'Beschreibung'), ' und lang');
    await user.click(within(scope).getByRole('button', { name: 'Aktualisieren' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/events'));
    expect(uploads).toHaveLength(1);
    expect(uploads[0]!.method).toBe('PUT');
    expect(uploads[0]!.url).toBe('/api/v1/events/5');
    expect(uploads[0]!.body.get('start')).toBe('2026-07-15T16:00:00.000Z');
    expect(uploads[0]!.body.get('location')).toBe('abc');
    expect(uploads[0]!.body.getAll('roles')).toEqual(['3']);
    expect(uploads[0]!.body.get('file')).toBeNull();
  });

  it('shows "Fehler beim Aktualisieren einer Datei" when the update fails otherwise', async () => {
    signIn(adminUser());
    eventsApi({ 'GET /api/v1/events/5': json(200, { data: makeEvent() }) });
    mockUploads(() => ({
      status: 413,
      body: { message: 'Die Datei ist zu groß. Erlaubt sind höchstens 1 MB.' },
    }));
    const { user } = renderApp('/events/update/5');
    const scope = await screen.findByRole('form', { name: 'Event bearbeiten' });
    await user.click(within(scope).getByRole('button', { name: 'Aktualisieren' }));
    expect(await screen.findByText(EVENT_MESSAGES.updateFailed)).toBeInTheDocument();
    expect(screen.getByText('Die Datei ist zu groß. Erlaubt sind höchstens 1 MB.')).toBeInTheDocument();
  });

  it('is not offered to members', async () => {
    signIn(vertreterUser());
    eventsApi();
    renderApp('/events/update/5');
    expect(await screen.findByText(/Seite wurde nicht gefunden/)).toBeInTheDocument();
  });
});

describe('table filtering and sorting', () => {
  const events = [
    makeEvent({ id: 1, title: 'Zukunftswerkstatt', start: '2026-12-01T17:00:00.000Z', location: 'Saal' }),
    makeEvent({ id: 2, title: 'Ärztetag', start: '2026-07-15T16:00:00.000Z', location: 'Klinik' }),
    makeEvent({
      id: 3,
      title: 'Beirat',
      start: '2027-01-10T09:00:00.000Z',
      location: 'Saal',
      roles: ['Aufsichtsrat'],
    }),
  ];

  it('filters by what the columns show, ignoring case, with all filters together', () => {
    expect(filterEvents(events, { ...EMPTY_FILTERS, start: '15.07.2026' }).map((e) => e.id)).toEqual([2]);
    expect(filterEvents(events, { ...EMPTY_FILTERS, location: 'saal' }).map((e) => e.id)).toEqual([1, 3]);
    expect(
      filterEvents(events, { ...EMPTY_FILTERS, location: 'saal', roles_string: 'aufsicht' }).map((e) => e.id),
    ).toEqual([3]);
    expect(filterEvents(events, { ...EMPTY_FILTERS, title: 'gibt es nicht' })).toEqual([]);
  });

  it('sorts titles the German way and times by time', () => {
    expect(sortEvents(events, { columnAccessor: 'title', direction: 'asc' }).map((e) => e.title)).toEqual([
      'Ärztetag',
      'Beirat',
      'Zukunftswerkstatt',
    ]);
    expect(sortEvents(events, { columnAccessor: 'start', direction: 'desc' }).map((e) => e.id)).toEqual([
      3, 1, 2,
    ]);
  });
});
