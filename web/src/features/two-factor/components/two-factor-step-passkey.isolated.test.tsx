import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { json, mockApi } from '../../../testing/fetch-mock';
import { makeUser } from '../../../testing/factories';
import { renderApp } from '../../../testing/render';

vi.mock('../../../app/routes/files', () => ({ default: () => <h1>Seite files</h1> }));

/** The device's prompt is the browser's; here it answers at once (or is cancelled). */
const prompts = vi.hoisted(() => ({
  get: vi.fn(async (_options: unknown) => ({ id: 'passkey-1', type: 'public-key' })),
}));
vi.mock('../../../lib/passkeys', async (original) => ({
  ...(await original<typeof import('../../../lib/passkeys')>()),
  passkeysSupported: () => true,
  confirmWithPasskey: prompts.get,
}));

const CHALLENGE = 'c'.repeat(43);

async function signInWithPassword(methods: string[]) {
  const api = mockApi({
    'POST /api/v1/auth/login': json(200, { two_factor_required: true, methods, challenge: CHALLENGE }),
    'POST /api/v1/auth/two-factor/webauthn/options': json(200, { challenge: 'prompt-1' }),
    'POST /api/v1/auth/two-factor/webauthn/verify': json(200, {
      access_token: 'tok-3',
      token_type: 'Bearer',
      user: makeUser(),
    }),
    'POST /api/v1/auth/two-factor': json(200, {
      access_token: 'tok-4',
      token_type: 'Bearer',
      user: makeUser(),
    }),
  });
  const app = renderApp('/login');
  await screen.findByRole('heading', { name: 'Einloggen' });
  await app.user.type(screen.getByLabelText(/E-Mail-Adresse/), 'erika@example.org');
  await app.user.type(screen.getByLabelText(/^Passwort/, { selector: 'input' }), 'geheimes-Passwort');
  await app.user.click(screen.getByRole('button', { name: 'Einloggen' }));
  return { ...app, ...api };
}

describe('second sign-in step with a passkey', () => {
  it('opens the device prompt at once and signs in with its answer', async () => {
    const app = await signInWithPassword(['totp', 'webauthn', 'recovery']);
    expect(await screen.findByRole('heading', { name: 'Seite files' })).toBeInTheDocument();
    expect(prompts.get).toHaveBeenCalledWith({ challenge: 'prompt-1' });
    const verify = app.requests.find((r) => r.url === '/api/v1/auth/two-factor/webauthn/verify');
    expect(verify?.body).toEqual({ challenge: CHALLENGE, response: { id: 'passkey-1', type: 'public-key' } });
    expect(window.localStorage.getItem('access_token')).toBe('tok-3');
  });

  it('after a cancelled prompt offers it again, a code or a recovery code', async () => {
    prompts.get.mockRejectedValueOnce(Object.assign(new Error('x'), { name: 'NotAllowedError' }));
    const app = await signInWithPassword(['totp', 'webauthn', 'recovery']);
    expect(
      await screen.findByText(
        'Der Vorgang wurde abgebrochen oder hat zu lange gedauert. Bitte versuchen Sie es erneut.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Mit Passkey bestätigen' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Wiederherstellungscode verwenden' })).toBeInTheDocument();
    await app.user.click(screen.getByRole('button', { name: 'Stattdessen Code eingeben' }));
    await app.user.type(await screen.findByLabelText(/^6-stelliger Code/), '123456');
    await app.user.click(screen.getByRole('button', { name: 'Anmelden' }));
    expect(await screen.findByRole('heading', { name: 'Seite files' })).toBeInTheDocument();
    await waitFor(() => expect(window.localStorage.getItem('access_token')).toBe('tok-4'));
  });

  it('with only a passkey and recovery codes, offers no app code', async () => {
    prompts.get.mockRejectedValueOnce(Object.assign(new Error('x'), { name: 'NotAllowedError' }));
    await signInWithPassword(['webauthn', 'recovery']);
    await screen.findByRole('button', { name: 'Mit Passkey anmelden' });
    expect(screen.queryByRole('button', { name: 'Stattdessen Code eingeben' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Wiederherstellungscode verwenden' })).toBeInTheDocument();
  });
});
