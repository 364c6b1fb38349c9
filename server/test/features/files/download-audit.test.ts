import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE } from '../../../src/clock.ts';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createRoleUsers, createUser, sessionFor, type TestUser } from '../../support/factories.ts';
import { createFolder, multipart, uploadFile } from '../../support/files.fixtures.ts';

/**
 * Decision 116: every answer that carries document content (200 or 206, any range form) is in the
 * audit log, once per session, content version and purpose within ten minutes; HEAD is not
 * recorded and its ETag confirms nothing about the content.
 */
describe('audit entries of document downloads, whatever the range', () => {
  let t: TestApp;
  let admin: TestUser;
  let folderId: number;
  const content = Buffer.from('0123456789abcdefghij', 'utf8');
  let pdf: { id: number; external: string };

  beforeAll(async () => {
    t = await buildTestApp();
    admin = (await createRoleUsers(t)).admin;
    folderId = (await createFolder(t, admin, { folder_id: 4, title: 'Bereiche' })).id;
    pdf = await uploadFile(t, admin, {
      title: 'Lagebericht',
      folderId,
      roles: ['Vertreter'],
      filename: 'lagebericht.pdf',
      content,
    });
  });
  afterAll(() => t.close());

  /** A Vertreter with a session of their own, so each test counts only its own entries. */
  const viewer = () => createUser(t, { roles: ['Vertreter'] });

  const get = (
    user: { headers: Record<string, string> },
    headers: Record<string, string> = {},
    options: { method?: 'GET' | 'HEAD'; key?: string; purpose?: 'view' | 'download' } = {},
  ) =>
    t.app.inject({
      method: options.method ?? 'GET',
      url: `/api/v1/download/${options.key ?? pdf.external}${options.purpose ? `?purpose=${options.purpose}` : ''}`,
      headers: { ...user.headers, ...headers },
    });

  async function entries(userId: number, action = 'file.downloaded', fileId = pdf.id) {
    return t.db.kysely
      .selectFrom('audit_log')
      .select(['id', 'actor_id', 'object_type', 'object_id'])
      .where('action', '=', action)
      .where('actor_id', '=', userId)
      .where('object_id', '=', fileId)
      .execute();
  }

  it('records a range that starts after byte 0 (bytes=1-), once', async () => {
    const user = await viewer();
    const res = await get(user, { range: 'bytes=1-' });
    expect(res.statusCode).toBe(206);
    expect(res.body).toBe('123456789abcdefghij');
    expect(await entries(user.id)).toEqual([
      expect.objectContaining({ actor_id: user.id, object_type: 'file', object_id: pdf.id }),
    ]);
    await get(user, { range: 'bytes=1-' });
    expect(await entries(user.id)).toHaveLength(1);
  });

  it('records a suffix range that does not reach byte 0 (bytes=-N), once', async () => {
    const user = await viewer();
    const res = await get(user, { range: 'bytes=-5' });
    expect(res.statusCode).toBe(206);
    expect(res.body).toBe('fghij');
    expect(await entries(user.id)).toHaveLength(1);
    await get(user, { range: 'bytes=-3' });
    expect(await entries(user.id)).toHaveLength(1);
  });

  it('records a multi-range request (answered with the whole file) once', async () => {
    const user = await viewer();
    for (let i = 0; i < 3; i += 1) {
      const res = await get(user, { range: 'bytes=0-1,5-9' });
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(content)).toBe(true);
    }
    expect(await entries(user.id)).toHaveLength(1);
  });

  it('records an If-Range mismatch and the resumption that follows as one download', async () => {
    const user = await viewer();
    const first = await get(user, { range: 'bytes=4-', 'if-range': '"veraltet"' });
    expect(first.statusCode).toBe(200);
    expect(await entries(user.id)).toHaveLength(1);
    const etag = first.headers.etag as string;
    const resumed = await get(user, { range: 'bytes=4-', 'if-range': etag });
    expect(resumed.statusCode).toBe(206);
    const again = await get(user, { range: 'bytes=0-3', 'if-range': '"veraltet"' });
    expect(again.statusCode).toBe(200);
    expect(await entries(user.id)).toHaveLength(1);
  });

  it('keeps the range requests of a PDF viewer to one entry, whatever the first offset', async () => {
    const user = await viewer();
    for (const range of ['bytes=10-', 'bytes=0-4', 'bytes=5-9', 'bytes=0-4', 'bytes=-2', undefined]) {
      const res = await get(user, range ? { range } : {});
      expect(res.statusCode, range).toBe(range ? 206 : 200);
    }
    expect(await entries(user.id)).toHaveLength(1);
  });

  it('records concurrent range requests of one viewer exactly once', async () => {
    const user = await viewer();
    const ranges = [
      'bytes=1-4',
      'bytes=5-9',
      'bytes=10-14',
      'bytes=15-',
      'bytes=-3',
      'bytes=2-',
      'bytes=7-8',
    ];
    const answers = await Promise.all(ranges.map((range) => get(user, { range })));
    expect(answers.map((res) => res.statusCode)).toEqual(ranges.map(() => 206));
    expect(await entries(user.id)).toHaveLength(1);
  });

  it('records a new session of the same user anew', async () => {
    const user = await viewer();
    await get(user, { range: 'bytes=1-' });
    const second = { headers: { authorization: `Bearer ${await sessionFor(t, user.id)}` } };
    expect((await get(second, { range: 'bytes=1-' })).statusCode).toBe(206);
    expect(await entries(user.id)).toHaveLength(2);
    await get(second, { range: 'bytes=3-' });
    await get(user, { range: 'bytes=3-' });
    expect(await entries(user.id)).toHaveLength(2);
  });

  it('records viewing and saving separately', async () => {
    const user = await viewer();
    await get(user, { range: 'bytes=1-' }, { purpose: 'view' });
    await get(user, { range: 'bytes=2-' }, { purpose: 'view' });
    await get(user, { range: 'bytes=1-' });
    expect(await entries(user.id, 'file.viewed')).toHaveLength(1);
    expect(await entries(user.id, 'file.downloaded')).toHaveLength(1);
  });

  it('records replaced content as a new entry', async () => {
    const user = await viewer();
    const file = await uploadFile(t, admin, { title: 'Entwurf', folderId, roles: ['Vertreter'], content });
    await get(user, { range: 'bytes=1-' }, { key: file.external });
    expect(await entries(user.id, 'file.downloaded', file.id)).toHaveLength(1);

    const body = multipart([['title', 'Entwurf']], {
      filename: 'entwurf.pdf',
      type: 'application/pdf',
      content: 'neue Fassung des Entwurfs',
    });
    const replaced = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/files/${file.id}`,
      headers: { ...admin.headers, ...body.headers },
      payload: body.payload,
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    const res = await get(user, { range: 'bytes=1-' }, { key: file.external });
    expect(res.body).toBe('eue Fassung des Entwurfs');
    expect(await entries(user.id, 'file.downloaded', file.id)).toHaveLength(2);
  });

  it('records again once ten minutes have passed since the entry', async () => {
    const user = await viewer();
    await get(user, { range: 'bytes=1-' });
    t.clock.advance(9 * MINUTE);
    await get(user, { range: 'bytes=5-' });
    expect(await entries(user.id)).toHaveLength(1);
    t.clock.advance(MINUTE);
    await get(user, { range: 'bytes=5-' });
    expect(await entries(user.id)).toHaveLength(2);
    t.clock.advance(5 * MINUTE);
    await get(user, { range: 'bytes=6-' });
    expect(await entries(user.id)).toHaveLength(2);
  });

  it('records no HEAD and gives it an ETag that says nothing about the content', async () => {
    const user = await viewer();
    const twin = await uploadFile(t, admin, { title: 'Zwilling', folderId, roles: ['Vertreter'], content });
    const head = await get(user, {}, { method: 'HEAD' });
    const twinHead = await get(user, {}, { method: 'HEAD', key: twin.external });
    expect(head.statusCode).toBe(200);
    expect(await entries(user.id)).toEqual([]);
    expect(await entries(user.id, 'file.downloaded', twin.id)).toEqual([]);

    const sha = createHash('sha256').update(content).digest('hex');
    const etag = head.headers.etag as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{20,}"$/);
    expect(etag.toLowerCase()).not.toContain(sha);
    // The same content in two documents: two tags, so no tag can be matched against known content.
    expect(twinHead.headers.etag).not.toBe(etag);
    // The tag is stable for one version, so `If-Range` resumes against it.
    expect((await get(user, { range: 'bytes=1-', 'if-range': etag })).statusCode).toBe(206);
  });
});
