import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  FORGOT_PASSWORD_SUCCESS_MESSAGE,
  INVITATION_ACCEPTED_MESSAGE,
  PASSWORD_RESET_SUCCESS_MESSAGE,
  RESET_TOKEN_INVALID_MESSAGE,
} from '@gremienportal/contracts/auth';
import { json, mockApi } from '../../../testing/fetch-mock';
import { makeUser, signIn } from '../../../testing/factories';
import { renderApp } from '../../../testing/render';

const newPassword = () => screen.getByLabelText(/^Neues Passwort$|^Neues Passwort \*/, { selector: 'input' });
const confirmation = () => screen.getByLabelText(/^Neues Passwort bestätigen/, { selector: 'input' });

describe('forgot password page', () => {
  it('replaces the form by the success message', async () => {
    const { requests } = mockApi({
      'POST /api/v1/auth/forgot-password': json(200, { message: FORGOT_PASSWORD_SUCCESS_MESSAGE }),
    });
    const { user } = renderApp('/forgot-password');
    expect(await screen.findByRole('heading', { name: 'Passwort zurücksetzen' })).toBeInTheDocument();

    await user.type(screen.getByLabelText(/E-Mail-Adresse/), 'erika@example.org');
    await user.click(screen.getByRole('button', { name: 'abschicken' }));

    expect(await screen.findByText(FORGOT_PASSWORD_SUCCESS_MESSAGE)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'abschicken' })).not.toBeInTheDocument();
    expect(requests.at(-1)?.body).toEqual({ email: 'erika@example.org' });
  });

  it('validates the e-mail address before sending', async () => {
    const { requests } = mockApi({});
    const { user } = renderApp('/forgot-password');
    await user.click(await screen.findByRole('button', { name: 'abschicken' }));
    expect(await screen.findByText('E-Mail-Adresse ist erforderlich.')).toBeInTheDocument();
    // Only the footer's legal links are asked for (decision 124); nothing is sent.
    expect(requests.filter((request) => request.method !== 'GET')).toHaveLength(0);
  });

  it("shows the server's messages in a red alert", async () => {
    mockApi({
      'POST /api/v1/auth/forgot-password': json(429, {
        message: 'Zu viele Versuche. Bitte warten Sie einen Moment.',
      }),
    });
    const { user } = renderApp('/forgot-password');
    await user.type(await screen.findByLabelText(/E-Mail-Adresse/), 'erika@example.org');
    await user.click(screen.getByRole('button', { name: 'abschicken' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Zu viele Versuche. Bitte warten Sie einen Moment.',
    );
    expect(screen.getByRole('button', { name: 'abschicken' })).toBeInTheDocument();
  });
});

