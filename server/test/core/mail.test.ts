import type { AddressInfo } from 'node:net';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, MemoryTransport, type TestApp } from '../support/build-test-app.ts';
import { composeMail } from '../../src/mail/compose.ts';
import { enqueueMail, type OutgoingMail } from '../../src/mail/outbox.ts';
import { MailSender } from '../../src/mail/sender.ts';
import { fileTransport } from '../../src/mail/transport.ts';
import { HOUR, MINUTE } from '../../src/clock.ts';
import { passwordResetMail } from '../../src/features/auth/auth.mails.ts';

const mail = (n: number, to = `empfaenger${n}@example.org`): OutgoingMail =>
  composeMail({
    to,
    subject: `Neue Datei ${n} – Gremienportal`,
    recipient: { title: '', lastname: 'Empfänger' },
    blocks: [
      { kind: 'paragraph', lines: ['es gibt eine neue Datei:'] },
      { kind: 'action', label: 'Datei öffnen', url: `http://portal.test/files/show/${n}` },
    ],
  });

const outboxRow = (t: TestApp, to: string) =>
  t.db.kysely.selectFrom('outbox').selectAll().where('to_address', '=', to).executeTakeFirstOrThrow();

const addressText = (address: AddressObject | AddressObject[] | undefined) =>
  Array.isArray(address) ? address.map((a) => a.text).join(', ') : (address?.text ?? '');

describe('outbox and sender', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());
  afterEach(() => {
    t.mail.failNext = 0;
  });

  it('queues mails in the transaction and sends them only when it commits', async () => {
    await expect(
      t.db.kysely.transaction().execute(async (trx) => {
        await enqueueMail(trx, t.clock, mail(1));
        throw new Error('Änderung scheitert');
      }),
    ).rejects.toThrow('Änderung scheitert');
    await t.db.kysely.transaction().execute((trx) => enqueueMail(trx, t.clock, [mail(2), mail(3)]));
    await enqueueMail(t.db.kysely, t.clock, []);

    expect(t.mail.sent).toHaveLength(0);
    const sent = await t.flushMail();
    expect(sent.map((m) => m.to)).toEqual(['empfaenger2@example.org', 'empfaenger3@example.org']);
    expect(sent[0]).toMatchObject({
      from: t.config.MAIL_FROM,
      subject: 'Neue Datei 2 – Gremienportal',
      text: mail(2).text,
    });
    expect((await outboxRow(t, 'empfaenger2@example.org')).sent_at).toBe(t.clock.now().toISOString());
    const rolledBack = await t.db.kysely
      .selectFrom('outbox')
      .select('id')
      .where('to_address', '=', 'empfaenger1@example.org')
      .execute();
    expect(rolledBack).toHaveLength(0);

    // Sent mails are not sent again.
    await t.flushMail();
    expect(t.mail.sent.filter((m) => m.to === 'empfaenger2@example.org')).toHaveLength(1);
  });

  it('retries a failed delivery later and sends it exactly once', async () => {
    const to = 'wiederholung@example.org';
    await enqueueMail(t.db.kysely, t.clock, mail(4, to));
    t.mail.failNext = 1;
    await t.flushMail();
    expect(t.mail.sent.filter((m) => m.to === to)).toHaveLength(0);
    const failed = await outboxRow(t, to);
    expect(failed).toMatchObject({ attempts: 1, sent_at: null, locked_until: null });
    expect(failed.last_error).toContain('SMTP nicht erreichbar');

    // Not before the back-off (30 s after the first failure).
    t.clock.advance(20_000);
    await t.flushMail();
    expect(t.mail.sent.filter((m) => m.to === to)).toHaveLength(0);

    t.clock.advance(10_000);
    await t.flushMail();
    await t.flushMail();
    t.clock.advance(HOUR);
    await t.flushMail();
    expect(t.mail.sent.filter((m) => m.to === to)).toHaveLength(1);
    expect(await outboxRow(t, to)).toMatchObject({ attempts: 2, sent_at: expect.any(String) });
  });

  it('gives up after 8 failed attempts', async () => {
    const to = 'unzustellbar@example.org';
    await enqueueMail(t.db.kysely, t.clock, mail(5, to));
    t.mail.failNext = 100;
    for (let i = 0; i < 10; i += 1) {
      await t.flushMail();
      t.clock.advance(HOUR);
    }
    expect((await outboxRow(t, to)).attempts).toBe(8);
    t.mail.failNext = 0;
    await t.flushMail();
    expect(t.mail.sent.filter((m) => m.to === to)).toHaveLength(0);
  });

  it('never sends a mail twice when several instances flush at once', async () => {
    const others = [new MemoryTransport(), new MemoryTransport()];
    const senders = others.map(
      (transport) =>
        new MailSender({
          db: t.db,
          clock: t.clock,
          transport,
          from: t.config.MAIL_FROM,
          logger: t.app.log,
        }),
    );
    const recipients = Array.from({ length: 30 }, (_, i) => `parallel${i}@example.org`);
    await enqueueMail(
      t.db.kysely,
      t.clock,
      recipients.map((to, i) => mail(100 + i, to)),
    );
    await Promise.all([t.flushMail(), ...senders.map((sender) => sender.flush())]);
    const delivered = [...t.mail.sent, ...others.flatMap((transport) => transport.sent)]
      .map((m) => m.to)
      .filter((to) => to.startsWith('parallel'));
    expect(delivered.sort()).toEqual([...recipients].sort());
  });

  it('takes over a mail whose sender died mid-send once its lease ran out', async () => {
    const to = 'verwaist@example.org';
    await enqueueMail(t.db.kysely, t.clock, mail(6, to));
    await t.db.kysely
      .updateTable('outbox')
      .set({ locked_until: new Date(t.clock.now().getTime() + 2 * MINUTE).toISOString() })
      .where('to_address', '=', to)
      .execute();
    await t.flushMail();
    expect(t.mail.sent.filter((m) => m.to === to)).toHaveLength(0);
    t.clock.advance(2 * MINUTE + 1_000);
    await t.flushMail();
    expect(t.mail.sent.filter((m) => m.to === to)).toHaveLength(1);
  });
});

