import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_UPDATED_MESSAGE } from '@gremienportal/contracts/account';
import type { Account } from '../account.api';
import { json, mockApi } from '../../../testing/fetch-mock';
import { adminUser, signIn, vertreterUser } from '../../../testing/factories';
import { renderApp } from '../../../testing/render';

const account = (overrides: Partial<Account> = {}): Account => ({
  id: 7,
  title: 'Frau',
  firstname: 'Erika',
  lastname: 'Mustermann',
  email: 'erika@example.org',
  roles: ['Vertreter'],
  roles_string: 'Vertreter',
  email_visible_to_committees: false,
  ...overrides,
});

const input = (label: RegExp) => screen.getByLabelText(label, { selector: 'input' });
const newPassword = () => input(/^Neues Passwort$/);
const confirmation = () => input(/^Neues Passwort bestätigen$/);
const currentPassword = () => input(/^Aktuelles Passwort$/);

async function openAccount(data: Account, routes: Parameters<typeof mockApi>[0] = {}) {
  const api = mockApi({
    'GET /api/v1/account': json(200, { data }),
    'GET /api/v1/audit/my-logins': json(200, { data: [] }),
    // The account page shows the calendar feed's state too (decision 130).
    'GET /api/v1/account/calendar-feed': json(200, {
      data: { active: false, created_at: null, last_used_at: null },
    }),
    // And how often notification mails come (decision 131).
    'GET /api/v1/account/notifications': json(200, { data: { files: 'taeglich', events: 'sofort' } }),
    ...routes,
  });
  const app = renderApp('/account');
  await screen.findByRole('button', { name: 'Aktualisieren' });
  return { ...app, ...api };
}

