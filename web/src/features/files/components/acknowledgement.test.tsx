import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { AcknowledgementList } from '@gremienportal/contracts/acknowledgements';
import { ACKNOWLEDGEMENT_MESSAGES } from '@gremienportal/contracts/file-messages';
import { json, mockApi } from '../../../testing/fetch-mock';
import { adminUser, signIn, vertreterUser, makeInvitationFile } from '../../../testing/factories';
import { onDesktop } from '../../../testing/media';
import { renderWithProviders } from '../../../testing/render';
import { AcknowledgementAdmin } from './acknowledgement-admin';
import { FileDialog } from './file-dialog';

const FILE = makeInvitationFile({
  text_state: 'done',
  new: true,
});

const PDF = () =>
  new Response('%PDF-1.4', {
    status: 200,
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Disposition': 'attachment; filename="Einladung.pdf"',
    },
  });

function captureSaves() {
  vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:http://localhost/1234');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  const clicks = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
  return clicks;
}

describe('Kenntnisnahme banner in the file dialog', () => {
  it('waits until the document was opened, then confirms and says when', async () => {
    signIn(vertreterUser());
    captureSaves();
    let confirmed: string | null = null;
    const api = mockApi({
      'GET /api/v1/files/31': () => json(200, { data: { ...FILE, acknowledged_at: confirmed } }),
      'GET /api/v1/download/abcdefghijklmnopqrstuv': PDF(),
      'POST /api/v1/files/31/acknowledgement': () => {
        confirmed = '2026-11-27T09:15:00.000Z';
        return json(200, { message: 'Kenntnisnahme bestätigt', data: { confirmed_at: confirmed } });
      },
    });
    const { user } = renderWithProviders(
      <FileDialog file={FILE} isAdmin={false} onClose={() => undefined} />,
      {
        signedIn: true,
      },
    );
    const dialog = await screen.findByRole('dialog');
    expect(
      await within(dialog).findByText(ACKNOWLEDGEMENT_MESSAGES.bannerDue('01.12.2026')),
    ).toBeInTheDocument();
    const button = within(dialog).getByRole('button', { name: ACKNOWLEDGEMENT_MESSAGES.confirm });
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleDescription(ACKNOWLEDGEMENT_MESSAGES.openFirst);

    await user.click(within(dialog).getByRole('button', { name: 'Herunterladen' }));
    await waitFor(() => expect(button).toBeEnabled());
    await user.click(button);
    expect(
      await within(dialog).findByText(/^Zur Kenntnis genommen am 27\.11\.2026, 10:15 Uhr$/),
    ).toBeInTheDocument();
    expect(api.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
  });

  it("shows the server's reason when it refuses (409)", async () => {
    signIn(vertreterUser());
    mockApi({
      'GET /api/v1/files/31': json(200, { data: { ...FILE, new: false, acknowledged_at: null } }),
      'POST /api/v1/files/31/acknowledgement': json(409, { message: ACKNOWLEDGEMENT_MESSAGES.openFirst }),
    });
    const { user } = renderWithProviders(
      <FileDialog file={{ ...FILE, new: false }} isAdmin={false} onClose={() => undefined} />,
      { signedIn: true },
    );
    // No longer new: opened before (or marked read), so the button is there to try.
    const button = await screen.findByRole('button', { name: ACKNOWLEDGEMENT_MESSAGES.confirm });
    await user.click(button);
    expect(await screen.findByRole('alert')).toHaveTextContent(ACKNOWLEDGEMENT_MESSAGES.openFirst);
  });

  it('shows nothing for a document without Kenntnisnahme', async () => {
    signIn(vertreterUser());
    mockApi({});
    renderWithProviders(
      <FileDialog
        file={{ ...FILE, acknowledgement_required: false }}
        isAdmin={false}
        onClose={() => undefined}
      />,
      { signedIn: true },
    );
    await screen.findByRole('dialog');
    expect(screen.queryByRole('button', { name: ACKNOWLEDGEMENT_MESSAGES.confirm })).not.toBeInTheDocument();
  });
});

const LIST: AcknowledgementList = {
  file: {
    id: 31,
    title: 'Einladung',
    format: 'pdf',
    acknowledgement_required: true,
    acknowledgement_due: '2026-12-01',
    requested_at: '2026-11-20T10:00:00.000Z',
  },
  entries: [
    {
      user: {
        id: 7,
        title: 'Frau',
        firstname: 'Vera',
        lastname: 'Vertreter',
        email: 'v@example.org',
        roles: ['Vertreter'],
      },
      confirmed_at: '2026-11-27T09:15:00.000Z',
    },
    ...[8, 9, 10].map((id) => ({
      user: {
        id,
        title: 'Herr',
        firstname: `Max${id}`,
        lastname: 'Muster',
        email: `m${id}@example.org`,
        roles: ['Vertreter'],
      },
      confirmed_at: null,
    })),
  ],
  counts: { confirmed: 1, pending: 3, total: 4 },
  percent: 25,
  reminder_sent_at: null,
  reminder_available_at: null,
};

describe('Kenntnisnahme list for admins', () => {
  it('shows the share, who confirmed when and who has not', async () => {
    signIn(adminUser());
    onDesktop();
    mockApi({ 'GET /api/v1/files/31/acknowledgements': json(200, { data: LIST }) });
    const { user } = renderWithProviders(<AcknowledgementAdmin fileId={31} />, { signedIn: true });
    expect(await screen.findByText('1 von 4 bestätigt (25 %)')).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Kenntnisnahme je Person' });
    const vera = within(table).getByRole('row', { name: /Vera Vertreter/ });
    expect(vera).toHaveTextContent('Bestätigt');
    expect(vera).toHaveTextContent('27.11.2026, 10:15 Uhr');
    expect(within(table).getAllByText('Offen')).toHaveLength(3);

    await user.click(screen.getByRole('button', { name: 'Offen' }));
    expect(
      within(screen.getByRole('table', { name: 'Kenntnisnahme je Person' })).queryByText('Vera Vertreter'),
    ).toBeNull();
  });

  it('exports the list as CSV', async () => {
    signIn(adminUser());
    const clicks = captureSaves();
    const api = mockApi({
      'GET /api/v1/files/31/acknowledgements': json(200, { data: LIST }),
      'GET /api/v1/files/31/acknowledgements.csv': new Response('Nachname;Vorname', {
        headers: {
          'Content-Type': 'text/csv',
          'Content-Disposition': 'attachment; filename="Kenntnisnahme Einladung.csv"',
        },
      }),
    });
    const { user } = renderWithProviders(<AcknowledgementAdmin fileId={31} />, { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Als CSV exportieren' }));
    await waitFor(() => expect(clicks).toHaveBeenCalled());
    expect(api.requests.some((request) => request.url === '/api/v1/files/31/acknowledgements.csv')).toBe(
      true,
    );
  });

  it('sends a reminder after asking, and shows the German refusal when it is too soon', async () => {
    signIn(adminUser());
    const tooSoon = ACKNOWLEDGEMENT_MESSAGES.reminderTooSoon('28.11.2026, 10:15');
    mockApi({
      'GET /api/v1/files/31/acknowledgements': json(200, { data: LIST }),
      'POST /api/v1/files/31/acknowledgements/reminder': json(409, { message: tooSoon }),
    });
    const { user } = renderWithProviders(<AcknowledgementAdmin fileId={31} />, { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Erinnerung senden' }));
    const dialog = await screen.findByRole('dialog', { name: 'Erinnerung senden?' });
    expect(dialog).toHaveTextContent('3 Personen ohne Bestätigung erhalten eine E-Mail');
    await user.click(within(dialog).getByRole('button', { name: 'Erinnerung senden' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(tooSoon);
  });

  it('waits for the next possible reminder and says from when', async () => {
    signIn(adminUser());
    mockApi({
      'GET /api/v1/files/31/acknowledgements': json(200, {
        data: {
          ...LIST,
          reminder_sent_at: new Date().toISOString(),
          reminder_available_at: new Date(Date.now() + 3_600_000).toISOString(),
        },
      }),
    });
    renderWithProviders(<AcknowledgementAdmin fileId={31} />, { signedIn: true });
    const button = await screen.findByRole('button', { name: 'Erinnerung senden' });
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleDescription(/^Die nächste Erinnerung ist ab .* Uhr möglich\.$/);
  });
});
