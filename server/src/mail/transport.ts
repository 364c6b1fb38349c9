import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { CalendarMethod } from '../db/schema.ts';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../private-files.ts';

export interface MailMessage {
  id: number;
  from: string;
  to: string;
  subject: string;
  text: string;
  calendar?: { method: CalendarMethod; content: string };
}

/** nodemailer's fields of one message: the text and, if any, its iCalendar part. */
function mailFields(message: MailMessage) {
  return {
    from: message.from,
    to: message.to,
    subject: message.subject,
    text: message.text,
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

const LINK = /https?:\/\/\S+/g;

/**
 * Without SMTP: one `.eml` file per message in `dir`, written under a temporary name and renamed,
 * so a reader never sees half a mail. Links are logged for the operator (they are one-time links
 * meant for the recipient; the log is the operator's own).
 */
export function fileTransport(dir: string, logger: Logger): MailTransport {
  const builder = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message) {
      const info = await builder.sendMail(mailFields(message));
      // Each file holds a set-password link: owner-only (private-files.ts).
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
        { mailFile: name, to: message.to, links: message.text.match(LINK) ?? [] },
        'E-Mail als Datei abgelegt',
      );
    },
    close: () => builder.close(),
  };
}
