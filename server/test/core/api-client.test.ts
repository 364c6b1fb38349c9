import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import createClient from 'openapi-fetch';
import type { components, paths } from '../support/portal-api.generated.ts';
import { buildTestApp, type TestApp } from '../support/build-test-app.ts';
import { pdfBytes } from '../support/files.fixtures.ts';

type TreeNode = components['schemas']['TreeNode'];

const findFile = (node: TreeNode, id: number): components['schemas']['StoredFile'] | undefined =>
  node.files.find((file) => file.id === id) ??
  node.children.map((child) => findFile(child, id)).find(Boolean);

/**
 * An integrator's round trip (decision 132): the client generated from the API description
 * (openapi-typescript + openapi-fetch) against the app on a real port: sign in, create a folder,
 * upload a document as a data URL, find it in the tree and download it byte for byte.
 */
describe('generated API client', () => {
  let t: TestApp;
  let baseUrl: string;

  beforeAll(async () => {
    t = await buildTestApp();
    baseUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(() => t.close());

  it('signs in, lists the tree and downloads a document with the same bytes', async () => {
    const client = createClient<paths>({ baseUrl });
    const login = await client.POST('/api/v1/auth/login', {
      body: { email: 'admin@example.org', password: 'Start-Passwort-123' },
    });
    expect(login.response.status).toBe(200);
    if (!login.data || !('access_token' in login.data)) throw new Error('keine Anmeldung');
    const token = login.data.access_token;
    client.use({
      onRequest: ({ request }) => {
        request.headers.set('Authorization', `Bearer ${token}`);
        return request;
      },
    });

    const folder = await client.POST('/api/v1/folders', { body: { folder_id: 4, title: 'Schnittstelle' } });
    expect(folder.response.status).toBe(201);
    const content = pdfBytes('Bericht über die Schnittstelle');
    const upload = await client.POST('/api/v1/files', {
      body: {
        title: 'Bericht',
        permissions: ['Vertreter'],
        folder_id: folder.data!.folder.id,
        file: `data:application/pdf;base64,${content.toString('base64')}`,
      },
    });
    expect(upload.response.status).toBe(201);

    const tree = await client.GET('/api/v1/tree');
    expect(tree.response.status).toBe(200);
    const file = findFile(tree.data!.data, upload.data!.file.id);
    expect(file?.title).toBe('Bericht');

    const download = await client.GET('/api/v1/download/{key}', {
      params: { path: { key: file!.external } },
      parseAs: 'arrayBuffer',
    });
    expect(download.response.status).toBe(200);
    expect(download.response.headers.get('content-type')).toMatch(/^application\/pdf/);
    expect(Buffer.from(download.data as ArrayBuffer)).toEqual(content);

    const missing = await client.GET('/api/v1/files/{id}', { params: { path: { id: 999_999 } } });
    expect(missing.response.status).toBe(404);
    expect(missing.error?.message).toBe('Nicht gefunden.');
  });
});
