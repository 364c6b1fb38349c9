import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MEETING_MESSAGES } from '@gremienportal/contracts/meetings';
import { NOTICE_MESSAGES } from '@gremienportal/contracts/meeting-notices';
import { json, mockApi } from '../../../testing/fetch-mock';
import { adminUser, signIn } from '../../../testing/factories';
import { renderApp } from '../../../testing/render';
import { mockUploads } from '../../../testing/upload-mock';
import { makeAgenda } from './agenda-fixtures';
import { daysFromNow, makeMeeting } from './meeting-fixtures';

// Decision 181: what the office tells a meeting's members.

beforeEach(() => {
  URL.createObjectURL = vi.fn(() => 'blob:test');
  URL.revokeObjectURL = vi.fn();
});

const ROLES = [
  { id: 1, name: 'Admin' },
  { id: 2, name: 'Super-Admin' },
  { id: 3, name: 'Aufsichtsrat' },
  { id: 4, name: 'Vertreter' },
];

describe('Tagesordnung veröffentlichen', () => {
  it('summarises recipients and role warnings, then sends once', async () => {
    signIn(adminUser());
    let published: string | null = null;
    const { requests } = mockApi({
      'GET /api/v1/events/5': () =>
        json(200, { data: makeMeeting({ agenda_count: 5, agenda_published_at: published }) }),
      'GET /api/v1/events/5/agenda': json(200, { data: makeAgenda({ admin: true }) }),
      'GET /api/v1/events/5/agenda/publish': json(200, {
        data: { published_at: null, recipients: 23, changes: [] },
      }),
      'POST /api/v1/events/5/agenda/publish': () => {
        published = '2026-11-25T08:30:00.000Z';
        return json(200, {
          message: NOTICE_MESSAGES.published(23),
          data: { sent: 23, published_at: published, changes: [] },
        });
      },
    });
    const { user } = renderApp('/events/show/5');
    const section = await screen.findByRole('region', { name: 'Tagesordnung' });
    expect(await within(section).findByText(/noch nicht an die Mitglieder gesendet/)).toBeInTheDocument();
    await user.click(within(section).getByRole('button', { name: 'Tagesordnung veröffentlichen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Tagesordnung veröffentlichen' });
    expect(
      await within(dialog).findByText(/23 Personen mit einer Rolle dieser Sitzung erhalten/),
    ).toBeInTheDocument();
    expect(dialog).toHaveTextContent('„Bericht des Aufsichtsrats“ (TOP 2) – nicht für Vertreter');
    expect(requests.some((r) => r.method === 'POST')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Tagesordnung senden' }));
    expect(await screen.findByText('Tagesordnung an 23 Personen gesendet')).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'POST').map((r) => r.url)).toEqual([
      '/api/v1/events/5/agenda/publish',
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await within(section).findByRole('button', { name: 'Änderungen mitteilen' })).toBeInTheDocument();
    expect(section).toHaveTextContent('an die Mitglieder gesendet am 25.11.2026, 09:30 Uhr');
  });

  it('lists what changed, and offers no sending while nothing did', async () => {
    signIn(adminUser());
    let changes = ['Beginn: 18:00 → 18:30 Uhr', 'Neues Dokument zu TOP 2: „Nachtrag“'];
    mockApi({
      'GET /api/v1/events/5': json(200, {
        data: makeMeeting({ agenda_count: 5, agenda_published_at: '2026-11-25T08:30:00.000Z' }),
      }),
      'GET /api/v1/events/5/agenda': json(200, { data: makeAgenda({ admin: true }) }),
      'GET /api/v1/events/5/agenda/publish': () =>
        json(200, { data: { published_at: '2026-11-25T08:30:00.000Z', recipients: 2, changes } }),
    });
    const { user } = renderApp('/events/show/5');
    const section = await screen.findByRole('region', { name: 'Tagesordnung' });
    await user.click(await within(section).findByRole('button', { name: 'Änderungen mitteilen' }));
    let dialog = await screen.findByRole('dialog', { name: 'Änderungen mitteilen' });
    const list = await within(dialog).findByRole('list', { name: 'Änderungen' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(changes);
    expect(within(dialog).getByRole('button', { name: 'Änderungen senden' })).toBeEnabled();
    await user.click(within(dialog).getByRole('button', { name: 'Abbrechen' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    changes = [];
    await user.click(within(section).getByRole('button', { name: 'Änderungen mitteilen' }));
    dialog = await screen.findByRole('dialog', { name: 'Änderungen mitteilen' });
    expect(await within(dialog).findByText(/Es gibt nichts mitzuteilen/)).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Änderungen senden' })).not.toBeInTheDocument();
    // Besides the dialog's own close button, the footer's.
    const close = within(dialog).getAllByRole('button', { name: 'Schließen' });
    expect(close.map((button) => button.textContent)).toContain('Schließen');
  });
});

describe('the Protokoll of a meeting that lies ahead', () => {
  it('asks before publishing and sends the chosen recipients with the confirmation', async () => {
    signIn(adminUser());
    mockApi({ 'GET /api/v1/events/5': json(200, { data: makeMeeting({ start: daysFromNow(3) }) }) });
    const uploads = mockUploads(() => ({
      status: 200,
      body: {
        message: MEETING_MESSAGES.minutesSaved,
        data: { external: 'k', format: 'pdf', size_bytes: 1, published_at: '' },
      },
    }));
    const { user } = renderApp('/events/show/5');
    const section = await screen.findByRole('region', { name: 'Protokoll der Sitzung' });
    await user.upload(
      within(section).getByLabelText('Protokoll', { selector: 'input' }),
      new File(['%PDF-1.7'], 'protokoll.pdf', { type: 'application/pdf' }),
    );
    expect(within(section).getByRole('radio', { name: 'Wer zugesagt hat' })).toBeChecked();
    await user.click(
      within(section).getByRole('radio', { name: 'Alle Mitglieder der Rollen dieser Sitzung' }),
    );
    await user.click(within(section).getByRole('button', { name: 'Protokoll hochladen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sitzung liegt in der Zukunft' });
    expect(dialog).toHaveTextContent(MEETING_MESSAGES.minutesFuture);
    expect(uploads).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Trotzdem veröffentlichen' }));
    expect(await screen.findByText(MEETING_MESSAGES.minutesSaved)).toBeInTheDocument();
    expect(uploads).toHaveLength(1);
    expect(uploads[0]!.body.get('confirm_future')).toBe('true');
    expect(uploads[0]!.body.get('recipients')).toBe('alle');
  });
});

describe('Mitglieder benachrichtigen on /events/update/{id}', () => {
  it('offers the notice once a fact changed, shows what the mail says and sends it to the chosen roles', async () => {
    signIn(adminUser());
    const event = makeMeeting({
      roles: ['Aufsichtsrat', 'Vertreter'],
      start: '2026-12-02T17:00:00.000Z',
      end: '2026-12-02T19:00:00.000Z',
    });
    mockApi({
      'GET /api/v1/events': json(200, { data: [event] }),
      'GET /api/v1/events/5': json(200, { data: event }),
      'GET /api/v1/roles': json(200, { data: ROLES }),
    });
    const uploads = mockUploads(() => ({ status: 200, body: { event, notified: 7 } }));
    const { user } = renderApp('/events/update/5');
    const form = await screen.findByRole('form', { name: 'Event bearbeiten' });
    expect(within(form).queryByRole('checkbox', { name: /Mitglieder benachrichtigen/ })).toBeNull();
    const place = within(form).getByRole('textbox', { name: /^Ort/ });
    await user.clear(place);
    await user.type(place, 'Saal 2');
    const notify = within(form).getByRole('checkbox', { name: /Mitglieder benachrichtigen/ });
    expect(form).toHaveTextContent('Ort: Stadthalle → Saal 2');
    await user.click(notify);
    expect(within(form).getByRole('combobox', { name: /^Benachrichtigung an/ })).toBeInTheDocument();
    await user.click(within(form).getByRole('button', { name: 'Aktualisieren' }));
    expect(
      await screen.findByText(`Event erfolgreich aktualisiert. ${NOTICE_MESSAGES.changesSent(7)}`),
    ).toBeInTheDocument();
    expect(uploads).toHaveLength(1);
    expect(uploads[0]!.body.get('notify')).toBe('true');
    // All of the event's roles were chosen at first.
    expect(uploads[0]!.body.getAll('notifications')).toEqual(['3', '4']);
  });
});
