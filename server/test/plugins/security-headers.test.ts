import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../support/build-test-app.ts';
import { createRoleUsers } from '../support/factories.ts';
import { Offload } from '../support/offload.ts';
import { API_HEADERS, DOCUMENT_HEADERS, documentHeaders } from '../../src/plugins/security-headers.ts';

/** Pages get the full document set, API answers the REST set; nothing goes out without one. */
describe('security headers', () => {
  let t: TestApp;
  let webRoot: string;
  let users: Awaited<ReturnType<typeof createRoleUsers>>;
  beforeAll(async () => {
    webRoot = await mkdtemp(join(tmpdir(), 'gremienportal-web-'));
    await writeFile(join(webRoot, 'index.html'), '<!doctype html><title>Portal</title>');
    t = await buildTestApp({ webRoot });
    users = await createRoleUsers(t);
  });
  afterAll(async () => {
    await t.close();
    await rm(webRoot, { recursive: true, force: true });
  });

  it('sends the document set with pages of the web app', async () => {
    for (const url of ['/', '/files', '/login?token=x', '/index.html']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toContain('text/html');
      for (const [name, value] of Object.entries(DOCUMENT_HEADERS))
        expect(res.headers[name], `${url} ${name}`).toBe(value);
    }
    expect(DOCUMENT_HEADERS['content-security-policy']).toContain("script-src 'self'");
  });

  it('sends the API set with every API answer, signed in or not, found or not', async () => {
    const answers = [
      await t.app.inject({ method: 'GET', url: '/api/v1/health' }),
      await t.app.inject({ method: 'GET', url: '/api/v1/tree' }),
      await t.app.inject({ method: 'GET', url: '/api/v1/tree', headers: users.vertreter.headers }),
      await t.app.inject({ method: 'GET', url: '/api/v1/gibt-es-nicht' }),
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: '{kaputt',
        headers: { 'content-type': 'application/json' },
      }),
    ];
    expect(answers.map((res) => res.statusCode)).toEqual([200, 401, 200, 404, 400]);
    for (const res of answers) {
      for (const [name, value] of Object.entries(API_HEADERS)) expect(res.headers[name], name).toBe(value);
      expect(res.headers['cache-control']).toBe('no-store');
    }
    expect(API_HEADERS['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
  });
});

describe('security headers with DOWNLOAD_OFFLOAD=s3 (decision 135)', () => {
  it('let the web app follow a download to the object store, and nowhere else', () => {
    const headers = documentHeaders(['https://s3.example.org']);
    expect(headers['content-security-policy']).toContain("connect-src 'self' https://s3.example.org;");
    const others = (policy: string) => policy.split(';').filter((part) => !part.startsWith('connect-src'));
    expect(others(headers['content-security-policy']!)).toEqual(
      others(DOCUMENT_HEADERS['content-security-policy']!),
    );
    expect(documentHeaders([])).toBe(DOCUMENT_HEADERS);
  });

  it('name the configured store in the policy of every page', async () => {
    const offload = await Offload.create('s3');
    const webRoot = await mkdtemp(join(tmpdir(), 'gremienportal-web-'));
    await writeFile(join(webRoot, 'index.html'), '<!doctype html><title>Portal</title>');
    const t = await buildTestApp({ webRoot, env: offload.env });
    try {
      const res = await t.app.inject({ method: 'GET', url: '/files' });
      expect(res.headers['content-security-policy']).toContain(
        `connect-src 'self' ${offload.env.S3_ENDPOINT};`,
      );
    } finally {
      await t.close();
      await offload.close();
      await rm(webRoot, { recursive: true, force: true });
    }
  });
});
