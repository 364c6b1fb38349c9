import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Account as AccountFields } from '@gremienportal/contracts/account';
import type { TwoFactorStatus } from '../two-factor.api';

/** GET /account as the account page reads it: the fields and the second factor's state. */
type Account = AccountFields & { two_factor?: TwoFactorStatus };
import { json, mockApi, type MockHandler, type MockReply } from '../../../testing/fetch-mock';
import { signIn, vertreterUser } from '../../../testing/factories';
import { renderApp } from '../../../testing/render';
import { activeMethodsText } from './two-factor-section';

/** The device's prompt is the browser's; here it answers at once (or is cancelled). */
const prompts = vi.hoisted(() => ({
  create: vi.fn(async (_options: unknown) => ({ id: 'neuer-passkey', type: 'public-key' })),
  get: vi.fn(async (_options: unknown) => ({ id: 'passkey-1', type: 'public-key' })),
}));
vi.mock('../../../lib/passkeys', async (original) => ({
  ...(await original<typeof import('../../../lib/passkeys')>()),
  passkeysSupported: () => true,
  createPasskey: prompts.create,
  confirmWithPasskey: prompts.get,
}));

const CODES = Array.from({ length: 10 }, (_, i) => `WXYZ-AB${String(i).padStart(2, '0')}`);
const KEY = { id: 4, name: 'Laptop', created_at: '2026-03-01T10:00:00Z', last_used_at: null };

const status = (overrides: Partial<TwoFactorStatus> = {}): TwoFactorStatus => ({
  totp: false,
  webauthn: 0,
  recovery_codes_left: 0,
  required: false,
  passkeys: [],
  trusted_devices: [],
  ...overrides,
});

async function openAccount(twoFactor: TwoFactorStatus, routes: Record<string, MockHandler | MockReply> = {}) {
  signIn(vertreterUser({ email: 'erika@example.org' }));
  const account: Account = {
    id: 7,
    title: 'Frau',
    firstname: 'Erika',
    lastname: 'Mustermann',
    email: 'erika@example.org',
    roles: ['Vertreter'],
    roles_string: 'Vertreter',
    email_visible_to_committees: false,
    two_factor: twoFactor,
  };
  const api = mockApi({
    'GET /api/v1/account': json(200, { data: account }),
    'GET /api/v1/audit/my-logins': json(200, { data: [] }),
    // The account page shows the calendar feed's state too (decision 130).
    'GET /api/v1/account/calendar-feed': json(200, {
      data: { active: false, created_at: null, last_used_at: null },
    }),
    ...routes,
  });
  const app = renderApp('/account');
  await screen.findByRole('heading', { name: 'Zwei-Faktor-Anmeldung' });
  return { ...app, ...api };
}

