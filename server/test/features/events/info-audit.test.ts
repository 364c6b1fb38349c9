import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PortalEvent } from '@gremienportal/contracts/events';
import { MINUTE } from '../../../src/clock.ts';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createRoleUsers, createUser, sessionFor, type TestUser } from '../../support/factories.ts';

const INFO = Buffer.from('0123456789abcdefghij', 'utf8');
const dataUrl = (content: Buffer) => `data:application/pdf;base64,${content.toString('base64')}`;

const body = (content: Buffer) => ({
  title: 'Bezirksversammlung',
  roles: ['Vertreter'],
  start: '2026-12-10T18:00',
  end: '2026-12-10T20:00',
  location: 'Saal 2',
  description: 'Mit Informationsdatei.',
  data: dataUrl(content),
});

/**
 * Decision 116 for event information files: every answer with content (200 or 206, any range
 * form) is in the audit log, once per session and file version within ten minutes.
 */
describe('audit entries of event information files, whatever the range', () => {
  let t: TestApp;
  let admin: TestUser;
  let event: PortalEvent;

  beforeAll(async () => {
    t = await buildTestApp();
    admin = (await createRoleUsers(t)).admin;
    event = await createEvent();
  });
  afterAll(() => t.close());

  async function createEvent(): Promise<PortalEvent> {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/events',
      headers: admin.headers,
      payload: body(INFO),
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().event as PortalEvent;
  }

  const viewer = () => createUser(t, { roles: ['Vertreter'] });

  const get = (
    user: { headers: Record<string, string> },
    headers: Record<string, string> = {},
    options: { method?: 'GET' | 'HEAD'; key?: string } = {},
  ) =>
    t.app.inject({
      method: options.method ?? 'GET',
      url: `/api/v1/info/${options.key ?? event.external}`,
      headers: { ...user.headers, ...headers },
    });

  async function entries(userId: number, eventId = event.id) {
    return t.db.kysely
      .selectFrom('audit_log')
      .select(['actor_id', 'object_type', 'object_id'])
      .where('action', '=', 'event.file_downloaded')
      .where('actor_id', '=', userId)
      .where('object_id', '=', eventId)
      .execute();
  }

  it('records ranges after byte 0, suffix ranges and multi-range requests, once per session', async () => {
    const user = await viewer();
    const late = await get(user, { range: 'bytes=1-' });
    expect(late.statusCode).toBe(206);
    expect(await entries(user.id)).toEqual([
      { actor_id: user.id, object_type: 'event', object_id: event.id },
    ]);

    const suffixUser = await viewer();
    const suffix = await get(suffixUser, { range: 'bytes=-4' });
    expect(suffix.statusCode).toBe(206);
    expect(suffix.body).toBe('ghij');
    expect(await entries(suffixUser.id)).toHaveLength(1);

    const multiUser = await viewer();
    for (let i = 0; i < 2; i += 1) {
      const multi = await get(multiUser, { range: 'bytes=0-1,5-9' });
      expect(multi.statusCode).toBe(200);
    }
    expect(await entries(multiUser.id)).toHaveLength(1);
  });

  it('keeps a viewer’s ranges and an If-Range mismatch to one entry', async () => {
    const user = await viewer();
    for (const range of ['bytes=12-', 'bytes=0-5', 'bytes=6-11', 'bytes=0-5']) {
      expect((await get(user, { range })).statusCode, range).toBe(206);
    }
    const mismatch = await get(user, { range: 'bytes=3-', 'if-range': '"veraltet"' });
    expect(mismatch.statusCode).toBe(200);
    expect(await entries(user.id)).toHaveLength(1);
  });

  it('records concurrent range requests exactly once', async () => {
    const user = await viewer();
    const ranges = ['bytes=1-3', 'bytes=4-8', 'bytes=9-', 'bytes=-2', 'bytes=5-6'];
    const answers = await Promise.all(ranges.map((range) => get(user, { range })));
    expect(answers.map((res) => res.statusCode)).toEqual(ranges.map(() => 206));
    expect(await entries(user.id)).toHaveLength(1);
  });

  it('records a new session, a replaced file and the end of the ten minutes anew', async () => {
    const user = await viewer();
    const own = await createEvent();
    await get(user, { range: 'bytes=1-' }, { key: own.external! });
    expect(await entries(user.id, own.id)).toHaveLength(1);

    const second = { headers: { authorization: `Bearer ${await sessionFor(t, user.id)}` } };
    await get(second, { range: 'bytes=2-' }, { key: own.external! });
    expect(await entries(user.id, own.id)).toHaveLength(2);

    const updated = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/events/${own.id}`,
      headers: admin.headers,
      payload: body(Buffer.from('neue Einladung mit Anlage')),
    });
    expect(updated.statusCode, updated.body).toBe(200);
    const replacedKey = (updated.json().event as PortalEvent).external!;
    const res = await get(user, { range: 'bytes=1-' }, { key: replacedKey });
    expect(res.body).toBe('eue Einladung mit Anlage');
    expect(await entries(user.id, own.id)).toHaveLength(3);

    t.clock.advance(9 * MINUTE);
    await get(user, { range: 'bytes=4-' }, { key: replacedKey });
    expect(await entries(user.id, own.id)).toHaveLength(3);
    t.clock.advance(MINUTE);
    await get(user, { range: 'bytes=4-' }, { key: replacedKey });
    expect(await entries(user.id, own.id)).toHaveLength(4);
  });

  it('records no HEAD and gives it an ETag that is not the content hash', async () => {
    const user = await viewer();
    const twin = await createEvent();
    const head = await get(user, {}, { method: 'HEAD' });
    const twinHead = await get(user, {}, { method: 'HEAD', key: twin.external! });
    expect(head.statusCode).toBe(200);
    expect(await entries(user.id)).toEqual([]);
    const etag = head.headers.etag as string;
    expect(etag.toLowerCase()).not.toContain(createHash('sha256').update(INFO).digest('hex'));
    expect(twinHead.headers.etag).not.toBe(etag);
    expect((await get(user, { range: 'bytes=1-', 'if-range': etag })).statusCode).toBe(206);
  });
});
