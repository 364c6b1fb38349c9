import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { TWO_FACTOR_MESSAGES } from '@gremienportal/contracts/two-factor-rules';
import type { Account as AccountFields } from '@gremienportal/contracts/account';
import type { TwoFactorStatus } from '../two-factor.api';

/** GET /account as the account page reads it: the fields and the second factor's state. */
type Account = AccountFields & { two_factor?: TwoFactorStatus };
import { json, mockApi, type MockHandler, type MockReply } from '../../../testing/fetch-mock';
import { signIn, vertreterUser } from '../../../testing/factories';
import { renderApp } from '../../../testing/render';
import { groupSecret, qrImageSource, recoveryCodesText } from '../two-factor.rules';
import { recoveryCodesLeftText } from './two-factor-section';

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const WRONG_PASSWORD = 'Das aktuelle Passwort ist nicht korrekt.';
const QR = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="M0 0h1v1H0z"/></svg>';
const CODES = Array.from({ length: 10 }, (_, i) => `ABCD-EF${String(i).padStart(2, '0')}`);

const status = (overrides: Partial<TwoFactorStatus> = {}): TwoFactorStatus => ({
  totp: false,
  webauthn: 0,
  recovery_codes_left: 0,
  required: false,
  passkeys: [],
  trusted_devices: [],
  ...overrides,
});

const account = (twoFactor: TwoFactorStatus): Account => ({
  id: 7,
  title: 'Frau',
  firstname: 'Erika',
  lastname: 'Mustermann',
  email: 'erika@example.org',
  roles: ['Vertreter'],
  roles_string: 'Vertreter',
  email_visible_to_committees: false,
  two_factor: twoFactor,
});

