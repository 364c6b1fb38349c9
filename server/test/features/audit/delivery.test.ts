import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE } from '../../../src/clock.ts';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createUser, type TestUser } from '../../support/factories.ts';
import {
  deleteSpentDeliveryMarks,
  recordDelivery,
  type Delivery,
} from '../../../src/features/audit/audit-log.service.ts';
import { DAILY_TASKS } from '../../../src/app.ts';
import { DailyJob } from '../../../src/maintenance/daily-job.ts';

describe('delivery marks', () => {
  let t: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    t = await buildTestApp();
    user = await createUser(t, { roles: ['Vertreter'] });
  });
  afterAll(() => t.close());

  const sessionIdOf = async (u: TestUser) =>
    (
      await t.db.kysely
        .selectFrom('sessions')
        .select('id')
        .where('user_id', '=', u.id)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow()
    ).id;

  const delivery = async (u: TestUser, objectId: number): Promise<Delivery> => ({
    sessionId: await sessionIdOf(u),
    objectKind: 'file',
    objectId,
    contentVersion: `schluessel-${objectId}`,
    purpose: 'download',
  });

  const record = async (d: Delivery) =>
    recordDelivery(t.db.kysely, t.clock, d, {
      action: 'file.downloaded',
      objectType: 'file',
      objectId: d.objectId,
    });

  const marks = async () =>
    t.db.kysely
      .selectFrom('delivery_marks')
      .select(['session_id', 'object_id'])
      .orderBy('object_id')
      .execute();

  it('records once within the window and again after it', async () => {
    const d = await delivery(user, 1);
    expect(await record(d)).toBe(true);
    expect(await record(d)).toBe(false);
    t.clock.advance(10 * MINUTE);
    expect(await record(d)).toBe(true);
    const logged = await t.db.kysely
      .selectFrom('audit_log')
      .select('id')
      .where('action', '=', 'file.downloaded')
      .where('object_id', '=', 1)
      .execute();
    expect(logged).toHaveLength(2);
  });

  it('lets the daily job remove spent marks and keeps the others', async () => {
    await t.db.kysely.deleteFrom('delivery_marks').execute();
    await record(await delivery(user, 2));
    t.clock.advance(11 * MINUTE);
    await record(await delivery(user, 3));
    expect((await marks()).map((m) => m.object_id)).toEqual([2, 3]);

    const job = new DailyJob(t.app.context, DAILY_TASKS);
    job.start();
    await job.stop();
    expect((await marks()).map((m) => m.object_id)).toEqual([3]);
    expect(await deleteSpentDeliveryMarks(t.db.kysely, t.clock)).toBe(0);
  });

  it('removes the marks of a session that ends', async () => {
    const other = await createUser(t, { roles: ['Vertreter'] });
    await record(await delivery(other, 4));
    const sessionId = await sessionIdOf(other);
    expect((await marks()).some((m) => m.session_id === sessionId)).toBe(true);
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: other.headers });
    expect(res.statusCode).toBeLessThan(300);
    expect((await marks()).some((m) => m.session_id === sessionId)).toBe(false);
  });
});
