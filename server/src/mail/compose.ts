/**
 * Mails described as data and rendered twice from the same content (decision 133): a
 * plain-text part (what the portal always sent) and a simple, accessible HTML part. No feature
 * writes HTML; every interpolated value is escaped here.
 */
import type { CalendarMethod } from '../db/schema.ts';
import type { OutgoingMail } from './outbox.ts';

/** What the HTML part's header names; the closing of every mail says "Ihr Gremienportal". */
export const PORTAL_NAME = 'Gremienportal';

/** Where a member chooses how often they are told about new documents and events. */
export const notificationSettingsUrl = (publicUrl: string) => `${publicUrl}/account#benachrichtigungen`;

export type MailBlock =
  /** A paragraph; its lines stay lines (line breaks in HTML). */
  | { kind: 'paragraph'; lines: readonly string[] }
  /** An optional bold first line, then "Label: value" rows aligned in the text part. */
  | { kind: 'facts'; title?: string; rows: readonly (readonly [label: string, value: string])[] }
  /** The mail's main action: a button in HTML, the bare address in the text part. At most one. */
  | { kind: 'action'; label: string; url: string }
  /** Further links, one per row ("Zusage: https://…"). */
  | { kind: 'links'; links: readonly { label: string; url: string }[] }
  | { kind: 'heading'; text: string }
  /** A bulleted list with an optional title line; an item's address follows it on its own line. */
  | { kind: 'list'; title?: string; items: readonly { text: string; url?: string }[] };

export interface MailContent {
  to: string;
  subject: string;
  /** Whom the salutation addresses. */
  recipient: { title: string; lastname: string };
  blocks: readonly MailBlock[];
  /**
   * A notification the member's settings govern: ends with where they change them and carries a
   * `List-Unsubscribe` header pointing there (no token: the page asks for sign-in).
   */
  notification?: { publicUrl: string };
  /** An iCalendar part (an invitation's update or cancellation), sent as text/calendar. */
  calendar?: { method: CalendarMethod; content: string };
}

/** "Sehr geehrte Frau Muster," / "Sehr geehrter Herr Muster," — else a neutral greeting. */
export function salutation(user: { title: string; lastname: string }): string {
  if (user.title === 'Frau') return `Sehr geehrte Frau ${user.lastname},`;
  if (user.title === 'Herr') return `Sehr geehrter Herr ${user.lastname},`;
  return 'Guten Tag,';
}

const CLOSING = ['Mit freundlichen Grüßen', `Ihr ${PORTAL_NAME}`] as const;
const SETTINGS_NOTE =
  'Wie oft Sie über neue Dokumente und Events benachrichtigt werden (sofort, täglich, wöchentlich oder nie), stellen Sie hier ein:';

/** "Label:" padded so that the values of all rows start in one column. */
function aligned(rows: readonly (readonly [string, string])[]): string[] {
  const width = Math.max(...rows.map(([label]) => label.length)) + 2;
  return rows.map(([label, value]) => `${`${label}:`.padEnd(width)}${value}`);
}

function blockText(block: MailBlock): string[] {
  switch (block.kind) {
    case 'paragraph':
      return [...block.lines];
    case 'facts':
      return [...(block.title === undefined ? [] : [block.title]), ...aligned(block.rows)];
    case 'action':
      return [block.url];
    case 'links':
      return aligned(block.links.map((link) => [link.label, link.url] as const));
    case 'heading':
      return [block.text];
    case 'list':
      return [
        ...(block.title === undefined ? [] : [block.title]),
        ...block.items.flatMap((item) => [`- ${item.text}`, ...(item.url ? [`  ${item.url}`] : [])]),
      ];
  }
}

/** The plain-text part: salutation, the blocks separated by blank lines, closing, settings note. */
export function renderText(content: MailContent): string {
  const lines = [salutation(content.recipient), ''];
  for (const block of content.blocks) lines.push(...blockText(block), '');
  lines.push(...CLOSING);
  if (content.notification) {
    lines.push('', '--', SETTINGS_NOTE, notificationSettingsUrl(content.notification.publicUrl));
  }
  return lines.join('\n');
}

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
/** Text and attribute values alike. */
export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => ENTITIES[c]!);

/** Only the portal's own http(s) addresses become links; anything else stays text. */
const isWebUrl = (url: string) => /^https?:\/\//i.test(url);
const link = (url: string, label: string, style = '') =>
  isWebUrl(url)
    ? `<a href="${escapeHtml(url)}"${style ? ` style="${style}"` : ''}>${escapeHtml(label)}</a>`
    : escapeHtml(label);