async function openAccount(twoFactor: TwoFactorStatus, routes: Record<string, MockHandler | MockReply> = {}) {
  signIn(vertreterUser({ email: 'erika@example.org' }));
  const api = mockApi({
    'GET /api/v1/account': json(200, { data: account(twoFactor) }),
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
  await screen.findByRole('heading', { name: 'Zwei-Faktor-Anmeldung' });
  return { ...app, ...api };
}

const bodiesOf = (requests: { method: string; url: string; body: unknown }[], method: string, url: string) =>
  requests.filter((r) => r.method === method && r.url === url).map((r) => r.body);

describe('two-factor rules', () => {
  it('groups the secret in blocks of 4 and keeps the SVG out of the markup', () => {
    expect(groupSecret('JBSWY3DPEHPK3PX')).toBe('JBSW Y3DP EHPK 3PX');
    expect(qrImageSource('<svg a="1"/>')).toBe('data:image/svg+xml;utf8,%3Csvg%20a%3D%221%22%2F%3E');
  });

  it('says how many recovery codes are left with the noun that fits the count', () => {
    expect(recoveryCodesLeftText(10)).toBe('10 Wiederherstellungscodes von 10 übrig');
    expect(recoveryCodesLeftText(1)).toBe('1 Wiederherstellungscode von 10 übrig');
    expect(recoveryCodesLeftText(0)).toBe('0 Wiederherstellungscodes von 10 übrig');
  });

  it('writes the text file with a German header and the date', () => {
    const text = recoveryCodesText(['A-1', 'B-2'], 'erika@example.org', new Date('2026-03-04T10:00:00Z'));
    expect(text.split('\r\n')[0]).toBe(
      'Wiederherstellungscodes für das Gremienportal (erika@example.org), erstellt am 04.03.2026',
    );
    expect(text).toContain('\r\nA-1\r\nB-2\r\n');
  });
});

describe('account page: Zwei-Faktor-Anmeldung', () => {
  it('shows it off, with the notice when the role requires it', async () => {
    await openAccount(status({ required: true }));
    expect(screen.getByText('Ausgeschaltet')).toBeInTheDocument();
    expect(
      screen.getByText(/Für Ihre Rolle ist die Zwei-Faktor-Anmeldung vorgeschrieben/),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Authenticator-App einrichten' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Passkey/ })).not.toBeInTheDocument();
  });

  it('shows the sign-in list only once a required set-up is done, not its refusal', async () => {
    let active = false;
    const app = await openAccount(status({ required: true }), {
      'GET /api/v1/account': () =>
        json(200, { data: account(status({ required: true, totp: active, recovery_codes_left: 10 })) }),
      'GET /api/v1/audit/my-logins': () =>
        active
          ? json(200, { data: [] })
          : json(403, { message: TWO_FACTOR_MESSAGES.setupRequired, code: 'two_factor_setup_required' }),
      'POST /api/v1/account/two-factor/totp': json(200, {
        secret: SECRET,
        otpauth_url: 'otpauth://x',
        qr_svg: QR,
      }),
      'POST /api/v1/account/two-factor/totp/confirm': () => {
        active = true;
        return json(200, { recovery_codes: CODES });
      },
    });
    expect(screen.queryByRole('heading', { name: 'Letzte Anmeldungen' })).not.toBeInTheDocument();
    expect(screen.queryByText('Daten konnten nicht geladen werden')).not.toBeInTheDocument();

    await app.user.click(screen.getByRole('button', { name: 'Authenticator-App einrichten' }));
    await app.user.click(await screen.findByRole('button', { name: 'Weiter' }));
    await app.user.type(await screen.findByLabelText(/^6-stelliger Code/), '123456');
    await app.user.type(
      within(screen.getByRole('dialog')).getByLabelText(/^Aktuelles Passwort/),
      'Mein-Kennwort-1',
    );
    await app.user.click(screen.getByRole('button', { name: 'Bestätigen' }));
    await app.user.click(await screen.findByRole('button', { name: 'Ich habe die Codes sicher aufbewahrt' }));

    expect(await screen.findByText('Noch keine Anmeldungen aufgezeichnet.')).toBeInTheDocument();
    expect(screen.queryByText('Daten konnten nicht geladen werden')).not.toBeInTheDocument();
  });

  it('shows it on, the codes left and the trusted devices', async () => {
    await openAccount(
      status({
        totp: true,
        recovery_codes_left: 1,
        trusted_devices: [
          {
            id: 1,
            label: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0',
            created_at: '2026-03-01T10:00:00Z',
            expires_at: '2026-03-31T10:00:00Z',
          },
        ],
      }),
    );
    expect(screen.getByText('Eingeschaltet mit Authenticator-App')).toBeInTheDocument();
    expect(screen.getByText('1 Wiederherstellungscode von 10 übrig')).toBeInTheDocument();
    const devices = screen.getByRole('list', { name: 'Vertrauenswürdige Geräte' });
    expect(within(devices).getByText('Firefox unter Windows')).toBeInTheDocument();
    expect(within(devices).getByText('Vertraut seit 01.03.2026 · bis 31.03.2026')).toBeInTheDocument();
  });

  it('sets up the app: QR code and grouped secret, a code confirms, then the 10 codes once', async () => {
    const app = await openAccount(status(), {
      'POST /api/v1/account/two-factor/totp': json(200, {
        secret: SECRET,
        otpauth_url: 'otpauth://x',
        qr_svg: QR,
      }),
      'POST /api/v1/account/two-factor/totp/confirm': (request) => {
        const body = request.body as { code: string; current_password: string };
        if (body.current_password !== 'Mein-Kennwort-1') {
          return json(422, { message: WRONG_PASSWORD, errors: { current_password: [WRONG_PASSWORD] } });
        }
        return body.code === '123456'
          ? json(200, { recovery_codes: CODES })
          : json(422, { message: 'Ungültig', errors: { code: [TWO_FACTOR_MESSAGES.codeInvalid] } });
      },
    });
    await app.user.click(screen.getByRole('button', { name: 'Authenticator-App einrichten' }));
    const dialog = await screen.findByRole('dialog', { name: /Schritt 1 von 3: QR-Code scannen/ });
    const qr = await within(dialog).findByRole('img', {
      name: 'QR-Code zum Einrichten der Authenticator-App',
    });
    expect(qr).toHaveAttribute('src', qrImageSource(QR));
    expect(dialog.querySelector('svg path[d="M0 0h1v1H0z"]')).toBeNull();
    expect(within(dialog).getByText('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Schlüssel kopieren' })).toBeInTheDocument();

    await app.user.click(within(dialog).getByRole('button', { name: 'Weiter' }));
    const confirm = await screen.findByRole('dialog', { name: /Schritt 2 von 3: Code eingeben/ });
    const field = within(confirm).getByLabelText(/^6-stelliger Code/);
    expect(field).toHaveAttribute('autocomplete', 'one-time-code');
    const password = within(confirm).getByLabelText(/^Aktuelles Passwort/);
    expect(password).toHaveAttribute('autocomplete', 'current-password');
    // The password is asked again, also in a set-up the role requires (decision 147).
    await app.user.type(field, '123456');
    await app.user.click(within(confirm).getByRole('button', { name: 'Bestätigen' }));
    expect(await within(confirm).findByText('Aktuelles Passwort ist erforderlich.')).toBeInTheDocument();
    await app.user.type(password, 'Falsch-1');
    await app.user.click(within(confirm).getByRole('button', { name: 'Bestätigen' }));
    expect(await within(confirm).findByText(WRONG_PASSWORD)).toBeInTheDocument();
    // The code stays typed when only the password was wrong.
    expect(within(confirm).getByLabelText(/^6-stelliger Code/)).toHaveValue('123456');
    await app.user.clear(password);
    await app.user.type(password, 'Mein-Kennwort-1');
    await app.user.clear(within(confirm).getByLabelText(/^6-stelliger Code/));
    await app.user.type(within(confirm).getByLabelText(/^6-stelliger Code/), '000000');
    await app.user.click(within(confirm).getByRole('button', { name: 'Bestätigen' }));
    expect(await within(confirm).findByText(TWO_FACTOR_MESSAGES.codeInvalid)).toBeInTheDocument();

    await app.user.type(within(confirm).getByLabelText(/^6-stelliger Code/), '123 456');
    await app.user.click(within(confirm).getByRole('button', { name: 'Bestätigen' }));
    const codes = await screen.findByRole('dialog', { name: /Schritt 3 von 3: Wiederherstellungscodes/ });
    const list = within(codes).getByRole('list', { name: 'Wiederherstellungscodes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(CODES);
    expect(bodiesOf(app.requests, 'POST', '/api/v1/account/two-factor/totp/confirm')).toEqual([
      { code: '123456', current_password: 'Falsch-1' },
      { code: '000000', current_password: 'Mein-Kennwort-1' },
      { code: '123456', current_password: 'Mein-Kennwort-1' },
    ]);
    // Shown once: only the acknowledgement closes it.
    expect(within(codes).queryByRole('button', { name: 'Einrichtung abbrechen' })).not.toBeInTheDocument();
    await app.user.click(within(codes).getByRole('button', { name: 'Ich habe die Codes sicher aufbewahrt' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('downloads the recovery codes as a .txt file', async () => {
    let saved: Blob | undefined;
    const original = { create: URL.createObjectURL, revoke: URL.revokeObjectURL };
    URL.createObjectURL = vi.fn((blob: Blob) => {
      saved = blob;
      return 'blob:codes';
    });
    URL.revokeObjectURL = vi.fn();
    onTestFinished(() => {
      URL.createObjectURL = original.create;
      URL.revokeObjectURL = original.revoke;
    });
    let downloadName = '';
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      downloadName = this.download;
    });
    const app = await openAccount(status({ totp: true, recovery_codes_left: 3 }), {
      'POST /api/v1/account/two-factor/recovery-codes': json(200, { recovery_codes: CODES }),
    });
    await app.user.click(screen.getByRole('button', { name: 'Neue Wiederherstellungscodes erzeugen' }));
    const ask = await screen.findByRole('dialog', { name: 'Neue Wiederherstellungscodes erzeugen?' });
    expect(
      within(ask).getByText(/bisherigen Wiederherstellungscodes gelten danach nicht mehr/),
    ).toBeInTheDocument();
    await app.user.click(within(ask).getByRole('button', { name: 'Neue Codes erzeugen' }));
    const shown = await screen.findByRole('dialog', { name: 'Neue Wiederherstellungscodes' });
    await app.user.click(within(shown).getByRole('button', { name: 'Als Textdatei herunterladen' }));

    expect(downloadName).toMatch(/^gremienportal-wiederherstellungscodes-\d{4}-\d{2}-\d{2}\.txt$/);
    expect(saved?.type).toBe('text/plain;charset=utf-8');
    const text = await saved!.text();
    expect(text).toMatch(
      /^Wiederherstellungscodes für das Gremienportal \(erika@example.org\), erstellt am \d\d\.\d\d\.\d{4}/,
    );
    for (const code of CODES) expect(text).toContain(code);
  });

  it('turns it off with password and code, or with a recovery code instead', async () => {
    const app = await openAccount(status({ totp: true, recovery_codes_left: 10 }), {
      'DELETE /api/v1/account/two-factor': (request) =>
        (request.body as { password: string }).password === 'richtig-123'
          ? json(204)
          : json(422, { message: 'Ungültig', errors: { password: [TWO_FACTOR_MESSAGES.passwordWrong] } }),
    });
    await app.user.click(screen.getByRole('button', { name: 'Zwei-Faktor-Anmeldung ausschalten' }));
    const dialog = await screen.findByRole('dialog', { name: 'Zwei-Faktor-Anmeldung ausschalten' });
    await app.user.click(within(dialog).getByRole('button', { name: 'Ausschalten' }));
    expect(await within(dialog).findByText('Passwort ist erforderlich.')).toBeInTheDocument();
    expect(within(dialog).getByText(TWO_FACTOR_MESSAGES.codeFormat)).toBeInTheDocument();

    await app.user.type(within(dialog).getByLabelText(/^Passwort/, { selector: 'input' }), 'falsch-123');
    await app.user.type(within(dialog).getByLabelText(/^6-stelliger Code/), '123456');
    await app.user.click(within(dialog).getByRole('button', { name: 'Ausschalten' }));
    expect(await within(dialog).findByText(TWO_FACTOR_MESSAGES.passwordWrong)).toBeInTheDocument();

    await app.user.click(within(dialog).getByRole('button', { name: 'Wiederherstellungscode verwenden' }));
    await app.user.clear(within(dialog).getByLabelText(/^Passwort/, { selector: 'input' }));
    await app.user.type(within(dialog).getByLabelText(/^Passwort/, { selector: 'input' }), 'richtig-123');
    await app.user.type(within(dialog).getByLabelText(/^Wiederherstellungscode/), 'ABCD-EF01');
    await app.user.click(within(dialog).getByRole('button', { name: 'Ausschalten' }));

    expect(await screen.findByText('Die Zwei-Faktor-Anmeldung ist ausgeschaltet.')).toBeInTheDocument();
    expect(bodiesOf(app.requests, 'DELETE', '/api/v1/account/two-factor')).toEqual([
      { password: 'falsch-123', code: '123456' },
      { password: 'richtig-123', recovery_code: 'ABCD-EF01' },
    ]);
  });

  it('offers a role that must keep it "neu einrichten" instead of "ausschalten", and the new set-up at once', async () => {
    let active = true;
    const app = await openAccount(status({ totp: true, recovery_codes_left: 10, required: true }), {
      'GET /api/v1/account': () =>
        json(200, {
          data: account(status({ required: true, totp: active, recovery_codes_left: active ? 10 : 0 })),
        }),
      'DELETE /api/v1/account/two-factor': () => {
        active = false;
        return json(204);
      },
      'POST /api/v1/account/two-factor/totp': json(200, {
        secret: SECRET,
        otpauth_url: 'otpauth://x',
        qr_svg: QR,
      }),
    });
    expect(
      screen.queryByRole('button', { name: 'Zwei-Faktor-Anmeldung ausschalten' }),
    ).not.toBeInTheDocument();
    await app.user.click(screen.getByRole('button', { name: 'Zwei-Faktor-Anmeldung neu einrichten' }));
    const dialog = await screen.findByRole('dialog', { name: 'Zwei-Faktor-Anmeldung neu einrichten' });
    expect(within(dialog).getByText(/vorgeschrieben, sie lässt sich nicht ausschalten/)).toBeInTheDocument();
    await app.user.type(within(dialog).getByLabelText(/^Passwort/, { selector: 'input' }), 'richtig-123');
    await app.user.type(within(dialog).getByLabelText(/^6-stelliger Code/), '123456');
    await app.user.click(within(dialog).getByRole('button', { name: 'Bisherige beenden' }));

    expect(
      await screen.findByText(
        'Die bisherige Zwei-Faktor-Anmeldung ist beendet. Richten Sie jetzt die neue ein.',
      ),
    ).toBeInTheDocument();
    expect(await screen.findByRole('dialog', { name: /Authenticator-App einrichten/ })).toBeInTheDocument();
    expect(bodiesOf(app.requests, 'DELETE', '/api/v1/account/two-factor')).toEqual([
      { password: 'richtig-123', code: '123456' },
    ]);
  });
});