describe('background sender', () => {
  it('delivers queued mails without being asked', async () => {
    const t = await buildTestApp({ startBackgroundJobs: true });
    try {
      await enqueueMail(t.db.kysely, t.clock, mail(7, 'hintergrund@example.org'));
      await vi.waitFor(() => expect(t.mail.sent.map((m) => m.to)).toContain('hintergrund@example.org'), {
        timeout: 10_000,
        interval: 50,
      });
    } finally {
      await t.close();
    }
  });
});

describe('SMTP delivery', () => {
  const received: ParsedMail[] = [];
  let rejectNextRecipient = false;
  let server: SMTPServer;
  let t: TestApp;

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      // Plain SMTP on the loopback interface; a self-signed STARTTLS offer would be refused.
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo(_address, _session, callback) {
        if (rejectNextRecipient) {
          rejectNextRecipient = false;
          return callback(
            Object.assign(new Error('Postfach vorübergehend nicht erreichbar'), { responseCode: 451 }),
          );
        }
        callback();
      },
      onData(stream, _session, callback) {
        simpleParser(stream).then(
          (parsed) => {
            received.push(parsed);
            callback();
          },
          (error: Error) => callback(error),
        );
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.server.address() as AddressInfo;
    // No transport given: the app picks SMTP because SMTP_URL is set.
    t = await buildTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${port}` }, mailTransport: undefined });
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('delivers a German mail with umlauts intact', async () => {
    await enqueueMail(t.db.kysely, t.clock, {
      ...passwordResetMail(
        { title: 'Frau', lastname: 'Müller', email: 'erika.muster@example.org' },
        'http://portal.test/reset-password?id=3&token=abc',
      ),
    });
    expect(await t.app.context.mailSender.flush()).toBe(1);
    expect(received).toHaveLength(1);
    const parsed = received[0]!;
    expect(parsed.subject).toBe('Passwort zurücksetzen – Gremienportal');
    expect(addressText(parsed.to)).toBe('erika.muster@example.org');
    expect(parsed.from?.value).toEqual([{ name: 'Gremienportal', address: 'no-reply@example.org' }]);
    expect(parsed.text).toContain('Sehr geehrte Frau Müller,');
    expect(parsed.text).toContain('http://portal.test/reset-password?id=3&token=abc');
    expect(parsed.text).toContain('Mit freundlichen Grüßen');
    // Both parts arrive over SMTP as one multipart/alternative message.
    expect(parsed.headers.get('content-type')).toMatchObject({ value: 'multipart/alternative' });
    expect(parsed.html).toContain('href="http://portal.test/reset-password?id=3&amp;token=abc"');
    expect(parsed.html).toContain('Sehr geehrte Frau Müller,');
    expect(parsed.headers.has('list')).toBe(false);
  });

  it('retries when the server refuses a recipient for now', async () => {
    received.length = 0;
    rejectNextRecipient = true;
    await enqueueMail(t.db.kysely, t.clock, mail(8, 'spaeter@example.org'));
    expect(await t.app.context.mailSender.flush()).toBe(0);
    expect(received).toHaveLength(0);
    const row = await outboxRow(t, 'spaeter@example.org');
    expect(row.attempts).toBe(1);
    expect(row.last_error).toContain('451');

    t.clock.advance(MINUTE);
    expect(await t.app.context.mailSender.flush()).toBe(1);
    expect(received.map((m) => addressText(m.to))).toEqual(['spaeter@example.org']);
  });
});

describe('file transport (no SMTP_URL)', () => {
  it('writes one .eml file per message into DATA_DIR/mail', async () => {
    const t = await buildTestApp({ mailTransport: undefined });
    try {
      expect(t.config.SMTP_URL).toBeUndefined();
      await enqueueMail(t.db.kysely, t.clock, [mail(9), mail(10)]);
      expect(await t.app.context.mailSender.flush()).toBe(2);

      const dir = join(t.dataDir, 'mail');
      const names = await readdir(dir);
      expect(names.filter((name) => name.endsWith('.eml'))).toHaveLength(2);
      // Written under a temporary name and renamed: nothing half-written is left.
      expect(names.filter((name) => name.startsWith('.'))).toEqual([]);

      const parsed = await Promise.all(
        names.map(async (name) => simpleParser(await readFile(join(dir, name)))),
      );
      const byRecipient = new Map(parsed.map((p) => [addressText(p.to), p]));
      expect([...byRecipient.keys()].sort()).toEqual(['empfaenger10@example.org', 'empfaenger9@example.org']);
      const nine = byRecipient.get('empfaenger9@example.org')!;
      expect(nine.subject).toBe('Neue Datei 9 – Gremienportal');
      expect(nine.from?.value).toEqual([{ name: 'Gremienportal', address: 'no-reply@example.org' }]);
      expect(nine.text).toContain('Mit freundlichen Grüßen');
    } finally {
      await t.close();
    }
  });

  it('logs the file name and the message id, never a link or its token', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(chunk.toString('utf8'));
        callback();
      },
    });
    const t = await buildTestApp();
    try {
      const token = 'Geheim-Token-0123456789abcdefghijklmnopqrstuv';
      const transport = fileTransport(join(t.dataDir, 'eigene-mails'), pino({ level: 'trace' }, stream));
      await transport.send({
        id: 77,
        from: t.config.MAIL_FROM,
        ...passwordResetMail(
          { title: 'Frau', lastname: 'Muster', email: 'empfaenger11@example.org' },
          `http://portal.test/reset-password?id=11&token=${token}`,
        ),
      });
      transport.close();
      const names = await readdir(join(t.dataDir, 'eigene-mails'));
      expect(names).toHaveLength(1);
      expect(names[0]).toMatch(/-77\.eml$/);
      // The file itself carries the link: it is the mail.
      expect(await readFile(join(t.dataDir, 'eigene-mails', names[0]!), 'utf8')).toContain(token);
      expect(lines).toHaveLength(1);
      const entry = JSON.parse(lines[0]!);
      expect(entry).toMatchObject({
        mailFile: names[0],
        mailId: 77,
        recipients: 1,
        msg: 'E-Mail als Datei abgelegt',
      });
      expect(entry.messageId).toMatch(/^<.+@.+>$/);
      expect(lines[0]).not.toContain(token);
      expect(lines[0]).not.toContain('reset-password');
      expect(lines[0]).not.toContain('empfaenger11@example.org');
    } finally {
      await t.close();
    }
  });
});
