import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config.ts';
import { S3Storage, s3ClientFromConfig } from '../../src/storage/s3-storage.ts';
import { loggerOptions } from '../../src/plugins/logging.ts';
import { buildTestApp } from '../support/build-test-app.ts';
import { createUser } from '../support/factories.ts';
import { findLeakedTokens, LOG_CAPTURE_ENV } from '../support/log-capture.ts';

/**
 * No token in any log line (decision 136). The search itself runs over the whole suite's log after the
 * last test (log-capture.global.ts); these tests prove that it can fail and that the capture it
 * relies on is live.
 */
describe('the search for tokens in the log', () => {
  const token = 'q7Vd0nX3_kR9-ZpLw2YtB8cHs6UeGm1AfJiOvN4xK5a';
  const other = 'Zz9yY8xX7wW6vV5uU4tT3sS2rR1qQ0pP_oO-nNmMlLk';

  it('finds a token wherever it sits in a line', () => {
    const log = [
      JSON.stringify({ level: 30, msg: 'request completed', req: { url: '/api/v1/files' } }),
      JSON.stringify({
        level: 30,
        msg: 'E-Mail als Datei abgelegt',
        links: [`http://portal.test/reset-password?id=3&token=${token}`],
      }),
      JSON.stringify({ level: 10, msg: 'Sitzung', authorization: `Bearer ${other}` }),
      `plain text ${token}`,
      `prefix-${token}-suffix`,
    ];
    const leaks = findLeakedTokens([token, other], log);
    expect(leaks.map((leak) => leak.line)).toEqual([log[1], log[2], log[3], log[4]]);
    expect(leaks.map((leak) => leak.token)).toEqual([token, other, token, token]);
  });

  it('passes a clean log and does not mistake a part of a token for one', () => {
    const log = [
      JSON.stringify({ msg: 'request completed', req: { url: '/api/v1/calendar/[verborgen]' } }),
      `half ${token.slice(0, 30)} only`,
      `changed ${token.slice(0, -1)}#`,
    ];
    expect(findLeakedTokens([token], log)).toEqual([]);
    expect(findLeakedTokens([], log)).toEqual([]);
  });

  it('refuses secrets it could not find reliably', () => {
    expect(() => findLeakedTokens(['kurz'], [])).toThrow('Zu kurzes Geheimnis');
    expect(() => findLeakedTokens(['kein base64 mit Leerzeichen'], [])).toThrow('URL-sicheres Base64');
  });

  it('redacts the headers a plugin logs at trace level (the busboy options of an upload)', () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(chunk.toString('utf8'));
        callback();
      },
    });
    const options = loggerOptions(configSchema.parse({ LOG_LEVEL: 'trace' })) as pino.LoggerOptions;
    const logger = pino(options, stream);
    logger.trace(
      { busboyOptions: { headers: { authorization: `Bearer ${token}`, cookie: `device=${other}` } } },
      'Providing options to busboy',
    );
    logger.info({ device_token: other }, 'Gerät');
    expect(lines).toHaveLength(2);
    expect(findLeakedTokens([token, other], lines)).toEqual([]);
  });

  it('searches for the signature of every presigned download address as well', async () => {
    const storage = new S3Storage({
      client: s3ClientFromConfig(
        configSchema.parse({
          STORAGE: 's3',
          S3_BUCKET: 'dokumente',
          S3_ENDPOINT: 'http://127.0.0.1:9',
          S3_ACCESS_KEY_ID: 'schluessel',
          S3_SECRET_ACCESS_KEY: 'geheimnis',
          S3_FORCE_PATH_STYLE: 'true',
        }),
      ),
      bucket: 'dokumente',
    });
    try {
      const url = await storage.directUrl('AbCdEfGhIjKlMnOpQr', {
        contentType: 'application/pdf',
        contentDisposition: 'attachment; filename="a.pdf"',
        cacheControl: 'private, no-store',
        expiresInSeconds: 60,
      });
      const signature = new URL(url).searchParams.get('X-Amz-Signature');
      expect(signature).toMatch(/^[0-9a-f]{64}$/);
      const dir = process.env[LOG_CAPTURE_ENV]!;
      const tokens = readFileSync(join(dir, `tokens-${process.pid}.txt`), 'utf8').split('\n');
      expect(tokens).toContain(signature);
      expect(findLeakedTokens([signature!], [`{"msg":"weitergeleitet","location":"${url}"}`])).toHaveLength(
        1,
      );
    } finally {
      storage.close();
    }
  });

  it('captures the log of test apps and the tokens they issue', async () => {
    const dir = process.env[LOG_CAPTURE_ENV];
    expect(dir, 'the global setup sets up the capture').toBeTruthy();
    const t = await buildTestApp();
    try {
      const user = await createUser(t, { roles: ['Vertreter'] });
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: user.email, password: user.password },
      });
      expect(res.statusCode, res.body).toBe(200);
      const issued = res.json().data?.access_token ?? res.json().access_token;
      expect(issued).toMatch(/^[A-Za-z0-9_-]{43}$/);

      const tokens = readFileSync(join(dir!, `tokens-${process.pid}.txt`), 'utf8').split('\n');
      expect(tokens).toContain(issued);
      expect(tokens).toContain(user.token);
      const logFile = join(dir!, `log-${process.pid}.ndjson`);
      expect(existsSync(logFile)).toBe(true);
      const lines = readFileSync(logFile, 'utf8').split('\n').filter(Boolean);
      expect(lines.some((line) => line.includes('"url":"/api/v1/auth/login"'))).toBe(true);
      expect(findLeakedTokens([issued, user.token], lines)).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