// Inline styles only (mail clients drop <style> and external CSS). No text or background colour
// is set on the page, so the client's own light or dark scheme applies; the button carries both
// of its colours and reads the same on either.
const P = 'margin:0 0 16px 0;';
const BUTTON =
  'display:inline-block;padding:12px 24px;border-radius:6px;border:2px solid #1a4f8b;background-color:#1a4f8b;color:#ffffff;font-weight:bold;text-decoration:none;';
const SMALL = 'font-size:14px;';

function blockHtml(block: MailBlock): string {
  switch (block.kind) {
    case 'paragraph':
      return `<p style="${P}">${block.lines.map(escapeHtml).join('<br>')}</p>`;
    case 'facts':
      return [
        ...(block.title === undefined
          ? []
          : [`<p style="${P}font-weight:bold;">${escapeHtml(block.title)}</p>`]),
        `<dl style="${P}">`,
        ...block.rows.map(
          ([label, value]) =>
            `<dt style="font-weight:bold;">${escapeHtml(label)}</dt><dd style="margin:0 0 8px 0;">${escapeHtml(value)}</dd>`,
        ),
        '</dl>',
      ].join('\n');
    case 'action':
      if (!isWebUrl(block.url)) return `<p style="${P}">${escapeHtml(block.label)}</p>`;
      return [
        `<p style="margin:0 0 24px 0;">${link(block.url, block.label, BUTTON)}</p>`,
        `<p style="${P}${SMALL}">Falls die Schaltfläche nicht funktioniert, öffnen Sie diese Adresse:<br>${link(block.url, block.url)}</p>`,
      ].join('\n');
    case 'links':
      return `<ul style="${P}">${block.links.map((item) => `<li>${link(item.url, item.label)}</li>`).join('')}</ul>`;
    case 'heading':
      return `<h2 style="margin:24px 0 8px 0;font-size:20px;">${escapeHtml(block.text)}</h2>`;
    case 'list':
      return [
        ...(block.title === undefined
          ? []
          : [`<h3 style="margin:16px 0 8px 0;font-size:17px;">${escapeHtml(block.title)}</h3>`]),
        `<ul style="${P}">`,
        ...block.items.map(
          (item) => `<li>${item.url ? link(item.url, item.text) : escapeHtml(item.text)}</li>`,
        ),
        '</ul>',
      ].join('\n');
  }
}

/** The HTML part: German, the same content as the text, no images, no external resources. */
export function renderHtml(content: MailContent): string {
  const settings = content.notification
    ? [
        `<footer style="margin-top:32px;padding-top:16px;border-top:1px solid #888888;${SMALL}">`,
        `<p style="${P}">${escapeHtml(SETTINGS_NOTE)}<br>${link(notificationSettingsUrl(content.notification.publicUrl), 'Benachrichtigungen einstellen')}</p>`,
        '</footer>',
      ]
    : [];
  return [
    '<!DOCTYPE html>',
    '<html lang="de">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light dark">',
    '<meta name="supported-color-schemes" content="light dark">',
    `<title>${escapeHtml(content.subject)}</title>`,
    '</head>',
    '<body style="margin:0;padding:0;">',
    '<div style="max-width:600px;margin:0 auto;padding:24px 16px;font-family:Arial,Helvetica,sans-serif;font-size:16px;line-height:1.5;">',
    `<header><p style="${P}font-size:14px;font-weight:bold;letter-spacing:0.05em;text-transform:uppercase;">${escapeHtml(PORTAL_NAME)}</p></header>`,
    '<main>',
    `<p style="${P}">${escapeHtml(salutation(content.recipient))}</p>`,
    ...content.blocks.map(blockHtml),
    `<p style="${P}">${CLOSING.map(escapeHtml).join('<br>')}</p>`,
    '</main>',
    ...settings,
    '</div>',
    '</body>',
    '</html>',
  ].join('\n');
}

/** A mail ready for the outbox: both parts, and the header a notification carries. */
export function composeMail(content: MailContent): OutgoingMail {
  if (content.blocks.filter((block) => block.kind === 'action').length > 1) {
    throw new Error('Eine E-Mail hat höchstens eine Hauptaktion');
  }
  return {
    to: content.to,
    subject: content.subject,
    text: renderText(content),
    html: renderHtml(content),
    ...(content.notification
      ? { listUnsubscribe: notificationSettingsUrl(content.notification.publicUrl) }
      : {}),
    ...(content.calendar ? { calendar: content.calendar } : {}),
  };
}
