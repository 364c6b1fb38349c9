// Over 300 lines: the Kommende Sitzungen, Sitzungsmappe and Protokoll tests share the meeting fixtures and upload stand-in.
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MEETING_MESSAGES } from '@gremienportal/contracts/meetings';
import { json, mockApi, type MockHandler, type MockReply } from '../../../testing/fetch-mock';
import { adminUser, signIn, vertreterUser } from '../../../testing/factories';
import { renderApp } from '../../../testing/render';
import { mockUploads } from '../../../testing/upload-mock';
import { readWithProgress } from '../meetings.api';
import { daysFromNow, makeMeeting } from './meeting-fixtures';
import { upcomingEvents } from './upcoming-meetings';

beforeEach(() => {
  URL.createObjectURL = vi.fn(() => 'blob:test');
  URL.revokeObjectURL = vi.fn();
});

const SAVED_AT = '2026-11-25T08:30:00.000Z';

describe('Kommende Sitzungen on /events', () => {
  const events = [
    makeMeeting({ id: 1, title: 'Vergangen', start: daysFromNow(-3), end: daysFromNow(-3, 2) }),
    makeMeeting({ id: 2, title: 'In drei Tagen', start: daysFromNow(3), end: daysFromNow(3, 2) }),
    makeMeeting({
      id: 3,
      title: 'Morgen',
      start: daysFromNow(1),
      end: daysFromNow(1, 2),
      my_attendance: { status: 'zugesagt', comment: 'Mit Gast', answered_at: SAVED_AT },
    }),
    makeMeeting({ id: 4, title: 'Läuft gerade', start: daysFromNow(0, -1), end: daysFromNow(0, 1) }),
    makeMeeting({ id: 5, title: 'In fünf Tagen', start: daysFromNow(5), end: daysFromNow(5, 2) }),
    makeMeeting({ id: 6, title: 'In zwei Wochen', start: daysFromNow(14), end: daysFromNow(14, 2) }),
    makeMeeting({ id: 7, title: 'In einem Monat', start: daysFromNow(30), end: daysFromNow(30, 2) }),
  ];

  it('takes the next five not yet over, earliest first', () => {
    expect(upcomingEvents(events).map((event) => event.id)).toEqual([4, 3, 2, 5, 6]);
    expect(upcomingEvents(events.slice(0, 1))).toEqual([]);
  });

  it('lists them above the table with the own answer and saves a direct Zusage or Absage', async () => {
    signIn(vertreterUser());
    const { requests } = mockApi({
      'GET /api/v1/events': json(200, { data: events }),
      'PUT /api/v1/events/3/attendance': ({ body }) =>
        json(200, { data: { ...(body as object), answered_at: SAVED_AT } }),
    });
    const { user } = renderApp('/events');
    const section = await screen.findByRole('region', { name: 'Kommende Sitzungen' });
    const items = within(section).getAllByRole('listitem');
    expect(items.map((item) => within(item).getByRole('link').textContent)).toEqual([
      'Läuft gerade',
      'Morgen',
      'In drei Tagen',
      'In fünf Tagen',
      'In zwei Wochen',
    ]);
    expect(within(items[1]!).getByRole('link')).toHaveAttribute('href', '/events/show/3');
    expect(items[1]).toHaveTextContent(/Ihre Antwort:\s*Zusage/);
    expect(items[0]).toHaveTextContent(/Ihre Antwort:\s*Keine Antwort/);
    expect(within(items[1]!).getByText(/^\w\w\., \d\d\.\d\d\.\d{4}, \d\d:\d\d Uhr$/)).toBeInTheDocument();
    const zusage = within(items[1]!).getByRole('button', { name: 'Zusage für „Morgen“' });
    expect(zusage).toHaveAttribute('aria-pressed', 'true');
    // The table below stays as it was.
    expect(screen.getByRole('heading', { level: 2, name: 'Alle Events' })).toBeInTheDocument();

    await user.click(within(items[1]!).getByRole('button', { name: 'Absage für „Morgen“' }));
    expect(await screen.findByText(MEETING_MESSAGES.attendanceSaved)).toBeInTheDocument();
    // The comment written on the event page stays.
    expect(requests.filter((r) => r.method === 'PUT')).toEqual([
      expect.objectContaining({
        url: '/api/v1/events/3/attendance',
        body: { status: 'abgesagt', comment: 'Mit Gast' },
      }),
    ]);
    await waitFor(() =>
      expect(within(items[1]!).getByRole('button', { name: 'Absage für „Morgen“' })).toHaveAttribute(
        'aria-pressed',
        'true',
      ),
    );
    expect(items[1]).toHaveTextContent(/Ihre Antwort:\s*Absage/);
  });

  it('is not there when no meeting is coming', async () => {
    signIn(vertreterUser());
    mockApi({ 'GET /api/v1/events': json(200, { data: events.slice(0, 1) }) });
    renderApp('/events');
    await screen.findByRole('heading', { level: 2, name: 'Alle Events' });
    // The table's filters show once the events have loaded, and with them the section would.
    expect(await screen.findByRole('textbox', { name: 'Titel enthält' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Kommende Sitzungen' })).not.toBeInTheDocument();
    expect(screen.queryByText('Kommende Sitzungen')).not.toBeInTheDocument();
  });
});

/** A PDF answer whose body arrives in two parts; the second waits for `release`. */
function slowBook(delayMs: number) {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const handler: MockHandler = async () => {
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(300 * 1024));
        void released.then(() => {
          controller.enqueue(new Uint8Array(200 * 1024));
          controller.close();
        });
      },
    });
    return new Response(body, {
      headers: {
        'Content-Type': 'application/pdf',
        'Content-Disposition': 'attachment; filename="Sitzungsmappe Vertreterversammlung.pdf"',
      },
    });
  };
  return { handler, release };
}

