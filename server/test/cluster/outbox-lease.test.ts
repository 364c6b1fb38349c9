import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE } from '../../src/clock.ts';
import { enqueueMail } from '../../src/mail/outbox.ts';
import { MailSender } from '../../src/mail/sender.ts';
import type { MailMessage, MailTransport } from '../../src/mail/transport.ts';
import { buildTestApp, MemoryTransport, type TestApp } from '../support/build-test-app.ts';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Two instances share one outbox. A mail leased by one instance must not be sent by the other,
 * also when the SMTP conversation takes longer than the lease (2 minutes): the sending instance
 * keeps extending its lease while it is alive.
 */
describe('outbox leases across instances', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const senderWith = (transport: MailTransport, leaseRenewMs?: number) =>
    new MailSender({
      db: t.db,
      clock: t.clock,
      transport,
      from: t.config.MAIL_FROM,
      logger: t.app.log,
      ...(leaseRenewMs ? { leaseRenewMs } : {}),
    });

  it('keeps a mail leased while a slow delivery outlasts the lease', async () => {
    const other = new MemoryTransport();
    const otherInstance = senderWith(other);
    const delivered: MailMessage[] = [];
    const slow: MailTransport = {
      async send(message) {
        // Three minutes pass on the clock while the SMTP server stalls; meanwhile the other
        // instance looks for due mails.
        t.clock.advance(1.5 * MINUTE);
        await pause(80);
        t.clock.advance(1.5 * MINUTE);
        await pause(80);
        await otherInstance.flush();
        delivered.push(message);
      },
      close() {},
    };
    await enqueueMail(t.db.kysely, t.clock, {
      to: 'langsam@example.org',
      subject: 'Einladung – Gremienportal',
      text: 'Guten Tag,\n\nbitte legen Sie Ihr Passwort fest.',
      html: '<p>Guten Tag,</p><p>bitte legen Sie Ihr Passwort fest.</p>',
    });
    await senderWith(slow, 20).flush();

    expect(delivered.map((m) => m.to)).toEqual(['langsam@example.org']);
    expect(other.sent).toEqual([]);
    const row = await t.db.kysely
      .selectFrom('outbox')
      .select(['sent_at', 'locked_until', 'attempts'])
      .where('to_address', '=', 'langsam@example.org')
      .executeTakeFirstOrThrow();
    expect(row.sent_at).not.toBeNull();
    expect(row.locked_until).toBeNull();
    expect(row.attempts).toBe(1);

    // Once sent it stays sent, whoever looks later.
    t.clock.advance(10 * MINUTE);
    await otherInstance.flush();
    expect(other.sent).toEqual([]);
  });

  it('sends each of many mails exactly once when four instances flush at once', async () => {
    const transports = Array.from({ length: 4 }, () => new MemoryTransport());
    const senders = transports.map((transport) => senderWith(transport));
    const recipients = Array.from({ length: 60 }, (_, i) => `einmal${i}@example.org`);
    await enqueueMail(
      t.db.kysely,
      t.clock,
      recipients.map((to) => ({
        to,
        subject: 'Neues Event – Gremienportal',
        text: 'Guten Tag',
        html: '<p>Guten Tag</p>',
      })),
    );
    await Promise.all(senders.map((sender) => sender.flush()));
    const delivered = transports.flatMap((transport) => transport.sent.map((m) => m.to));
    expect(delivered.sort()).toEqual([...recipients].sort());
  });
});
