import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MEETING_MESSAGES } from '@gremienportal/contracts/meetings';
import { json, mockApi, type MockHandler, type MockReply } from '../../../testing/fetch-mock';
import { renderWithProviders } from '../../../testing/render';
import { signIn } from '../../../testing/factories';
import { CalendarFeedSection } from './calendar-feed-section';

const FEED_URL = 'https://portal.example.org/api/v1/calendar/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AbCd.ics';
const INACTIVE = { active: false, created_at: null, last_used_at: null };
const ACTIVE = {
  active: true,
  created_at: '2026-11-20T09:00:00.000Z',
  last_used_at: '2026-11-24T17:15:00.000Z',
};

function renderFeed(routes: Record<string, MockHandler | MockReply>) {
  signIn();
  const api = mockApi(routes);
  const view = renderWithProviders(<CalendarFeedSection />, { signedIn: true });
  return { ...api, ...view };
}

const section = () => screen.getByRole('region', { name: 'Kalender abonnieren' });

describe('Kalender abonnieren', () => {
  it('creates an address and shows it once, with a copy button', async () => {
    const { user, requests } = renderFeed({
      'GET /api/v1/account/calendar-feed': json(200, { data: INACTIVE }),
      'POST /api/v1/account/calendar-feed': json(201, {
        data: { url: FEED_URL, created_at: '2026-11-25T08:00:00.000Z' },
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Kalender-Adresse erzeugen' }));
    expect(await within(section()).findByRole('textbox', { name: 'Ihre Kalender-Adresse' })).toHaveValue(
      FEED_URL,
    );
    expect(within(section()).getByText(/Sie wird nur dieses eine Mal angezeigt/)).toBeInTheDocument();
    expect(within(section()).getByRole('button', { name: 'Adresse kopieren' })).toBeInTheDocument();
    // One tap: the calendar app's own subscription, or Google Kalender's page for it.
    expect(within(section()).getByRole('link', { name: 'Im Kalender abonnieren' })).toHaveAttribute(
      'href',
      'webcal://portal.example.org/api/v1/calendar/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AbCd.ics',
    );
    expect(within(section()).getByRole('link', { name: 'In Google Kalender hinzufügen' })).toHaveAttribute(
      'href',
      `https://calendar.google.com/calendar/r?cid=${encodeURIComponent(FEED_URL.replace('https://', 'webcal://'))}`,
    );
    const help = within(section()).getByRole('list', { name: 'So geht es' });
    for (const device of ['iPhone und iPad:', 'Android:', 'Outlook:'])
      expect(within(help).getByText(device)).toBeInTheDocument();
    expect(within(section()).getByText(/Eingerichtet am 25\.11\.2026, 09:00 Uhr\./)).toBeInTheDocument();
    expect(within(section()).getByText(/Noch von keinem Kalender abgerufen/)).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'POST').map((r) => r.url)).toEqual([
      '/api/v1/account/calendar-feed',
    ]);
    expect(within(section()).getByRole('button', { name: 'Neue Adresse erzeugen' })).toBeInTheDocument();
  });

  it('shows an active feed without its address and renews it after a confirmation', async () => {
    const { user, requests } = renderFeed({
      'GET /api/v1/account/calendar-feed': json(200, { data: ACTIVE }),
      'POST /api/v1/account/calendar-feed': json(201, {
        data: { url: FEED_URL, created_at: '2026-11-25T08:00:00.000Z' },
      }),
    });
    expect(
      await screen.findByText(
        'Eingerichtet am 20.11.2026, 10:00 Uhr. Zuletzt abgerufen am 24.11.2026, 18:15 Uhr.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Ihre Kalender-Adresse' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Neue Adresse erzeugen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Neue Kalender-Adresse erzeugen?' });
    expect(
      within(dialog).getByText(/Die bisherige Adresse funktioniert danach nicht mehr/),
    ).toBeInTheDocument();
    expect(requests.some((r) => r.method === 'POST')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Neue Adresse erzeugen' }));
    expect(await screen.findByText(MEETING_MESSAGES.feedCreated)).toBeInTheDocument();
    expect(await screen.findByRole('textbox', { name: 'Ihre Kalender-Adresse' })).toHaveValue(FEED_URL);
  });

  it('ends the subscription after a confirmation', async () => {
    const { user, requests } = renderFeed({
      'GET /api/v1/account/calendar-feed': json(200, { data: ACTIVE }),
      'DELETE /api/v1/account/calendar-feed': new Response(null, { status: 204 }),
    });
    await user.click(await screen.findByRole('button', { name: 'Abonnement beenden' }));
    const dialog = await screen.findByRole('dialog', { name: 'Kalender-Abonnement beenden?' });
    expect(requests.some((r) => r.method === 'DELETE')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Abonnement beenden' }));
    expect(await screen.findByText(MEETING_MESSAGES.feedRevoked)).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'DELETE').map((r) => r.url)).toEqual([
      '/api/v1/account/calendar-feed',
    ]);
    await waitFor(() =>
      expect(within(section()).getByText('Sie haben derzeit kein Kalender-Abonnement.')).toBeInTheDocument(),
    );
    expect(within(section()).getByRole('button', { name: 'Kalender-Adresse erzeugen' })).toBeInTheDocument();
  });

  it('shows the server message when no address can be made', async () => {
    const { user } = renderFeed({
      'GET /api/v1/account/calendar-feed': json(200, { data: INACTIVE }),
      'POST /api/v1/account/calendar-feed': json(429, {
        message: 'Zu viele Anfragen. Bitte später erneut versuchen.',
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Kalender-Adresse erzeugen' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Zu viele Anfragen. Bitte später erneut versuchen.',
    );
    expect(screen.queryByRole('textbox', { name: 'Ihre Kalender-Adresse' })).not.toBeInTheDocument();
  });
});