function showApi(routes: Record<string, MockHandler | MockReply>) {
  return mockApi({
    'GET /api/v1/events/5': json(200, { data: makeMeeting({ agenda_count: 3 }) }),
    ...routes,
  });
}

describe('Sitzungsmappe', () => {
  it('counts the bytes as they arrive, with the declared size', async () => {
    const response = new Response(`%PDF-1.7${'x'.repeat(2048)}`, { headers: { 'Content-Length': '2056' } });
    const seen: { received: number; total?: number }[] = [];
    const blob = await readWithProgress(response, (progress) => seen.push(progress));
    expect(seen[0]).toEqual({ received: 0, total: 2056 });
    expect(seen.at(-1)).toEqual({ received: 2056, total: 2056 });
    expect(blob.size).toBe(2056);
  });

  it('says it is being built after a second, then counts the bytes, then saves the file', async () => {
    signIn(vertreterUser(), 'member-token');
    const book = slowBook(1300);
    const { requests } = showApi({ 'GET /api/v1/events/5/book.pdf': book.handler });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const { user } = renderApp('/events/show/5');
    const section = await screen.findByRole('region', { name: 'Sitzungsmappe' });
    await user.click(within(section).getByRole('button', { name: 'Sitzungsmappe herunterladen' }));
    const status = within(section).getByRole('status');
    // Within the first second the button's spinner is all.
    expect(status).toBeEmptyDOMElement();
    await waitFor(() => expect(status).toHaveTextContent('Sitzungsmappe wird erstellt …'));
    await waitFor(() =>
      expect(status).toHaveTextContent('Sitzungsmappe wird heruntergeladen … 0,29 MB empfangen'),
    );
    expect(click).not.toHaveBeenCalled();

    book.release();
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe(
      'Sitzungsmappe Vertreterversammlung.pdf',
    );
    await waitFor(() => expect(status).toBeEmptyDOMElement());
    const request = requests.find((r) => r.url === '/api/v1/events/5/book.pdf')!;
    expect(request.headers.get('Authorization')).toBe('Bearer member-token');
  });

  it('says in German that the server is busy (503)', async () => {
    signIn(vertreterUser());
    showApi({ 'GET /api/v1/events/5/book.pdf': json(503, { message: MEETING_MESSAGES.bookBusy }) });
    const { user } = renderApp('/events/show/5');
    const section = await screen.findByRole('region', { name: 'Sitzungsmappe' });
    await user.click(within(section).getByRole('button', { name: 'Sitzungsmappe herunterladen' }));
    expect(await within(section).findByRole('alert')).toHaveTextContent(MEETING_MESSAGES.bookBusy);
  });

  it('says it failed on a server error, without its technical text', async () => {
    signIn(vertreterUser());
    showApi({
      'GET /api/v1/events/5/book.pdf': json(500, { message: 'Ein interner Fehler ist aufgetreten.' }),
    });
    const { user } = renderApp('/events/show/5');
    const section = await screen.findByRole('region', { name: 'Sitzungsmappe' });
    await user.click(within(section).getByRole('button', { name: 'Sitzungsmappe herunterladen' }));
    expect(await within(section).findByRole('alert')).toHaveTextContent(MEETING_MESSAGES.bookFailed);
  });

  it('is not offered for an event without an agenda', async () => {
    signIn(vertreterUser());
    mockApi({ 'GET /api/v1/events/5': json(200, { data: makeMeeting({ agenda_count: 0 }) }) });
    renderApp('/events/show/5');
    await screen.findByRole('region', { name: 'Ihre Antwort' });
    expect(screen.queryByRole('button', { name: 'Sitzungsmappe herunterladen' })).not.toBeInTheDocument();
  });
});

