import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { NOTIFICATION_FREQUENCY_LABELS, NOTIFICATION_MESSAGES } from '@gremienportal/contracts/notifications';
import { json, mockApi } from '../../../testing/fetch-mock';
import { signIn, vertreterUser } from '../../../testing/factories';
import { renderWithProviders } from '../../../testing/render';
import { NotificationSettingsSection } from './notification-settings-section';

const group = (name: string) => screen.getByRole('radiogroup', { name });

describe('Benachrichtigungen on the account page', () => {
  it('shows both choices as saved and saves a change with PUT', async () => {
    signIn(vertreterUser());
    const api = mockApi({
      'GET /api/v1/account/notifications': json(200, { data: { files: 'sofort', events: 'sofort' } }),
      'PUT /api/v1/account/notifications': (request) =>
        json(200, { message: NOTIFICATION_MESSAGES.saved, data: request.body }),
    });
    const { user } = renderWithProviders(<NotificationSettingsSection />, { signedIn: true });
    expect(await screen.findByRole('heading', { name: NOTIFICATION_MESSAGES.title })).toBeInTheDocument();
    const files = await screen.findByRole('radiogroup', { name: NOTIFICATION_MESSAGES.filesLabel });
    expect(within(files).getByRole('radio', { name: NOTIFICATION_FREQUENCY_LABELS.sofort })).toBeChecked();
    expect(within(group(NOTIFICATION_MESSAGES.eventsLabel)).getAllByRole('radio')).toHaveLength(4);
    const save = screen.getByRole('button', { name: 'Speichern' });
    expect(save).toBeDisabled();

    await user.click(within(files).getByRole('radio', { name: NOTIFICATION_FREQUENCY_LABELS.taeglich }));
    await user.click(save);
    expect(await screen.findByRole('status')).toHaveTextContent(NOTIFICATION_MESSAGES.saved);
    const put = api.requests.find((request) => request.method === 'PUT');
    expect(put?.body).toEqual({ files: 'taeglich', events: 'sofort' });
    await waitFor(() => expect(save).toBeDisabled());
  });

  it('is where the mails link to (/account#benachrichtigungen) and scrolls into view for that address', async () => {
    signIn(vertreterUser());
    mockApi({
      'GET /api/v1/account/notifications': json(200, { data: { files: 'taeglich', events: 'sofort' } }),
    });
    window.history.replaceState(null, '', '/account#benachrichtigungen');
    const scrolled: Element[] = [];
    const original = HTMLElement.prototype.scrollIntoView;
    HTMLElement.prototype.scrollIntoView = function (this: HTMLElement) {
      scrolled.push(this);
    };
    try {
      renderWithProviders(<NotificationSettingsSection />, { signedIn: true });
      const section = (await screen.findByRole('region', { name: NOTIFICATION_MESSAGES.title })) as Element;
      expect(section.id).toBe('benachrichtigungen');
      await waitFor(() => expect(scrolled).toContain(section));
    } finally {
      HTMLElement.prototype.scrollIntoView = original;
      window.history.replaceState(null, '', '/');
    }
  });

  it('keeps the choice and says so when saving fails', async () => {
    signIn(vertreterUser());
    mockApi({
      'GET /api/v1/account/notifications': json(200, { data: { files: 'taeglich', events: 'sofort' } }),
      'PUT /api/v1/account/notifications': json(500, { message: 'Interner Fehler' }),
    });
    const { user } = renderWithProviders(<NotificationSettingsSection />, { signedIn: true });
    const events = await screen.findByRole('radiogroup', { name: NOTIFICATION_MESSAGES.eventsLabel });
    const weekly = within(events).getByRole('radio', { name: NOTIFICATION_FREQUENCY_LABELS.woechentlich });
    await user.click(weekly);
    await user.click(screen.getByRole('button', { name: 'Speichern' }));
    // The server's German reason, as every form shows it.
    expect(await screen.findByRole('alert')).toHaveTextContent('Interner Fehler');
    expect(weekly).toBeChecked();
    expect(screen.getByRole('button', { name: 'Speichern' })).toBeEnabled();
  });
});
