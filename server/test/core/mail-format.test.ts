import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../support/build-test-app.ts';
import { createUser } from '../support/factories.ts';
import { composeMail, escapeHtml, renderText } from '../../src/mail/compose.ts';
import type { OutgoingMail } from '../../src/mail/outbox.ts';
import { fileTransport } from '../../src/mail/transport.ts';
import { fileNotificationMail } from '../../src/features/files/files.mails.ts';
import { passwordResetMail } from '../../src/features/auth/auth.mails.ts';
import { eventCancelledMail } from '../../src/features/events/calendar.mails.ts';
import { eventNotificationMail } from '../../src/features/events/events.mails.ts';
import { digestMail } from '../../src/features/notifications/digest.mails.ts';

/**
 * Mails as mail clients expect (decision 133): what leaves the portal is read back with a real MIME
 * parser (mailparser), from the bytes of the `.eml` files the file transport writes.
 */
const PUBLIC_URL = 'http://portal.test';
const HOSTILE = '<script>alert("x")</script> & <img src=https://evil.example/p.png>';
const recipient = { title: 'Frau', firstname: 'Erika', lastname: 'Muster', email: 'erika@example.org' };

describe('MIME structure of the mails', () => {
  let t: TestApp;
  let dir: string;
  let id = 0;

  beforeAll(async () => {
    t = await buildTestApp();
    dir = join(t.dataDir, 'mail-format');
  });
  afterAll(() => t.close());

  /** Writes the mail with the file transport and returns its bytes and its parsed form. */
  async function written(mail: OutgoingMail): Promise<{ bytes: Buffer; parsed: ParsedMail }> {
    id += 1;
    const transport = fileTransport(dir, pino({ enabled: false }));
    await transport.send({ id, from: t.config.MAIL_FROM, ...mail });
    transport.close();
    const name = (await readdir(dir)).find((entry) => entry.endsWith(`-${id}.eml`))!;
    const bytes = await readFile(join(dir, name));
    return { bytes, parsed: await simpleParser(bytes) };
  }

  const fileMail = () =>
    fileNotificationMail(
      recipient,
      { id: 42, title: HOSTILE, format: 'pdf', sizeBytes: 1024 * 1024, folder: '/Vertreter/<b>Berichte</b>' },
      'created',
      PUBLIC_URL,
    );

  it('is multipart/alternative with a text and an HTML part of the same content', async () => {
    const { parsed } = await written(fileMail());
    expect(parsed.headers.get('content-type')).toMatchObject({ value: 'multipart/alternative' });
    expect(parsed.text).toContain('Sehr geehrte Frau Muster,');
    expect(parsed.text).toContain('http://portal.test/files/show/42');
    const html = parsed.html as string;
    expect(html).toMatch(/^<!DOCTYPE html>\s*<html lang="de">/);
    expect(html).toContain('<meta name="color-scheme" content="light dark">');
    expect(html).toContain('Gremienportal');
    expect(html).toContain('Sehr geehrte Frau Muster,');
    expect(html).toContain('Mit freundlichen Grüßen');
    // One button-like main action, and the same address as text for clients without buttons.
    expect(html).toMatch(
      /<a href="http:\/\/portal\.test\/files\/show\/42" style="[^"]*display:inline-block[^"]*">Dokument öffnen<\/a>/,
    );
    expect(html.match(/display:inline-block/g)).toHaveLength(1);
    // No images, no external styles, no addresses but the portal's own.
    expect(html).not.toMatch(/<img|<link|<style|<script|url\(/i);
    expect(html).not.toMatch(/<[a-z][^>]*\ssrc=/i);
    const targets = [...html.matchAll(/href="([^"]*)"/g)].map((match) => match[1]!);
    expect(targets.length).toBeGreaterThan(0);
    for (const target of targets) expect(target.startsWith(`${PUBLIC_URL}/`), target).toBe(true);
  });

  it('escapes a hostile document title in the HTML part', async () => {
    const { parsed } = await written(fileMail());
    const html = parsed.html as string;
    expect(html).toContain(
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;img src=https://evil.example/p.png&gt;',
    );
    expect(html).toContain('/Vertreter/&lt;b&gt;Berichte&lt;/b&gt;');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<b>');
    expect(html).not.toContain('src=https://evil.example/p.png>');
    // The subject and the text part carry the title as it is: plain text is not markup.
    expect(parsed.subject).toBe(`Neues Dokument im Gremienportal: ${HOSTILE}`);
    expect(parsed.text).toContain(`${HOSTILE}.pdf`);
  });

  it('stores .eml files with CRLF line endings and no bare LF', async () => {
    const { bytes } = await written(fileMail());
    const text = bytes.toString('latin1');
    expect(text).toContain('\r\n\r\n');
    expect(text.match(/\r\n/g)!.length).toBeGreaterThan(20);
    expect(/(?<!\r)\n/.test(text)).toBe(false);
    expect(/\r(?!\n)/.test(text)).toBe(false);
  });

  it('gives notifications a List-Unsubscribe to the notification settings, without a token', async () => {
    const event = {
      id: 7,
      title: 'Sitzung',
      start: '2026-12-10T17:00:00Z',
      end: '2026-12-10T19:00:00Z',
      location: 'Saal 1',
    };
    for (const mail of [
      fileMail(),
      eventNotificationMail(recipient, event, PUBLIC_URL),
      digestMail(recipient, 'daily', [], [{ ...event, updated: false }], PUBLIC_URL),
    ]) {
      const { parsed, bytes } = await written(mail);
      expect(bytes.toString('utf8')).toContain(
        '\r\nList-Unsubscribe: <http://portal.test/account#benachrichtigungen>\r\n',
      );
      // mailparser gathers the List-* headers under "list".
      expect(parsed.headers.get('list')).toMatchObject({
        unsubscribe: { url: 'http://portal.test/account#benachrichtigungen' },
      });
      // No one-click unsubscribe (RFC 8058): the settings need a signed-in member.
      expect(bytes.toString('utf8')).not.toMatch(/List-Unsubscribe-Post/i);
      expect(parsed.html).toContain('href="http://portal.test/account#benachrichtigungen"');
      expect(parsed.text).toContain('http://portal.test/account#benachrichtigungen');
    }
  });

  it('gives a password reset no List-Unsubscribe, and its link as the button', async () => {
    const link = 'http://portal.test/reset-password?id=5&token=AbC_123-xyz';
    const { parsed } = await written(passwordResetMail(recipient, link));
    expect(parsed.headers.has('list')).toBe(false);
    expect(parsed.headers.get('content-type')).toMatchObject({ value: 'multipart/alternative' });
    expect(parsed.html).toContain('href="http://portal.test/reset-password?id=5&amp;token=AbC_123-xyz"');
    expect(parsed.text).toContain(link);
  });

  it('keeps the calendar part of a cancellation next to text and HTML', async () => {
    const calendar = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Gremienportal//DE',
      'METHOD:CANCEL',
      'BEGIN:VEVENT',
      'UID:event-7@portal.test',
      'DTSTAMP:20261201T100000Z',
      'DTSTART:20261210T170000Z',
      'SEQUENCE:1',
      'STATUS:CANCELLED',
      'SUMMARY:Sitzung',
      'END:VEVENT',
      'END:VCALENDAR',
      '',
    ].join('\r\n');
    const event = {
      id: 7,
      title: 'Sitzung',
      start: '2026-12-10T17:00:00Z',
      end: '2026-12-10T19:00:00Z',
      location: 'Saal 1',
    };
    const { parsed } = await written(eventCancelledMail(recipient, event, calendar));
    expect(parsed.text).toContain('wurde abgesagt');
    expect(parsed.html).toContain('wurde abgesagt');
    const inline = parsed.attachments.find((a) => a.contentType === 'text/calendar');
    expect(inline?.content.toString('utf8')).toContain('METHOD:CANCEL');
    expect(parsed.attachments.some((a) => a.filename === 'termin.ics')).toBe(true);
    expect(parsed.headers.has('list')).toBe(false);
  });

  it('writes the mails of a real request: the reset mail of a forgotten password', async () => {
    const app = await buildTestApp({ mailTransport: undefined });
    try {
      const user = await createUser(app, { roles: ['Vertreter'], title: 'Herr', lastname: 'Öztürk' });
      const res = await app.app.inject({
        method: 'POST',
        url: '/api/v1/auth/forgot-password',
        payload: { email: user.email },
      });
      expect(res.statusCode).toBeLessThan(300);
      await app.app.context.mailSender.flush();
      const mailDir = join(app.dataDir, 'mail');
      const [name] = (await readdir(mailDir)).filter((entry) => entry.endsWith('.eml'));
      const bytes = await readFile(join(mailDir, name!));
      expect(/(?<!\r)\n/.test(bytes.toString('latin1'))).toBe(false);
      const parsed = await simpleParser(bytes);
      expect(parsed.headers.get('content-type')).toMatchObject({ value: 'multipart/alternative' });
      expect(parsed.html).toContain('Sehr geehrter Herr Öztürk,');
      expect(parsed.html).toMatch(/href="http:\/\/portal\.test\/reset-password\?id=\d+&amp;token=[\w-]{43}"/);
      expect(parsed.headers.has('list')).toBe(false);
    } finally {
      await app.close();
    }
  });
});

