import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../support/build-test-app.ts';
import { createUser } from '../support/factories.ts';
import { enqueueMail } from '../../src/mail/outbox.ts';
import { issuePasswordLink } from '../../src/db/password-links.ts';
import { enqueuePasswordRequest } from '../../src/features/auth/password-requests.ts';
import { DAY, HOUR, MINUTE } from '../../src/clock.ts';
import { runHousekeeping } from '../../src/maintenance/housekeeping.ts';

describe('housekeeping', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('removes expired sessions, spent tokens and old sent mails, and keeps the rest', async () => {
    const stale = await createUser(t, { roles: ['Vertreter'] });
    await issuePasswordLink(t.db.kysely, t, stale.id, 'reset');
    await enqueueMail(t.db.kysely, t.clock, {
      to: 'a@example.org',
      subject: 'Alt',
      text: 'x',
      html: '<p>x</p>',
    });
    await t.flushMail();
    await enqueueMail(t.db.kysely, t.clock, {
      to: 'b@example.org',
      subject: 'Nie gesendet',
      text: 'x',
      html: '<p>x</p>',
    });
    t.mail.failNext = 100;

    t.clock.advance(2 * HOUR);
    const fresh = await createUser(t, { roles: ['Vertreter'] });
    const fresher = await issuePasswordLink(t.db.kysely, t, fresh.id, 'invite');
    expect(fresher).toContain('token=');

    const first = await runHousekeeping(t);
    expect(first).toEqual({ sessions: 1, passwordTokens: 1, mails: 0, passwordRequests: 0 });
    const me = await t.app.inject({ method: 'GET', url: '/api/v1/account', headers: fresh.headers });
    expect(me.statusCode).toBe(200);

    t.clock.advance(31 * DAY);
    const second = await runHousekeeping(t);
    expect(second.mails).toBe(1);
    const left = await t.db.kysely.selectFrom('outbox').select('subject').execute();
    expect(left).toEqual([{ subject: 'Nie gesendet' }]);
    expect(await runHousekeeping(t)).toEqual({
      sessions: 0,
      passwordTokens: 0,
      mails: 0,
      passwordRequests: 0,
    });
  });

  it('drops a forgot-password request left unhandled for a day, with its address', async () => {
    const email = 'vergessen@example.org';
    await enqueuePasswordRequest(t.db.kysely, t.clock, { email, ip: '192.0.2.1' });
    // Failed every attempt: the worker does not touch it any more.
    await t.db.kysely
      .updateTable('password_requests')
      .set({ attempts: 5 })
      .where('email', '=', email)
      .execute();
    await t.flushMail();
    t.clock.advance(DAY - MINUTE);
    expect((await runHousekeeping(t)).passwordRequests).toBe(0);
    t.clock.advance(2 * MINUTE);
    expect((await runHousekeeping(t)).passwordRequests).toBe(1);
    expect(await t.db.kysely.selectFrom('password_requests').select('id').execute()).toEqual([]);
  });

  it('keeps a session that is in use', async () => {
    const user = await createUser(t, { roles: ['Aufsichtsrat'] });
    t.clock.advance(30 * MINUTE);
    await t.app.inject({ method: 'GET', url: '/api/v1/account', headers: user.headers });
    t.clock.advance(40 * MINUTE);
    await runHousekeeping(t);
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/account', headers: user.headers });
    expect(res.statusCode).toBe(200);
  });
});
