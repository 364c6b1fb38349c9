import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { TWO_FACTOR_MESSAGES, twoFactorLockedMessage } from '@gremienportal/contracts/two-factor-rules';
import { json, mockApi, type MockHandler, type MockReply } from '../../../testing/fetch-mock';
import { makeUser } from '../../../testing/factories';
import { renderApp } from '../../../testing/render';

vi.mock('../../../app/routes/files', () => ({ default: () => <h1>Seite files</h1> }));

const CHALLENGE = 'c'.repeat(43);
const challenged = json(200, {
  two_factor_required: true,
  methods: ['totp', 'recovery'],
  challenge: CHALLENGE,
});
const signedIn = (extra: object = {}) =>
  json(200, { access_token: 'tok-2', token_type: 'Bearer', user: makeUser(), ...extra });

const codeField = () => screen.getByLabelText(/^6-stelliger Code/);
const loginBodies = (requests: { url: string; body: unknown }[]) =>
  requests.filter((request) => request.url === '/api/v1/auth/login').map((request) => request.body);
const secondStepBodies = (requests: { url: string; body: unknown }[]) =>
  requests.filter((request) => request.url === '/api/v1/auth/two-factor').map((request) => request.body);

/** Signs in with the password and waits for the second step. */
async function reachSecondStep(
  twoFactor: MockHandler | MockReply,
  login: MockHandler | MockReply = challenged,
  email = 'Erika@Example.org',
) {
  const api = mockApi({ 'POST /api/v1/auth/login': login, 'POST /api/v1/auth/two-factor': twoFactor });
  const app = renderApp('/login');
  await screen.findByRole('heading', { name: 'Einloggen' });
  await app.user.type(screen.getByLabelText(/E-Mail-Adresse/), email);
  await app.user.type(screen.getByLabelText(/^Passwort/, { selector: 'input' }), 'geheimes-Passwort');
  await app.user.click(screen.getByRole('button', { name: 'Einloggen' }));
  await screen.findByRole('heading', { name: 'Bestätigungscode' });
  return { ...app, ...api };
}