describe('account page: passkeys', () => {
  it('names what protects the account with the right number', () => {
    expect(activeMethodsText({ totp: true, webauthn: 0 })).toBe('Eingeschaltet mit Authenticator-App');
    expect(activeMethodsText({ totp: false, webauthn: 1 })).toBe('Eingeschaltet mit Passkey');
    expect(activeMethodsText({ totp: true, webauthn: 2 })).toBe(
      'Eingeschaltet mit Authenticator-App und 2 Passkeys',
    );
  });

  it('adds the first passkey with a name, then shows the recovery codes once', async () => {
    const app = await openAccount(status(), {
      'POST /api/v1/account/two-factor/webauthn/registration-options': json(200, { challenge: 'abc' }),
      'POST /api/v1/account/two-factor/webauthn/registration': json(200, {
        passkey: { ...KEY, name: 'Büro-Laptop' },
        recovery_codes: CODES,
      }),
    });
    await app.user.click(screen.getByRole('button', { name: 'Passkey hinzufügen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Passkey hinzufügen' });
    const name = within(dialog).getByLabelText(/Name des Passkeys/);
    await app.user.clear(name);
    await app.user.click(within(dialog).getByRole('button', { name: 'Weiter' }));
    expect(within(dialog).getByText('Bitte einen Namen für den Passkey angeben.')).toBeInTheDocument();
    expect(within(dialog).getByText('Aktuelles Passwort ist erforderlich.')).toBeInTheDocument();
    await app.user.type(name, 'Büro-Laptop');
    await app.user.type(within(dialog).getByLabelText(/^Aktuelles Passwort/), 'Mein-Kennwort-1');
    await app.user.click(within(dialog).getByRole('button', { name: 'Weiter' }));

    const codes = await screen.findByRole('dialog', { name: 'Wiederherstellungscodes aufbewahren' });
    expect(
      within(codes)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(CODES);
    expect(prompts.create).toHaveBeenCalledWith({ challenge: 'abc' });
    const asked = app.requests.find((r) => r.url.endsWith('/webauthn/registration-options'));
    expect(asked?.body).toEqual({ current_password: 'Mein-Kennwort-1' });
    const sent = app.requests.find((r) => r.url === '/api/v1/account/two-factor/webauthn/registration');
    expect(sent?.body).toEqual({
      name: 'Büro-Laptop',
      response: { id: 'neuer-passkey', type: 'public-key' },
    });
    await app.user.click(within(codes).getByRole('button', { name: 'Ich habe die Codes sicher aufbewahrt' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('says in German when the device prompt was cancelled, and sends nothing', async () => {
    prompts.create.mockRejectedValueOnce(Object.assign(new Error('x'), { name: 'NotAllowedError' }));
    const app = await openAccount(status({ totp: true }), {
      'POST /api/v1/account/two-factor/webauthn/registration-options': json(200, { challenge: 'abc' }),
    });
    await app.user.click(screen.getByRole('button', { name: 'Passkey hinzufügen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Passkey hinzufügen' });
    await app.user.type(within(dialog).getByLabelText(/^Aktuelles Passwort/), 'Mein-Kennwort-1');
    await app.user.click(within(dialog).getByRole('button', { name: 'Weiter' }));
    expect(
      await within(dialog).findByText(
        'Der Vorgang wurde abgebrochen oder hat zu lange gedauert. Bitte versuchen Sie es erneut.',
      ),
    ).toBeInTheDocument();
    expect(app.requests.some((r) => r.url.endsWith('/webauthn/registration'))).toBe(false);
  });

  it('asks for the password first: a wrong one shows under the field and opens no device prompt', async () => {
    const wrong = 'Das aktuelle Passwort ist nicht korrekt.';
    prompts.create.mockClear();
    const app = await openAccount(status({ totp: true }), {
      'POST /api/v1/account/two-factor/webauthn/registration-options': json(422, {
        message: wrong,
        errors: { current_password: [wrong] },
      }),
    });
    await app.user.click(screen.getByRole('button', { name: 'Passkey hinzufügen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Passkey hinzufügen' });
    const password = within(dialog).getByLabelText(/^Aktuelles Passwort/);
    await app.user.type(password, 'Falsch-1');
    await app.user.click(within(dialog).getByRole('button', { name: 'Weiter' }));
    expect(await within(dialog).findByText(wrong)).toBeInTheDocument();
    expect(password).toHaveValue('Falsch-1');
    expect(prompts.create).not.toHaveBeenCalled();
    expect(app.requests.some((r) => r.url.endsWith('/webauthn/registration'))).toBe(false);
  });

  it('lists passkeys; removes one after asking, but offers no removal of the only factor', async () => {
    const app = await openAccount(
      status({
        totp: true,
        webauthn: 1,
        passkeys: [{ ...KEY, last_used_at: '2026-03-05T10:00:00Z' }],
        recovery_codes_left: 10,
      }),
      { 'DELETE /api/v1/account/two-factor/webauthn/4': json(204) },
    );
    const list = screen.getByRole('list', { name: 'Passkeys' });
    expect(within(list).getByText('Laptop')).toBeInTheDocument();
    expect(
      within(list).getByText('Hinzugefügt am 01.03.2026 · zuletzt verwendet am 05.03.2026'),
    ).toBeInTheDocument();
    await app.user.click(within(list).getByRole('button', { name: 'Passkey „Laptop“ entfernen' }));
    const confirm = await screen.findByRole('dialog', { name: 'Passkey „Laptop“ entfernen?' });
    await app.user.click(within(confirm).getByRole('button', { name: 'Entfernen' }));
    await waitFor(() =>
      expect(app.requests.some((r) => r.method === 'DELETE' && r.url.endsWith('/webauthn/4'))).toBe(true),
    );
  });

  it('keeps the only passkey, and turns the factor off with a passkey instead of a code', async () => {
    const app = await openAccount(status({ webauthn: 1, passkeys: [KEY], recovery_codes_left: 10 }), {
      'POST /api/v1/account/two-factor/webauthn/confirm-options': json(200, { challenge: 'zzz' }),
      'DELETE /api/v1/account/two-factor': json(204),
    });
    expect(screen.getByText('Eingeschaltet mit Passkey')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /entfernen/ })).not.toBeInTheDocument();
    await app.user.click(screen.getByRole('button', { name: 'Zwei-Faktor-Anmeldung ausschalten' }));
    const dialog = await screen.findByRole('dialog', { name: 'Zwei-Faktor-Anmeldung ausschalten' });
    expect(within(dialog).queryByLabelText(/Code aus der Authenticator-App/)).not.toBeInTheDocument();
    expect(
      within(dialog).getByRole('button', { name: 'Wiederherstellungscode verwenden' }),
    ).toBeInTheDocument();
    await app.user.type(within(dialog).getByLabelText(/^Passwort/, { selector: 'input' }), 'mein-Passwort-1');
    await app.user.click(within(dialog).getByRole('button', { name: 'Ausschalten' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(prompts.get).toHaveBeenCalledWith({ challenge: 'zzz' });
    const sent = app.requests.find((r) => r.method === 'DELETE' && r.url === '/api/v1/account/two-factor');
    expect(sent?.body).toEqual({
      password: 'mein-Passwort-1',
      webauthn: { id: 'passkey-1', type: 'public-key' },
    });
  });

  it('ends the trust of one device after asking', async () => {
    const app = await openAccount(
      status({
        totp: true,
        recovery_codes_left: 10,
        trusted_devices: [
          {
            id: 9,
            label: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/604.1',
            created_at: '2026-03-01T10:00:00Z',
            expires_at: '2026-03-31T10:00:00Z',
          },
        ],
      }),
      { 'DELETE /api/v1/account/two-factor/trusted-devices/9': json(204) },
    );
    await app.user.click(
      screen.getByRole('button', {
        name: 'Safari unter iPhone (vertraut seit 01.03.2026) nicht mehr vertrauen',
      }),
    );
    const confirm = await screen.findByRole('dialog', { name: 'Safari unter iPhone nicht mehr vertrauen?' });
    await app.user.click(within(confirm).getByRole('button', { name: 'Nicht mehr vertrauen' }));
    await waitFor(() =>
      expect(app.requests.some((r) => r.method === 'DELETE' && r.url.endsWith('/trusted-devices/9'))).toBe(
        true,
      ),
    );
  });
});