describe('mail composition', () => {
  it('escapes every character that means something in HTML', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });

  it('renders the text part as the portal always wrote it', () => {
    expect(
      renderText({
        to: 'a@example.org',
        subject: 'Betreff',
        recipient: { title: 'Herr', lastname: 'Schmidt' },
        blocks: [
          { kind: 'paragraph', lines: ['erste Zeile', 'zweite Zeile'] },
          {
            kind: 'facts',
            title: 'Sitzung',
            rows: [
              ['Beginn', 'heute'],
              ['Ort', 'Saal'],
            ],
          },
          { kind: 'action', label: 'Öffnen', url: 'http://portal.test/x' },
          {
            kind: 'links',
            links: [
              { label: 'Zusage', url: 'http://portal.test/z' },
              { label: 'Absage', url: 'http://portal.test/a' },
            ],
          },
          { kind: 'list', title: 'Ordner /A', items: [{ text: 'Datei.pdf', url: 'http://portal.test/f' }] },
        ],
        notification: { publicUrl: 'http://portal.test' },
      }),
    ).toBe(
      [
        'Sehr geehrter Herr Schmidt,',
        '',
        'erste Zeile',
        'zweite Zeile',
        '',
        'Sitzung',
        'Beginn: heute',
        'Ort:    Saal',
        '',
        'http://portal.test/x',
        '',
        'Zusage: http://portal.test/z',
        'Absage: http://portal.test/a',
        '',
        'Ordner /A',
        '- Datei.pdf',
        '  http://portal.test/f',
        '',
        'Mit freundlichen Grüßen',
        'Ihr Gremienportal',
        '',
        '--',
        'Wie oft Sie über neue Dokumente und Events benachrichtigt werden (sofort, täglich, wöchentlich oder nie), stellen Sie hier ein:',
        'http://portal.test/account#benachrichtigungen',
      ].join('\n'),
    );
  });

  it('refuses a mail with two main actions and links nothing that is not http(s)', () => {
    const base = { to: 'a@example.org', subject: 'x', recipient: { title: '', lastname: 'X' } };
    expect(() =>
      composeMail({
        ...base,
        blocks: [
          { kind: 'action', label: 'A', url: 'http://portal.test/a' },
          { kind: 'action', label: 'B', url: 'http://portal.test/b' },
        ],
      }),
    ).toThrow('höchstens eine Hauptaktion');
    const mail = composeMail({
      ...base,
      blocks: [{ kind: 'action', label: 'Los', url: 'javascript:alert(1)' }],
    });
    expect(mail.html).not.toContain('javascript:');
    expect(mail.html).not.toContain('href=');
    expect(mail.listUnsubscribe).toBeUndefined();
  });
});
