import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, readDotEnv } from '../../src/config.ts';

function configError(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('loadConfig hätte scheitern müssen');
}

describe('configuration', () => {
  it('starts with the documented defaults on an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      NODE_ENV: 'production',
      PORT: 3000,
      HOST: '127.0.0.1',
      DATA_DIR: './data',
      PUBLIC_URL: 'http://localhost:3000',
      MAX_UPLOAD_MB: 100,
      INITIAL_ADMIN_EMAIL: 'admin@example.org',
      DEMO: false,
      SESSION_IDLE_MINUTES: 60,
      SESSION_ABSOLUTE_HOURS: 12,
      LOGIN_MAX_ATTEMPTS: 5,
      LOGIN_MAX_FAILURES_PER_CLIENT: 30,
      LOGIN_MAX_FAILURES_PER_ACCOUNT: 100,
      TRUST_PROXY: false,
      STORAGE: 'disk',
      DOWNLOAD_OFFLOAD: 'none',
      CONTACT_AUFSICHTSRAT: 'aufsichtsrat@example.org',
      CONTACT_VERTRETER: 'vertreter@example.org',
      IMPRINT_URL: 'https://www.example.org/impressum',
      PRIVACY_URL: 'https://www.example.org/datenschutz',
      SHUTDOWN_TIMEOUT_SECONDS: 10,
    });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.SMTP_URL).toBeUndefined();
    expect(config.REDIS_URL).toBeUndefined();
    expect(config.INITIAL_ADMIN_PASSWORD).toBeUndefined();
  });

  it('reads numbers, switches and URLs from their text form', () => {
    const config = loadConfig({
      PORT: '8080',
      MAX_UPLOAD_MB: '250',
      LOGIN_MAX_ATTEMPTS: '3',
      LOGIN_MAX_FAILURES_PER_CLIENT: '12',
      LOGIN_MAX_FAILURES_PER_ACCOUNT: '40',
      PUBLIC_URL: 'https://portal.konsum.example//',
      DEMO: '1',
      TRUST_PROXY: 'true',
      DATABASE_URL: 'postgres://portal@db/portal',
      SMTP_URL: 'smtps://mail.konsum.example',
    });
    expect(config).toMatchObject({
      PORT: 8080,
      MAX_UPLOAD_MB: 250,
      LOGIN_MAX_ATTEMPTS: 3,
      LOGIN_MAX_FAILURES_PER_CLIENT: 12,
      LOGIN_MAX_FAILURES_PER_ACCOUNT: 40,
      PUBLIC_URL: 'https://portal.konsum.example',
      DEMO: true,
      TRUST_PROXY: 'loopback',
      DATABASE_URL: 'postgres://portal@db/portal',
      SMTP_URL: 'smtps://mail.konsum.example',
    });
    expect(loadConfig({ DEMO: '0', TRUST_PROXY: 'false' })).toMatchObject({
      DEMO: false,
      TRUST_PROXY: false,
    });
    // The proxies' own addresses: only what they append is believed.
    expect(loadConfig({ TRUST_PROXY: '10.0.0.2, 10.1.0.0/16' }).TRUST_PROXY).toBe('10.0.0.2,10.1.0.0/16');
    expect(() => loadConfig({ TRUST_PROXY: 'alle' })).toThrow(/TRUST_PROXY/);
  });

  it('treats empty optional values as unset', () => {
    const config = loadConfig({ DATABASE_URL: '', SMTP_URL: '', REDIS_URL: '', DEMO: '' });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.SMTP_URL).toBeUndefined();
    expect(config.REDIS_URL).toBeUndefined();
    expect(config.DEMO).toBe(false);
  });

  it('stops with a message that names every bad variable', () => {
    const message = configError({
      PORT: 'achtzig',
      DATABASE_URL: 'mysql://db/portal',
      DEMO: 'ja',
      LOGIN_MAX_ATTEMPTS: '0',
    });
    expect(message.startsWith('Ungültige Konfiguration:')).toBe(true);
    for (const name of ['PORT', 'DATABASE_URL', 'DEMO', 'LOGIN_MAX_ATTEMPTS']) {
      expect(message).toMatch(new RegExp(`^  ${name}: `, 'm'));
    }
    expect(message).toContain('DATABASE_URL: muss mit postgres:// beginnen');
  });

  it.each([
    ['PORT', '70000'],
    ['PUBLIC_URL', 'kein-url'],
    ['INITIAL_ADMIN_EMAIL', 'admin'],
    ['INITIAL_ADMIN_PASSWORD', 'kurz'],
    ['SMTP_URL', 'http://mail.example'],
    ['REDIS_URL', 'localhost:6379'],
    ['STORAGE', 'ftp'],
    ['DOWNLOAD_OFFLOAD', 'apache'],
    ['LOG_LEVEL', 'laut'],
    ['CONTACT_VERTRETER', 'keine-adresse'],
    ['SESSION_IDLE_MINUTES', '-5'],
    ['SHUTDOWN_TIMEOUT_SECONDS', '0'],
    ['SHUTDOWN_TIMEOUT_SECONDS', 'zehn'],
  ])('refuses %s=%s', (name, value) => {
    expect(configError({ [name]: value })).toContain(`${name}: `);
  });
});

describe('DOWNLOAD_OFFLOAD (decision 135)', () => {
  const s3 = { STORAGE: 's3', S3_BUCKET: 'dokumente' };

  it('takes nginx with disk storage and s3 with S3 storage', () => {
    expect(loadConfig({ DOWNLOAD_OFFLOAD: 'nginx' }).DOWNLOAD_OFFLOAD).toBe('nginx');
    expect(loadConfig({ ...s3, DOWNLOAD_OFFLOAD: 's3' }).DOWNLOAD_OFFLOAD).toBe('s3');
    expect(loadConfig({ ...s3, DOWNLOAD_OFFLOAD: 'none' }).DOWNLOAD_OFFLOAD).toBe('none');
  });

  it('refuses the combinations where the other side cannot read the files, in German', () => {
    expect(configError({ ...s3, DOWNLOAD_OFFLOAD: 'nginx' })).toContain(
      'DOWNLOAD_OFFLOAD: nginx geht nur mit STORAGE=disk (nginx liest die Dateien aus DATA_DIR/files)',
    );
    expect(configError({ DOWNLOAD_OFFLOAD: 's3' })).toContain(
      'DOWNLOAD_OFFLOAD: s3 geht nur mit STORAGE=s3 (der Objektspeicher sendet die Dateien selbst)',
    );
  });
});

describe('.env file', () => {
  const names = ['GP_CONFIG_TEST_A', 'GP_CONFIG_TEST_B'];
  let dir: string | undefined;
  afterEach(async () => {
    for (const name of names) delete process.env[name];
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('fills unset variables and leaves set ones alone', async () => {
    dir = await mkdtemp(join(tmpdir(), 'gremienportal-env-'));
    const file = join(dir, '.env');
    await writeFile(file, 'GP_CONFIG_TEST_A=aus-der-datei\nGP_CONFIG_TEST_B=aus-der-datei\n');
    process.env.GP_CONFIG_TEST_B = 'gesetzt';
    readDotEnv(file);
    expect(process.env.GP_CONFIG_TEST_A).toBe('aus-der-datei');
    expect(process.env.GP_CONFIG_TEST_B).toBe('gesetzt');
  });

  it('is optional', () => {
    expect(() => readDotEnv(join(tmpdir(), 'gibt-es-nicht', '.env'))).not.toThrow();
  });
});