describe('second sign-in step', () => {
  it('asks for the 6-digit code with the right input hints and signs in with it', async () => {
    const app = await reachSecondStep(signedIn());
    const field = codeField();
    expect(field).toHaveAttribute('inputmode', 'numeric');
    expect(field).toHaveAttribute('autocomplete', 'one-time-code');
    await waitFor(() => expect(field).toHaveFocus());
    expect(screen.getByRole('checkbox', { name: /Diesem Gerät 30 Tage vertrauen/ })).not.toBeChecked();

    await app.user.type(field, '123 456');
    await app.user.click(screen.getByRole('button', { name: 'Anmelden' }));

    expect(await screen.findByRole('heading', { name: 'Seite files' })).toBeInTheDocument();
    expect(secondStepBodies(app.requests)).toEqual([{ challenge: CHALLENGE, code: '123456' }]);
    expect(window.localStorage.getItem('access_token')).toBe('tok-2');
    expect(window.localStorage.getItem('gp.device.erika@example.org')).toBeNull();
  });

  it('checks the code format before asking the server', async () => {
    const app = await reachSecondStep(signedIn());
    await app.user.type(codeField(), '12345');
    await app.user.click(screen.getByRole('button', { name: 'Anmelden' }));
    expect(await screen.findByText(TWO_FACTOR_MESSAGES.codeFormat)).toBeInTheDocument();
    expect(secondStepBodies(app.requests)).toHaveLength(0);
  });

  it('switches to a recovery code and back', async () => {
    const app = await reachSecondStep(signedIn());
    await app.user.click(screen.getByRole('button', { name: 'Wiederherstellungscode verwenden' }));
    const field = screen.getByLabelText(/^Wiederherstellungscode/);
    await waitFor(() => expect(field).toHaveFocus());
    await app.user.click(screen.getByRole('button', { name: 'Stattdessen Code eingeben' }));
    expect(codeField()).toBeInTheDocument();
    await app.user.click(screen.getByRole('button', { name: 'Wiederherstellungscode verwenden' }));

    await app.user.type(screen.getByLabelText(/^Wiederherstellungscode/), ' ABCD-EFGH ');
    await app.user.click(screen.getByRole('button', { name: 'Anmelden' }));
    expect(await screen.findByRole('heading', { name: 'Seite files' })).toBeInTheDocument();
    expect(secondStepBodies(app.requests)).toEqual([{ challenge: CHALLENGE, recovery_code: 'ABCD-EFGH' }]);
  });

  it("shows the server's message for a wrong code and lets the member try again", async () => {
    const app = await reachSecondStep(json(401, { message: TWO_FACTOR_MESSAGES.codeInvalid }));
    await app.user.type(codeField(), '000000');
    await app.user.click(screen.getByRole('button', { name: 'Anmelden' }));

    expect(await screen.findByText(TWO_FACTOR_MESSAGES.codeInvalid)).toBeInTheDocument();
    expect(codeField()).toHaveValue('');
    await waitFor(() => expect(codeField()).toHaveFocus());
    expect(window.localStorage.getItem('access_token')).toBeNull();
    expect(app.router.state.location.pathname).toBe('/login');
  });

  it('goes back to the password step with the message when the challenge has expired', async () => {
    const app = await reachSecondStep(json(401, { message: TWO_FACTOR_MESSAGES.challengeInvalid }));
    await app.user.type(codeField(), '123456');
    await app.user.click(screen.getByRole('button', { name: 'Anmelden' }));

    expect(await screen.findByText(TWO_FACTOR_MESSAGES.challengeInvalid)).toBeInTheDocument();
    expect(screen.getByLabelText(/E-Mail-Adresse/)).toHaveValue('Erika@Example.org');
    expect(screen.getByLabelText(/^Passwort/, { selector: 'input' })).toHaveValue('');
    expect(screen.queryByRole('heading', { name: 'Bestätigungscode' })).not.toBeInTheDocument();
  });

  it('goes back to the password step with the wait when the second step is locked', async () => {
    const app = await reachSecondStep(
      json(429, { message: twoFactorLockedMessage(720) }, { 'Retry-After': '720' }),
    );
    await app.user.type(codeField(), '123456');
    await app.user.click(screen.getByRole('button', { name: 'Anmelden' }));
    expect(await screen.findByText(/Bitte versuchen Sie es in 12 Minuten erneut/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Einloggen' })).toBeInTheDocument();
  });

  it('"Zurück zur Anmeldung" returns to the password step', async () => {
    const app = await reachSecondStep(signedIn());
    await app.user.click(screen.getByRole('button', { name: 'Zurück zur Anmeldung' }));
    expect(await screen.findByRole('button', { name: 'Einloggen' })).toBeInTheDocument();
    expect(screen.getByLabelText(/E-Mail-Adresse/)).toHaveValue('Erika@Example.org');
  });

  it('trusting the device stores its token per address and sends it with the next sign-in', async () => {
    const app = await reachSecondStep(signedIn({ device_token: 'geraet-123' }));
    await app.user.click(screen.getByRole('checkbox', { name: /Diesem Gerät 30 Tage vertrauen/ }));
    await app.user.type(codeField(), '123456');
    await app.user.click(screen.getByRole('button', { name: 'Anmelden' }));
    expect(await screen.findByRole('heading', { name: 'Seite files' })).toBeInTheDocument();
    expect(secondStepBodies(app.requests)).toEqual([
      { challenge: CHALLENGE, code: '123456', trust_device: true },
    ]);
    expect(window.localStorage.getItem('gp.device.erika@example.org')).toBe('geraet-123');
    app.unmount();

    // Signed out again, the same address sends the token and needs no second step.
    window.localStorage.removeItem('access_token');
    window.localStorage.removeItem('user');
    const next = mockApi({ 'POST /api/v1/auth/login': signedIn() });
    const again = renderApp('/login');
    await screen.findByRole('heading', { name: 'Einloggen' });
    await again.user.type(screen.getByLabelText(/E-Mail-Adresse/), 'erika@example.org');
    await again.user.type(screen.getByLabelText(/^Passwort/, { selector: 'input' }), 'geheimes-Passwort');
    await again.user.click(screen.getByRole('button', { name: 'Einloggen' }));
    expect(await screen.findByRole('heading', { name: 'Seite files' })).toBeInTheDocument();
    expect(loginBodies(next.requests)).toEqual([
      { email: 'erika@example.org', password: 'geheimes-Passwort', device_token: 'geraet-123' },
    ]);
  });

  it("sends no other address's device token and forgets one the server no longer accepts", async () => {
    window.localStorage.setItem('gp.device.andere@example.org', 'fremd');
    window.localStorage.setItem('gp.device.erika@example.org', 'abgelaufen');
    const app = await reachSecondStep(signedIn());
    expect(loginBodies(app.requests)).toEqual([
      { email: 'erika@example.org', password: 'geheimes-Passwort', device_token: 'abgelaufen' },
    ]);
    expect(window.localStorage.getItem('gp.device.erika@example.org')).toBeNull();
    expect(window.localStorage.getItem('gp.device.andere@example.org')).toBe('fremd');
  });
});
