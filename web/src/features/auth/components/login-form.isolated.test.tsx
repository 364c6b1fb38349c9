import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { LOGIN_FAILED_MESSAGE } from '@gremienportal/contracts/auth';
import { json, mockApi } from '../../../testing/fetch-mock';
import { makeUser } from '../../../testing/factories';
import { renderApp } from '../../../testing/render';

vi.mock('../../../app/routes/files', () => ({ default: () => <h1>Seite files</h1> }));

const emailField = () => screen.getByLabelText(/E-Mail-Adresse/);
const passwordField = () => screen.getByLabelText(/^Passwort/, { selector: 'input' });

async function openLogin(path = '/login') {
  const app = renderApp(path);
  await screen.findByRole('heading', { name: 'Einloggen' });
  return app;
}

describe('login page', () => {
  it('shows heading, welcome text, both fields, the button and the link to reset the password', async () => {
    await openLogin();
    expect(screen.getByText(/Willkommen im geschützten Bereich der Gremien/)).toBeInTheDocument();
    expect(emailField()).toBeInTheDocument();
    expect(passwordField()).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Einloggen' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Passwort vergessen?' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
    expect(document.title).toBe('Einloggen – Gremienportal');
    expect(emailField()).toHaveFocus();
  });

  describe('validation timing (product.md P11)', () => {
    it('does not validate an empty field on blur', async () => {
      const { user } = await openLogin();
      await user.click(emailField());
      await user.tab();
      expect(screen.queryByText('E-Mail-Adresse ist erforderlich.')).not.toBeInTheDocument();
    });

    it('validates a filled field on blur, with the contract message', async () => {
      const { user } = await openLogin();
      await user.type(emailField(), 'erika@');
      expect(screen.queryByText('Bitte eine gültige E-Mail-Adresse eingeben.')).not.toBeInTheDocument();
      await user.tab();
      expect(await screen.findByText('Bitte eine gültige E-Mail-Adresse eingeben.')).toBeInTheDocument();
      expect(emailField()).toHaveAttribute('aria-invalid', 'true');
    });

    it('re-validates on every change while the field shows an error', async () => {
      const { user } = await openLogin();
      await user.type(passwordField(), 'abc');
      await user.tab();
      expect(await screen.findByText('Passwort muss mindestens 6 Zeichen lang sein.')).toBeInTheDocument();

      await user.type(passwordField(), 'def');
      await waitFor(() =>
        expect(screen.queryByText('Passwort muss mindestens 6 Zeichen lang sein.')).not.toBeInTheDocument(),
      );
    });

    it('does not validate on change while the field shows no error', async () => {
      const { user } = await openLogin();
      await user.type(emailField(), 'x');
      expect(screen.queryByText('Bitte eine gültige E-Mail-Adresse eingeben.')).not.toBeInTheDocument();
    });

    it('validates all fields on submit', async () => {
      const { requests } = mockApi({});
      const { user } = await openLogin();
      await user.click(screen.getByRole('button', { name: 'Einloggen' }));
      expect(await screen.findByText('E-Mail-Adresse ist erforderlich.')).toBeInTheDocument();
      expect(screen.getByText('Passwort ist erforderlich.')).toBeInTheDocument();
      expect(requests.filter((request) => request.url === '/api/v1/auth/login')).toHaveLength(0);
    });
  });

  it('signs in, stores token and user, and goes to the start page', async () => {
    const user = makeUser({ roles: ['Vertreter'] });
    const { requests } = mockApi({
      'POST /api/v1/auth/login': json(200, { access_token: 'tok-1', token_type: 'Bearer', user }),
    });
    const app = await openLogin();

    await app.user.type(emailField(), 'Erika@Example.org');
    await app.user.type(passwordField(), 'geheimes-Passwort');
    await app.user.click(screen.getByRole('button', { name: 'Einloggen' }));

    expect(await screen.findByRole('heading', { name: 'Seite files' })).toBeInTheDocument();
    expect(app.router.state.location.pathname).toBe('/');
    expect(requests.find((request) => request.url === '/api/v1/auth/login')?.body).toEqual({
      email: 'erika@example.org',
      password: 'geheimes-Passwort',
    });
    expect(window.localStorage.getItem('access_token')).toBe('tok-1');
    expect(JSON.parse(window.localStorage.getItem('user') ?? '{}')).toMatchObject({
      id: user.id,
      roles: ['Vertreter'],
    });
  });

  it('disables the inputs and shows the button loading while signing in', async () => {
    let answer: (response: Response) => void = () => {};
    mockApi({ 'POST /api/v1/auth/login': () => new Promise<Response>((resolve) => (answer = resolve)) });
    const app = await openLogin();
    await app.user.type(emailField(), 'erika@example.org');
    await app.user.type(passwordField(), 'geheimes-Passwort');
    await app.user.click(screen.getByRole('button', { name: 'Einloggen' }));

    await waitFor(() => expect(emailField()).toBeDisabled());
    expect(passwordField()).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Einloggen' })).toHaveAttribute('data-loading', 'true');

    answer(json(401, { message: 'Ungültig.' }));
    await waitFor(() => expect(emailField()).toBeEnabled());
  });

  it('on wrong credentials shows the German message, keeps the e-mail and clears the password', async () => {
    mockApi({
      'POST /api/v1/auth/login': json(401, { message: 'Die Zugangsdaten sind falsch.' }),
    });
    const app = await openLogin();
    await app.user.type(emailField(), 'erika@example.org');
    await app.user.type(passwordField(), 'falsches-Passwort');
    await app.user.click(screen.getByRole('button', { name: 'Einloggen' }));

    expect(await screen.findByText(LOGIN_FAILED_MESSAGE)).toBeInTheDocument();
    expect(emailField()).toHaveValue('erika@example.org');
    expect(passwordField()).toHaveValue('');
    expect(window.localStorage.getItem('access_token')).toBeNull();
    expect(app.router.state.location.pathname).toBe('/login');
    await waitFor(() => expect(passwordField()).toHaveFocus());
  });

  it("shows the server's German message when throttled (429)", async () => {
    mockApi({
      'POST /api/v1/auth/login': json(
        429,
        { message: 'Zu viele Anmeldeversuche. Bitte warten Sie eine Minute.' },
        { 'Retry-After': '60' },
      ),
    });
    const app = await openLogin();
    await app.user.type(emailField(), 'erika@example.org');
    await app.user.type(passwordField(), 'richtiges-Passwort');
    await app.user.click(screen.getByRole('button', { name: 'Einloggen' }));

    expect(
      await screen.findByText('Zu viele Anmeldeversuche. Bitte warten Sie eine Minute.'),
    ).toBeInTheDocument();
    expect(screen.queryByText(LOGIN_FAILED_MESSAGE)).not.toBeInTheDocument();
  });

  it('shows the German network message when the server cannot be reached', async () => {
    mockApi({ 'POST /api/v1/auth/login': () => Promise.reject(new TypeError('Failed to fetch')) });
    const app = await openLogin();
    await app.user.type(emailField(), 'erika@example.org');
    await app.user.type(passwordField(), 'richtiges-Passwort');
    await app.user.click(screen.getByRole('button', { name: 'Einloggen' }));

    expect(await screen.findByText('Netzwerkfehler – bitte Verbindung prüfen.')).toBeInTheDocument();
  });
});
