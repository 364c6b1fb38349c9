import { formatDate } from '../../lib/format';

/** "JBSW Y3DP EHPK 3PXP": the secret in blocks of 4, easier to type into an app by hand. */
export function groupSecret(secret: string): string {
  return (secret.replace(/\s+/g, '').match(/.{1,4}/g) ?? []).join(' ');
}

/**
 * The server's QR code as an image source. An <img> never runs what an SVG might contain, so the
 * markup is not put into the page itself.
 */
export function qrImageSource(svg: string): string {
  return `data:image/svg+xml;utf8,${encodeURIComponent(svg)}`;
}

/** What "Als Textdatei herunterladen" saves: a German header with the date, then one code a line. */
export function recoveryCodesText(codes: readonly string[], email: string, now = new Date()): string {
  return [
    `Wiederherstellungscodes für das Gremienportal (${email}), erstellt am ${formatDate(now)}`,
    'Jeder Code gilt genau einmal. Bewahren Sie diese Codes sicher und getrennt von Ihrem Telefon auf.',
    '',
    ...codes,
    '',
  ].join('\r\n');
}

export function recoveryCodesFilename(now = new Date()): string {
  const [day, month, year] = formatDate(now).split('.');
  return `gremienportal-wiederherstellungscodes-${year}-${month}-${day}.txt`;
}

const BROWSERS: [RegExp, string][] = [
  [/Edg\//, 'Edge'],
  [/Firefox\//, 'Firefox'],
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/OPR\//, 'Opera'],
  [/Chrome\/|CriOS\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];
const SYSTEMS: [RegExp, string][] = [
  [/iPhone/, 'iPhone'],
  [/iPad/, 'iPad'],
  [/Android/, 'Android'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
];

/** "Firefox unter Windows" from the browser's self-description the server stored as the label. */
export function deviceName(label: string): string {
  const browser = BROWSERS.find(([pattern]) => pattern.test(label))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(label))?.[1];
  if (browser && system) return `${browser} unter ${system}`;
  return browser ?? system ?? 'Unbekanntes Gerät';
}
