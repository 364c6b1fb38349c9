import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { CalendarMethod } from '../db/schema.ts';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../storage/private-files.ts';

export interface MailMessage {
  id: number;
  from: string;
  to: string;
  subject: string;
  text: string;
  /** The HTML alternative; absent only for a mail queued before it existed (migration 0010). */
  html?: string;
  /** A notification's settings page, sent as `List-Unsubscribe: <…>`. */
  listUnsubscribe?: string;
  calendar?: { method: CalendarMethod; content: string };
}

/**
 * nodemailer's fields of one message: text and HTML as `multipart/alternative`, and if any, its
 * iCalendar part. `List-Unsubscribe` names the settings page only: one-click unsubscribe (RFC 8058)
 * is not offered, since changing the settings needs a signed-in member (decision 133).
 */
function mailFields(message: MailMessage) {
  return {
    from: message.from,
    to: message.to,
    subject: message.subject,
    text: message.text,
    ...(message.html ? { html: message.html } : {}),
    ...(message.listUnsubscribe ? { list: { unsubscribe: message.listUnsubscribe } } : {}),
    ...(message.calendar
      ? {
          icalEvent: {
            method: message.calendar.method,
            filename: 'termin.ics',
            content: message.calendar.content,
          },
        }
      : {}),
  };
}

export interface MailTransport {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** SMTP delivery through nodemailer. */
export function smtpTransport(url: string): MailTransport {
  const transporter = nodemailer.createTransport(url);
  return {
    async send(message) {
      await transporter.sendMail(mailFields(message));
    },
    close: () => transporter.close(),
  };
}

/**
 * Without SMTP: one `.eml` file per message in `dir`, written under a temporary name and renamed,
 * so a reader never sees half a mail. The file is the message as it would go over SMTP, CRLF line
 * endings included. The log names the file and the message, never its links: they carry one-time
 * tokens, and a log travels further than the mail folder (decision 133).
 */
export function fileTransport(dir: string, logger: Logger): MailTransport {
  const builder = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  return {
    async send(message) {
      const info = await builder.sendMail(mailFields(message));
      // Each file may hold a set-password link: owner-only (private-files.ts).
      await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${message.id}.eml`;
      const tmp = join(dir, `.${name}.tmp`);
      try {
        await writeFile(tmp, info.message as Buffer, { mode: PRIVATE_FILE_MODE });
        await rename(tmp, join(dir, name));
      } catch (error) {
        // A full disk leaves half a file; the mail stays queued and is written again later.
        await rm(tmp, { force: true });
        throw error;
      }
      logger.info(
        { mailFile: name, mailId: message.id, messageId: info.messageId, recipients: 1 },
        'E-Mail als Datei abgelegt',
      );
    },
    close: () => builder.close(),
  };
}
