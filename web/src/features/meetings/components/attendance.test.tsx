// Over 300 lines: the member's answer (with the mail link) and the admins' list share one event and list fixture.
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MEETING_MESSAGES, type AttendanceList } from '@gremienportal/contracts/meetings';
import { json, mockApi, type MockHandler, type MockReply } from '../../../testing/fetch-mock';
import { adminUser, signIn, vertreterUser } from '../../../testing/factories';
import { renderApp } from '../../../testing/render';
import { countTexts } from './attendance-admin';
import { daysFromNow, makeEntry, makeMeeting } from './meeting-fixtures';

const SAVED_AT = '2026-11-25T08:30:00.000Z';

function eventApi(routes: Record<string, MockHandler | MockReply> = {}) {
  return mockApi({
    'GET /api/v1/events/5': json(200, { data: makeMeeting() }),
    'PUT /api/v1/events/5/attendance': ({ body }) =>
      json(200, { data: { ...(body as object), answered_at: SAVED_AT } }),
    ...routes,
  });
}

const answerSection = () => screen.getByRole('region', { name: 'Ihre Antwort' });
const puts = <T extends { method: string }>(requests: T[]) => requests.filter((r) => r.method === 'PUT');

beforeEach(() => {
  URL.createObjectURL = vi.fn(() => 'blob:test');
  URL.revokeObjectURL = vi.fn();
});