describe('account page', () => {
  it('shows only the password fields to a Vertreter', async () => {
    signIn(vertreterUser());
    await openAccount(account());

    expect(screen.getByRole('heading', { level: 1, name: 'Erika Mustermann' })).toBeInTheDocument();
    expect(newPassword()).toBeInTheDocument();
    expect(confirmation()).toBeInTheDocument();
    expect(screen.queryByLabelText(/^Titel/)).not.toBeInTheDocument();
    expect(screen.queryByLabelText(/^Vorname/)).not.toBeInTheDocument();
    expect(screen.queryByLabelText(/^Nachname/)).not.toBeInTheDocument();
    expect(screen.queryByLabelText(/^E-Mail/)).not.toBeInTheDocument();
  });

  it('shows title, names and e-mail to an admin, filled from the server', async () => {
    signIn(adminUser());
    await openAccount(
      account({ id: 1, title: 'Herr', firstname: 'Anton', lastname: 'Admin', roles: ['Admin'] }),
    );

    expect(screen.getByRole('heading', { level: 1, name: 'Anton Admin' })).toBeInTheDocument();
    expect(input(/^Titel/)).toHaveValue('Herr');
    expect(input(/^Vorname/)).toHaveValue('Anton');
    expect(input(/^Nachname/)).toHaveValue('Admin');
    expect(input(/^E-Mail/)).toHaveValue('erika@example.org');
  });

  it('sends only the changed fields and shows the success message until the next edit', async () => {
    signIn(adminUser());
    const { user, requests } = await openAccount(account({ id: 1, roles: ['Admin'] }), {
      'PUT /api/v1/account': json(200, {
        user: account({ id: 1, firstname: 'Erika-Maria', roles: ['Admin'] }),
      }),
    });

    await user.clear(input(/^Vorname/));
    await user.type(input(/^Vorname/), 'Erika-Maria');
    await user.click(screen.getByRole('button', { name: 'Aktualisieren' }));

    expect(await screen.findByText(ACCOUNT_UPDATED_MESSAGE)).toBeInTheDocument();
    expect(requests.find((request) => request.method === 'PUT')?.body).toEqual({ firstname: 'Erika-Maria' });
    // The header and later visits know the new name.
    expect(JSON.parse(window.localStorage.getItem('user') ?? '{}')).toMatchObject({
      firstname: 'Erika-Maria',
      name: 'Erika-Maria Admin',
    });

    await user.type(input(/^Nachname/), 'x');
    expect(screen.queryByText(ACCOUNT_UPDATED_MESSAGE)).not.toBeInTheDocument();
  });

  it('changes the password of a Vertreter with the current and both new password fields', async () => {
    signIn(vertreterUser());
    const { user, requests } = await openAccount(account(), {
      'PUT /api/v1/account': json(200, { user: account() }),
    });

    expect(screen.getByText(/Zur Bestätigung Ihr bisheriges Passwort/)).toBeInTheDocument();
    await user.type(currentPassword(), 'Altes-Kennwort-1');
    await user.type(newPassword(), 'Sommerwiese-7');
    await user.type(confirmation(), 'Sommerwiese-7');
    await user.click(screen.getByRole('button', { name: 'Aktualisieren' }));

    expect(await screen.findByText(ACCOUNT_UPDATED_MESSAGE)).toBeInTheDocument();
    expect(requests.find((request) => request.method === 'PUT')?.body).toEqual({
      password: 'Sommerwiese-7',
      password_confirmation: 'Sommerwiese-7',
      current_password: 'Altes-Kennwort-1',
    });
    expect(newPassword()).toHaveValue('');
    expect(currentPassword()).toHaveValue('');
  });

  it('asks for the current password before sending a new one', async () => {
    signIn(vertreterUser());
    const { user, requests } = await openAccount(account());

    await user.type(newPassword(), 'Sommerwiese-7');
    await user.type(confirmation(), 'Sommerwiese-7');
    await user.click(screen.getByRole('button', { name: 'Aktualisieren' }));

    expect(await screen.findByText('Aktuelles Passwort ist erforderlich.')).toBeInTheDocument();
    expect(requests.filter((request) => request.method === 'PUT')).toHaveLength(0);
  });

  it('keeps what was typed and shows the error when the current password is wrong', async () => {
    signIn(vertreterUser());
    const { user } = await openAccount(account(), {
      'PUT /api/v1/account': json(422, {
        message: 'Das aktuelle Passwort ist nicht korrekt.',
        errors: { current_password: ['Das aktuelle Passwort ist nicht korrekt.'] },
      }),
    });

    await user.type(currentPassword(), 'Falsch-geraten-1');
    await user.type(newPassword(), 'Sommerwiese-7');
    await user.type(confirmation(), 'Sommerwiese-7');
    await user.click(screen.getByRole('button', { name: 'Aktualisieren' }));

    expect(await screen.findByText('Das aktuelle Passwort ist nicht korrekt.')).toBeInTheDocument();
    expect(currentPassword()).toHaveAttribute('aria-invalid', 'true');
    expect(currentPassword()).toHaveValue('Falsch-geraten-1');
    expect(newPassword()).toHaveValue('Sommerwiese-7');
    expect(confirmation()).toHaveValue('Sommerwiese-7');
    expect(screen.queryByText(ACCOUNT_UPDATED_MESSAGE)).not.toBeInTheDocument();
  });

  it('validates changed fields with the contract messages and sends nothing invalid', async () => {
    signIn(adminUser());
    const { user, requests } = await openAccount(account({ id: 1, roles: ['Admin'] }));

    await user.clear(input(/^Vorname/));
    await user.type(input(/^Vorname/), 'Al');
    await user.tab();
    expect(await screen.findByText('Vorname muss mindestens 3 Zeichen lang sein.')).toBeInTheDocument();

    await user.type(currentPassword(), 'Altes-Kennwort-1');
    await user.type(newPassword(), 'Sommerwiese-7');
    await user.type(confirmation(), 'Sommerwiese-8');
    await user.click(screen.getByRole('button', { name: 'Aktualisieren' }));
    expect(await screen.findByText('Die Passwörter stimmen nicht überein.')).toBeInTheDocument();
    expect(requests.filter((request) => request.method === 'PUT')).toHaveLength(0);
  });

  it('shows 422 field errors of the server under the fields', async () => {
    signIn(adminUser());
    const { user } = await openAccount(account({ id: 1, roles: ['Admin'] }), {
      'PUT /api/v1/account': json(422, {
        message: 'Die Eingaben sind ungültig.',
        errors: { email: ['Diese E-Mail-Adresse wird bereits verwendet.'] },
      }),
    });

    await user.clear(input(/^E-Mail/));
    await user.type(input(/^E-Mail/), 'max@example.org');
    await user.click(screen.getByRole('button', { name: 'Aktualisieren' }));

    expect(await screen.findByText('Diese E-Mail-Adresse wird bereits verwendet.')).toBeInTheDocument();
    expect(input(/^E-Mail/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText(ACCOUNT_UPDATED_MESSAGE)).not.toBeInTheDocument();
  });

  it('shows the generic German message for other failures', async () => {
    signIn(vertreterUser());
    const { user } = await openAccount(account(), {
      'PUT /api/v1/account': json(500, { message: 'Ein interner Fehler ist aufgetreten.' }),
    });

    await user.type(currentPassword(), 'Altes-Kennwort-1');
    await user.type(newPassword(), 'Sommerwiese-7');
    await user.type(confirmation(), 'Sommerwiese-7');
    await user.click(screen.getByRole('button', { name: 'Aktualisieren' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Fehler beim Aktualisieren eines Nutzers');
  });

  it('says "Daten konnten nicht geladen werden" when the account cannot be loaded', async () => {
    signIn(vertreterUser());
    mockApi({
      'GET /api/v1/account': json(500, { message: 'Fehler.' }),
      'GET /api/v1/audit/my-logins': json(200, { data: [] }),
      // The account page shows the calendar feed's state too (decision 130).
      'GET /api/v1/account/calendar-feed': json(200, {
        data: { active: false, created_at: null, last_used_at: null },
      }),
      // And how often notification mails come (decision 131).
      'GET /api/v1/account/notifications': json(200, { data: { files: 'taeglich', events: 'sofort' } }),
    });
    renderApp('/account');

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Daten konnten nicht geladen werden')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Aktualisieren' })).not.toBeInTheDocument(),
    );
  });
});