const MINUTES = {
  external: 'MiNuTeSkEy0123456789ab',
  format: 'pdf',
  size_bytes: 1_310_720,
  published_at: SAVED_AT,
};

describe('Protokoll der Sitzung', () => {
  it('lets members open and download a published Protokoll', async () => {
    signIn(vertreterUser());
    const { requests } = mockApi({
      'GET /api/v1/events/5': json(200, { data: makeMeeting({ minutes: MINUTES }) }),
      [`GET /api/v1/minutes/${MINUTES.external}`]: new Response('%PDF-1.7', {
        headers: {
          'Content-Type': 'application/pdf',
          'Content-Disposition': 'attachment; filename="Protokoll.pdf"',
        },
      }),
    });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const { user } = renderApp('/events/show/5');
    const section = await screen.findByRole('region', { name: 'Protokoll der Sitzung' });
    expect(section).toHaveTextContent('PDF-Dokument, 1,25 MB – veröffentlicht am 25.11.2026, 09:30 Uhr');
    expect(within(section).queryByRole('button', { name: 'Protokoll ersetzen' })).not.toBeInTheDocument();
    expect(within(section).queryByRole('button', { name: 'Protokoll entfernen' })).not.toBeInTheDocument();
    await user.click(within(section).getByRole('button', { name: 'Protokoll herunterladen' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('Protokoll.pdf');
    expect(requests.some((r) => r.url === `/api/v1/minutes/${MINUTES.external}`)).toBe(true);
  });

  it('shows members nothing while there is no Protokoll', async () => {
    signIn(vertreterUser());
    mockApi({ 'GET /api/v1/events/5': json(200, { data: makeMeeting() }) });
    renderApp('/events/show/5');
    await screen.findByRole('region', { name: 'Ihre Antwort' });
    expect(screen.queryByRole('region', { name: 'Protokoll der Sitzung' })).not.toBeInTheDocument();
  });

  it('lets admins upload one as part "file", asking for a file first', async () => {
    signIn(adminUser());
    let published = false;
    const past = { start: daysFromNow(-1), end: daysFromNow(-1, 2) };
    mockApi({
      'GET /api/v1/events/5': () =>
        json(200, { data: makeMeeting({ ...past, minutes: published ? MINUTES : null }) }),
    });
    const uploads = mockUploads(() => ({ status: 201, body: { data: MINUTES } }));
    const { user } = renderApp('/events/show/5');
    const section = await screen.findByRole('region', { name: 'Protokoll der Sitzung' });
    expect(within(section).getByText(/Noch kein Protokoll veröffentlicht/)).toBeInTheDocument();
    await user.click(within(section).getByRole('button', { name: 'Protokoll hochladen' }));
    expect(await within(section).findByText(MEETING_MESSAGES.minutesRequired)).toBeInTheDocument();
    expect(uploads).toHaveLength(0);

    const pdf = new File(['%PDF-1.7 Protokoll'], 'protokoll.pdf', { type: 'application/pdf' });
    await user.upload(within(section).getByLabelText('Protokoll', { selector: 'input' }), pdf);
    published = true;
    await user.click(within(section).getByRole('button', { name: 'Protokoll hochladen' }));
    expect(await screen.findByText(MEETING_MESSAGES.minutesSaved)).toBeInTheDocument();
    expect(uploads).toHaveLength(1);
    expect(uploads[0]!.method).toBe('POST');
    expect(uploads[0]!.url).toBe('/api/v1/events/5/minutes');
    expect((uploads[0]!.body.get('file') as File).name).toBe('protokoll.pdf');
    expect(await within(section).findByRole('button', { name: 'Protokoll ersetzen' })).toBeInTheDocument();
  });

  it('removes it only after the confirmation', async () => {
    signIn(adminUser());
    const { requests } = mockApi({
      'GET /api/v1/events/5': json(200, { data: makeMeeting({ minutes: MINUTES }) }),
      'DELETE /api/v1/events/5/minutes': new Response(null, { status: 204 }),
    });
    const { user } = renderApp('/events/show/5');
    const section = await screen.findByRole('region', { name: 'Protokoll der Sitzung' });
    await user.click(within(section).getByRole('button', { name: 'Protokoll entfernen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Protokoll entfernen?' });
    expect(requests.some((r) => r.method === 'DELETE')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Protokoll entfernen' }));
    expect(await screen.findByText(MEETING_MESSAGES.minutesRemoved)).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'DELETE').map((r) => r.url)).toEqual([
      '/api/v1/events/5/minutes',
    ]);
  });
});