describe('Ihre Antwort on the event page', () => {
  it('saves the chosen answer with a comment and shows it with its time', async () => {
    signIn(vertreterUser());
    const { requests } = eventApi();
    const { user } = renderApp('/events/show/5');
    const section = await screen.findByRole('region', { name: 'Ihre Antwort' });
    expect(within(section).getByText('Sie haben noch nicht geantwortet.')).toBeInTheDocument();
    for (const name of ['Zusage', 'Absage', 'Vielleicht']) {
      expect(within(section).getByRole('button', { name })).toHaveAttribute('aria-pressed', 'false');
    }

    // Nothing chosen: the contract's message, no request.
    await user.click(within(section).getByRole('button', { name: 'Antwort speichern' }));
    expect(await within(section).findByText(MEETING_MESSAGES.statusRequired)).toBeInTheDocument();
    expect(puts(requests)).toHaveLength(0);

    await user.click(within(section).getByRole('button', { name: 'Vielleicht' }));
    expect(within(section).getByRole('button', { name: 'Vielleicht' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await user.type(within(section).getByRole('textbox', { name: /Kommentar/ }), 'Komme eventuell später');
    await user.click(within(section).getByRole('button', { name: 'Antwort speichern' }));

    expect(await screen.findByText(MEETING_MESSAGES.attendanceSaved)).toBeInTheDocument();
    expect(puts(requests)).toEqual([
      expect.objectContaining({
        url: '/api/v1/events/5/attendance',
        body: { status: 'vielleicht', comment: 'Komme eventuell später' },
      }),
    ]);
    expect(within(section).getByText('Gespeichert:')).toBeInTheDocument();
    expect(within(section).getByText('am 25.11.2026, 09:30 Uhr')).toBeInTheDocument();
    expect(within(section).getByText('Ihr Kommentar: Komme eventuell später')).toBeInTheDocument();
  });

  it('preselects the answer of a mail link and saves it only after the click', async () => {
    signIn(vertreterUser());
    const { requests } = eventApi();
    const { user, router } = renderApp('/events/show/5?antwort=zugesagt');
    const section = await screen.findByRole('region', { name: 'Ihre Antwort' });
    expect(within(section).getByRole('button', { name: 'Zusage' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(section).getByText('Zusage speichern?')).toBeInTheDocument();
    // Opening the link saved nothing (no action on a GET).
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(puts(requests)).toHaveLength(0);

    await user.click(within(section).getByRole('button', { name: 'Zusage speichern' }));
    await waitFor(() => expect(puts(requests)).toHaveLength(1));
    expect(puts(requests)[0]!.body).toEqual({ status: 'zugesagt', comment: '' });
    await waitFor(() => expect(within(section).queryByText('Zusage speichern?')).not.toBeInTheDocument());
    // Reloading the page must not ask again.
    expect(router.state.location.search).toBe('');
    expect(within(section).getByRole('button', { name: 'Antwort speichern' })).toBeInTheDocument();
  });

  it('does not ask when the link answer is already saved', async () => {
    signIn(vertreterUser());
    eventApi({
      'GET /api/v1/events/5': json(200, {
        data: makeMeeting({ my_attendance: { status: 'zugesagt', comment: '', answered_at: SAVED_AT } }),
      }),
    });
    renderApp('/events/show/5?antwort=zugesagt');
    const section = await screen.findByRole('region', { name: 'Ihre Antwort' });
    expect(within(section).queryByText('Zusage speichern?')).not.toBeInTheDocument();
    expect(within(section).getByText('Gespeichert:')).toBeInTheDocument();
    expect(within(section).getByRole('button', { name: 'Zusage' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('ignores a link value that is no answer', async () => {
    signIn(vertreterUser());
    eventApi();
    renderApp('/events/show/5?antwort=%3Cscript%3E');
    const section = await screen.findByRole('region', { name: 'Ihre Antwort' });
    expect(within(section).getByText('Sie haben noch nicht geantwortet.')).toBeInTheDocument();
    expect(within(section).queryByText(/speichern\?$/)).not.toBeInTheDocument();
    for (const name of ['Zusage', 'Absage', 'Vielleicht']) {
      expect(within(section).getByRole('button', { name })).toHaveAttribute('aria-pressed', 'false');
    }
  });

  it('says when the meeting is over and still takes an answer', async () => {
    signIn(vertreterUser());
    const { requests } = eventApi({
      'GET /api/v1/events/5': json(200, {
        data: makeMeeting({ start: daysFromNow(-2), end: daysFromNow(-2, 2) }),
      }),
    });
    const { user } = renderApp('/events/show/5');
    await screen.findByRole('region', { name: 'Ihre Antwort' });
    expect(within(answerSection()).getByText(/Die Sitzung ist bereits vorbei/)).toBeInTheDocument();
    await user.click(within(answerSection()).getByRole('button', { name: 'Absage' }));
    await user.click(within(answerSection()).getByRole('button', { name: 'Antwort speichern' }));
    await waitFor(() => expect(puts(requests)).toHaveLength(1));
  });

  it('shows the server message when the answer cannot be saved', async () => {
    signIn(vertreterUser());
    eventApi({
      'PUT /api/v1/events/5/attendance': json(422, {
        message: 'Die Eingaben sind ungültig.',
        errors: { comment: ['Kommentar darf höchstens 500 Zeichen lang sein.'] },
      }),
    });
    const { user } = renderApp('/events/show/5');
    const section = await screen.findByRole('region', { name: 'Ihre Antwort' });
    await user.click(within(section).getByRole('button', { name: 'Zusage' }));
    await user.click(within(section).getByRole('button', { name: 'Antwort speichern' }));
    expect(
      await within(section).findByText('Kommentar darf höchstens 500 Zeichen lang sein.'),
    ).toBeInTheDocument();
  });

  it('offers no attendance list to members', async () => {
    signIn(vertreterUser());
    const { requests } = eventApi();
    renderApp('/events/show/5');
    await screen.findByRole('region', { name: 'Ihre Antwort' });
    expect(screen.queryByRole('region', { name: 'Teilnahme' })).not.toBeInTheDocument();
    expect(requests.some((r) => r.url.startsWith('/api/v1/events/5/attendance'))).toBe(false);
  });
});

function attendanceList(overrides: Partial<AttendanceList> = {}): AttendanceList {
  return {
    entries: [
      makeEntry(11, 'Bernd', 'Zeller', { status: 'zugesagt', answered_at: SAVED_AT, comment: 'Gern' }),
      makeEntry(12, 'Clara', 'Albers', { status: 'abgesagt', answered_at: SAVED_AT }),
      makeEntry(13, 'Dora', 'Meier', { status: 'abgesagt', answered_at: SAVED_AT }),
      makeEntry(14, 'Emil', 'Berg'),
      makeEntry(15, 'Fritz', 'Huber'),
      makeEntry(16, 'Gerda', 'Lang'),
    ],
    counts: { zugesagt: 1, abgesagt: 2, vielleicht: 0, offen: 3 },
    reminder_sent_at: null,
    reminder_available_at: null,
    ...overrides,
  };
}

describe('Teilnahme for admins', () => {
  it('counts in correct German, lists everyone and filters by answer', async () => {
    signIn(adminUser());
    eventApi({ 'GET /api/v1/events/5/attendance': json(200, { data: attendanceList() }) });
    const { user } = renderApp('/events/show/5');
    const section = await screen.findByRole('region', { name: 'Teilnahme' });
    const counts = await within(section).findByRole('list', { name: 'Antworten gezählt' });
    expect(
      within(counts)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['1 Zusage', '2 Absagen', '0 Vielleicht', '3 Antworten offen']);
    const table = within(section).getByRole('table', { name: 'Teilnahmeliste' });
    const rows = within(table).getAllByRole('row').slice(1);
    // By last name.
    expect(rows.map((row) => within(row).getByRole('rowheader').textContent)).toEqual([
      'Clara Albers',
      'Emil Berg',
      'Fritz Huber',
      'Gerda Lang',
      'Dora Meier',
      'Bernd Zeller',
    ]);
    const zeller = rows[5]!;
    expect(zeller).toHaveTextContent('Zusage');
    expect(zeller).toHaveTextContent('25.11.2026, 09:30 Uhr');
    expect(zeller).toHaveTextContent('Gern');
    expect(rows[1]!).toHaveTextContent('Keine Antwort');

    const shown = within(section).getByRole('group', { name: 'Anzeigen' });
    expect(within(shown).getByRole('button', { name: 'Alle' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(within(shown).getByRole('button', { name: 'Ohne Antwort' }));
    expect(within(shown).getByRole('button', { name: 'Ohne Antwort' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((row) => within(row).getByRole('rowheader').textContent),
    ).toEqual(['Emil Berg', 'Fritz Huber', 'Gerda Lang']);
  });

  it('says singular counts in the singular', () => {
    expect(countTexts({ zugesagt: 2, abgesagt: 1, vielleicht: 1, offen: 1 }).map((c) => c.text)).toEqual([
      '2 Zusagen',
      '1 Absage',
      '1 Vielleicht',
      '1 Antwort offen',
    ]);
  });

  it('sends a reminder after a confirmation naming how many get it, and shows the 409 message', async () => {
    signIn(adminUser());
    const tooSoon = MEETING_MESSAGES.reminderTooSoon('10:30');
    const { requests } = eventApi({
      'GET /api/v1/events/5/attendance': json(200, { data: attendanceList() }),
      'POST /api/v1/events/5/attendance/reminder': json(409, { message: tooSoon }),
    });
    const { user } = renderApp('/events/show/5');
    const section = await screen.findByRole('region', { name: 'Teilnahme' });
    await user.click(await within(section).findByRole('button', { name: 'Erinnerung senden' }));
    const dialog = await screen.findByRole('dialog', { name: 'Erinnerung senden?' });
    expect(within(dialog).getByText(/3 Personen ohne Antwort erhalten eine E-Mail/)).toBeInTheDocument();
    expect(requests.some((r) => r.method === 'POST')).toBe(false);

    await user.click(within(dialog).getByRole('button', { name: 'Erinnerung senden' }));
    expect(await within(section).findByText(tooSoon)).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'POST').map((r) => r.url)).toEqual([
      '/api/v1/events/5/attendance/reminder',
    ]);
  });

  it('confirms a sent reminder with the server message', async () => {
    signIn(adminUser());
    eventApi({
      'GET /api/v1/events/5/attendance': json(200, { data: attendanceList() }),
      'POST /api/v1/events/5/attendance/reminder': json(200, {
        message: MEETING_MESSAGES.reminderSent(3),
        sent: 3,
      }),
    });
    const { user } = renderApp('/events/show/5');
    const section = await screen.findByRole('region', { name: 'Teilnahme' });
    await user.click(await within(section).findByRole('button', { name: 'Erinnerung senden' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Erinnerung senden?' })).getByRole('button', {
        name: 'Erinnerung senden',
      }),
    );
    expect(await screen.findByText('Erinnerung an 3 Personen gesendet')).toBeInTheDocument();
  });

  it('disables the reminder until the next one is possible, and when everyone answered', async () => {
    signIn(adminUser());
    const next = new Date(Date.now() + 30 * 60_000).toISOString();
    eventApi({
      'GET /api/v1/events/5/attendance': json(200, {
        data: attendanceList({ reminder_sent_at: new Date().toISOString(), reminder_available_at: next }),
      }),
    });
    renderApp('/events/show/5');
    const section = await screen.findByRole('region', { name: 'Teilnahme' });
    const button = await within(section).findByRole('button', { name: 'Erinnerung senden' });
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleDescription(
      /^Die nächste Erinnerung ist ab \d\d\.\d\d\.\d{4}, \d\d:\d\d Uhr möglich\.$/,
    );
  });

  it('disables the reminder when nobody is without an answer', async () => {
    signIn(adminUser());
    eventApi({
      'GET /api/v1/events/5/attendance': json(200, {
        data: attendanceList({
          entries: [makeEntry(11, 'Bernd', 'Zeller', { status: 'zugesagt', answered_at: SAVED_AT })],
          counts: { zugesagt: 1, abgesagt: 0, vielleicht: 0, offen: 0 },
        }),
      }),
    });
    renderApp('/events/show/5');
    const section = await screen.findByRole('region', { name: 'Teilnahme' });
    const button = await within(section).findByRole('button', { name: 'Erinnerung senden' });
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleDescription('Alle haben geantwortet.');
  });

  it('exports the list as CSV with the bearer token', async () => {
    signIn(adminUser(), 'admin-token');
    const { requests } = eventApi({
      'GET /api/v1/events/5/attendance': json(200, { data: attendanceList() }),
      'GET /api/v1/events/5/attendance.csv': new Response('\uFEFFName;Antwort\r\n', {
        headers: {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': 'attachment; filename="teilnahme.csv"',
        },
      }),
    });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const { user } = renderApp('/events/show/5');
    const section = await screen.findByRole('region', { name: 'Teilnahme' });
    await user.click(await within(section).findByRole('button', { name: 'Als CSV exportieren' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    const link = click.mock.contexts[0] as HTMLAnchorElement;
    expect(link.download).toBe('teilnahme.csv');
    const csv = requests.find((r) => r.url === '/api/v1/events/5/attendance.csv')!;
    expect(csv.headers.get('Authorization')).toBe('Bearer admin-token');
  });
});