describe('reset password page', () => {
  it('sets the new password with id and token from the link and then shows the success message', async () => {
    const { requests } = mockApi({
      'POST /api/v1/auth/password-reset': json(200, { message: PASSWORD_RESET_SUCCESS_MESSAGE }),
    });
    const { user } = renderApp('/reset-password?id=42&token=t0k3n');
    expect(await screen.findByRole('heading', { name: 'Passwort zurücksetzen' })).toBeInTheDocument();

    await user.type(newPassword(), 'Sommerwiese-7');
    await user.type(confirmation(), 'Sommerwiese-7');
    await user.click(screen.getByRole('button', { name: 'speichern' }));

    expect(await screen.findByText(PASSWORD_RESET_SUCCESS_MESSAGE)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'speichern' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Zur Anmeldung' })).toHaveAttribute('href', '/login');
    expect(requests.at(-1)?.body).toEqual({
      id: 42,
      token: 't0k3n',
      password: 'Sommerwiese-7',
      password_confirmation: 'Sommerwiese-7',
    });
  });

  it("shows the server's messages in a red alert when the link is no longer valid", async () => {
    mockApi({
      'POST /api/v1/auth/password-reset': json(422, {
        message: RESET_TOKEN_INVALID_MESSAGE,
        errors: { token: [RESET_TOKEN_INVALID_MESSAGE] },
      }),
    });
    const { user } = renderApp('/reset-password?id=42&token=abgelaufen');
    await screen.findByRole('button', { name: 'speichern' });
    await user.type(newPassword(), 'Sommerwiese-7');
    await user.type(confirmation(), 'Sommerwiese-7');
    await user.click(screen.getByRole('button', { name: 'speichern' }));

    const alert = await screen.findByRole('alert');
    // Once, although the server repeats it under the token.
    expect(alert.textContent).toBe(RESET_TOKEN_INVALID_MESSAGE);
    expect(screen.getByRole('button', { name: 'speichern' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Neuen Link anfordern' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
  });

  it('puts field errors of a 422 under the password field', async () => {
    mockApi({
      'POST /api/v1/auth/password-reset': json(422, {
        message: 'Die Eingaben sind ungültig.',
        errors: { password: ['Das Passwort darf nicht die eigene E-Mail-Adresse sein.'] },
      }),
    });
    const { user } = renderApp('/reset-password?id=42&token=t0k3n');
    await screen.findByRole('button', { name: 'speichern' });
    await user.type(newPassword(), 'erika@example.org');
    await user.type(confirmation(), 'erika@example.org');
    await user.click(screen.getByRole('button', { name: 'speichern' }));

    expect(
      await screen.findByText('Das Passwort darf nicht die eigene E-Mail-Adresse sein.'),
    ).toBeInTheDocument();
    expect(newPassword()).toHaveAttribute('aria-invalid', 'true');
  });

  it('checks the rules of the contract before sending (length, common passwords, both equal)', async () => {
    const { requests } = mockApi({});
    const { user } = renderApp('/reset-password?id=42&token=t0k3n');
    await screen.findByRole('button', { name: 'speichern' });

    await user.type(newPassword(), 'abc');
    await user.tab();
    expect(await screen.findByText('Passwort muss mindestens 6 Zeichen lang sein.')).toBeInTheDocument();

    // Fixed while typing ("passwor" is long enough), so the common-password rule waits for the blur.
    await user.clear(newPassword());
    await user.type(newPassword(), 'passwort');
    expect(
      screen.queryByText('Dieses Passwort ist zu verbreitet. Bitte ein anderes wählen.'),
    ).not.toBeInTheDocument();
    await user.tab();
    expect(
      await screen.findByText('Dieses Passwort ist zu verbreitet. Bitte ein anderes wählen.'),
    ).toBeInTheDocument();

    await user.clear(newPassword());
    await user.type(newPassword(), 'Sommerwiese-7');
    await user.type(confirmation(), 'Sommerwiese-8');
    await user.click(screen.getByRole('button', { name: 'speichern' }));
    expect(await screen.findByText('Die Passwörter stimmen nicht überein.')).toBeInTheDocument();
    // Only the footer's legal links are asked for (decision 124); nothing is sent.
    expect(requests.filter((request) => request.method !== 'GET')).toHaveLength(0);
  });

  it('explains a link without id or token and offers a new one', async () => {
    renderApp('/reset-password?id=42');
    expect(await screen.findByText(/Der Link ist unvollständig/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'speichern' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Neuen Link anfordern' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
  });

  it('sends signed-in users away', async () => {
    signIn();
    const { router } = renderApp('/reset-password?id=42&token=t0k3n');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(screen.queryByRole('button', { name: 'speichern' })).not.toBeInTheDocument();
  });
});

describe('invitation page', () => {
  const password = () => screen.getByLabelText(/^Passwort$|^Passwort \*/, { selector: 'input' });
  const repeated = () => screen.getByLabelText(/^Passwort bestätigen/, { selector: 'input' });

  it('welcomes the new member, explains the rule, sets the password and signs them in', async () => {
    const member = makeUser({ id: 42, firstname: 'Łucja', lastname: 'Dvořák-Şahin' });
    const { requests } = mockApi({
      'POST /api/v1/auth/password-reset': json(200, {
        message: INVITATION_ACCEPTED_MESSAGE,
        sign_in: { access_token: 'neu-angemeldet', token_type: 'Bearer', user: member },
      }),
    });
    const { user, router } = renderApp('/willkommen?id=42&token=t0k3n');
    expect(
      await screen.findByRole('heading', { name: 'Willkommen im Gremienportal – Passwort festlegen' }),
    ).toBeInTheDocument();
    expect(screen.getByText(/mindestens 6 Zeichen, nicht Ihre E-Mail-Adresse/)).toBeInTheDocument();

    await user.type(password(), 'Sommerwiese-7');
    await user.type(repeated(), 'Sommerwiese-7');
    await user.click(screen.getByRole('button', { name: 'Passwort festlegen' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(localStorage.getItem('access_token')).toBe('neu-angemeldet');
    expect(requests.find((request) => request.method === 'POST')?.body).toEqual({
      id: 42,
      token: 't0k3n',
      password: 'Sommerwiese-7',
      password_confirmation: 'Sommerwiese-7',
    });
  });

  it('sends an account that already has a second factor to the login', async () => {
    mockApi({
      'POST /api/v1/auth/password-reset': json(200, {
        message: INVITATION_ACCEPTED_MESSAGE,
        sign_in: { two_factor_required: true, methods: ['totp'], challenge: 'c' },
      }),
    });
    const { user } = renderApp('/willkommen?id=42&token=t0k3n');
    await user.type(
      await screen.findByLabelText(/^Passwort$|^Passwort \*/, { selector: 'input' }),
      'Sommerwiese-7',
    );
    await user.type(repeated(), 'Sommerwiese-7');
    await user.click(screen.getByRole('button', { name: 'Passwort festlegen' }));
    expect(await screen.findByText(INVITATION_ACCEPTED_MESSAGE)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Zur Anmeldung' })).toHaveAttribute('href', '/login');
    expect(localStorage.getItem('access_token')).toBeNull();
  });

  it('explains a link without id or token', async () => {
    renderApp('/willkommen?token=t0k3n');
    expect(await screen.findByText(/Der Link ist unvollständig/)).toBeInTheDocument();
  });
});
