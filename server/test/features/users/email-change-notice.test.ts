import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE } from '../../../src/clock.ts';
import { credentialResetsBefore } from '../../../src/features/audit/credential-resets.ts';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createUser, type TestUser } from '../../support/factories.ts';
import { createTotpUser, freshCode, type TotpUser } from '../../support/two-factor.fixtures.ts';

/**
 * Decision 146: an Admin cannot silently become a member. A changed address is mailed to the old
 * address (what, who, whom to contact) and the new one; the audit trail keeps both addresses, and
 * credentialResetsBefore finds such changes for the audit view of a vote or signature.
 */
describe('changing a member’s e-mail address', () => {
  let t: TestApp;
  let admin: TotpUser;
  let member: TestUser;
  beforeAll(async () => {
    t = await buildTestApp();
    admin = await createTotpUser(t, { roles: ['Admin'], firstname: 'Ada', lastname: 'Amtlich' });
    member = await createUser(t, { roles: ['Vertreter'], title: 'Herr', lastname: 'Mitglied' });
  });
  afterAll(() => t?.close());

  const update = (email: string, firstname = 'Erika') =>
    t.app.inject({
      method: 'PUT',
      url: `/api/v1/user/${member.id}`,
      headers: admin.headers,
      payload: { title: 'Herr', firstname, lastname: 'Mitglied', email },
    });

  it('mails the old and the new address: what changed, who changed it, whom to contact', async () => {
    const before = (await t.flushMail()).length;
    const res = await update('neue-adresse@example.org');
    expect(res.statusCode, res.body).toBe(200);
    const mails = (await t.flushMail()).slice(before);
    expect(mails.map((mail) => mail.to).sort()).toEqual([member.email, 'neue-adresse@example.org'].sort());
    const toOld = mails.find((mail) => mail.to.includes(member.email))!;
    expect(toOld.subject).toBe('E-Mail-Adresse Ihres Kontos geändert – Gremienportal');
    expect(toOld.text).toContain('Sehr geehrter Herr Mitglied,');
    expect(toOld.text).toContain(member.email);
    expect(toOld.text).toContain('neue-adresse@example.org');
    expect(toOld.text).toContain('Ada Amtlich');
    expect(toOld.text).toContain('wenden Sie sich bitte sofort an die Geschäftsstelle');

    const entry = await t.db.kysely
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'user.updated')
      .where('object_id', '=', member.id)
      .executeTakeFirstOrThrow();
    expect(entry.actor_id).toBe(admin.id);
    expect(JSON.parse(entry.details!)).toEqual({
      changed: ['email'],
      old_email: member.email,
      new_email: 'neue-adresse@example.org',
    });

    // A change of the name alone mails nobody.
    const quiet = (await t.flushMail()).length;
    expect((await update('neue-adresse@example.org', 'Erik')).statusCode).toBe(200);
    expect((await t.flushMail()).length).toBe(quiet);
  });

  it('finds the credential resets by somebody else shortly before a moment', async () => {
    const subject = await createTotpUser(t, { roles: ['Vertreter'] });
    const start = t.clock.now();
    // Somebody else: a name change (no credential), an address change, a second-factor reset.
    const put = (email: string, firstname: string) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/v1/user/${subject.id}`,
        headers: admin.headers,
        payload: { title: 'Frau', firstname, lastname: 'Ziel', email },
      });
    expect((await put(subject.email, 'Umbenannt')).statusCode).toBe(200);
    t.clock.advance(20 * MINUTE);
    expect((await put('uebernommen@example.org', 'Umbenannt')).statusCode).toBe(200);
    t.clock.advance(20 * MINUTE);
    const reset = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/user/${subject.id}/two-factor`,
      headers: admin.headers,
      payload: { code: await freshCode(t, admin.secret) },
    });
    expect(reset.statusCode, reset.body).toBe(204);
    // The member's own change of their second factor is no reset by somebody else.
    const own = await createTotpUser(t, { roles: ['Vertreter'] });
    const vote = t.clock.now();

    const found = await credentialResetsBefore(t.db.kysely, subject.id, vote, 1);
    expect(found.map((item) => [item.kind, item.actor.id])).toEqual([
      ['email_changed', admin.id],
      ['two_factor_reset', admin.id],
    ]);
    expect(found[0]!.actor.label).toContain('Ada Amtlich');
    // Outside the window, and before the change happened, nothing.
    expect(await credentialResetsBefore(t.db.kysely, subject.id, vote, 0.25)).toHaveLength(1);
    expect(await credentialResetsBefore(t.db.kysely, subject.id, start, 24)).toEqual([]);
    expect(await credentialResetsBefore(t.db.kysely, own.id, vote, 24)).toEqual([]);
  });
});
