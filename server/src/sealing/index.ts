/*
 * Sealing. Minutes are signed in the portal by each signer with their own login and second factor:
 * a simple electronic signature with strong authentication of the signers. The finished PDF is then
 * sealed with the portal's certificate as a real PDF signature (adbe.pkcs7.detached), so any PDF
 * reader shows whether the file was changed after sealing. The seal proves integrity and origin
 * from this installation; it is no qualified electronic signature (QES). Certificate: the
 * installation's PKCS#12 (p12Provider) or the portal's own (makeSealingCertificate); a provider's
 * AES/QES can plug in later as another SealingProvider. A shared layer: it imports no feature.
 */
import { createHash } from 'node:crypto';

/** What the signature dictionary records about a seal; readers show it in their signature panel. */
export interface SealInfo {
  reason: string;
  location: string;
  contactInfo?: string;
  signerName: string;
  signedAt: Date;
}

/** The certificate a provider seals with, as the settings and the signatures page show it. */
export interface SealingCertificateInfo {
  subject: string;
  /** SHA-256 of the certificate's DER bytes, 64 lowercase hex digits. */
  fingerprintSha256: string;
  /** ISO 8601. */
  notAfter: string;
}

/** Something that turns a finished PDF into a sealed one: the portal's PKCS#12 today, a provider later. */
export interface SealingProvider {
  readonly name: string;
  seal(pdf: Uint8Array, info: SealInfo): Promise<Uint8Array>;
  certificate(): SealingCertificateInfo;
}

/** The one entry point for features: checks the request, lets the provider seal, checks the result. */
export async function sealPdf(
  provider: SealingProvider,
  pdf: Uint8Array,
  info: SealInfo,
): Promise<Uint8Array> {
  const required = {
    reason: 'der Grund',
    location: 'der Ort',
    signerName: 'der Name des Siegelnden',
  } as const;
  for (const [field, label] of Object.entries(required) as [keyof typeof required, string][]) {
    if (info[field].trim() === '') throw new Error(`Siegel: ${label} fehlt.`);
  }
  if (Number.isNaN(info.signedAt.getTime())) throw new Error('Siegel: der Zeitpunkt ist ungültig.');
  const sealed = await provider.seal(pdf, info);
  if (!signedByteRange(sealed)) {
    throw new Error(`Siegel „${provider.name}“: das Ergebnis trägt keine Signatur über die ganze Datei.`);
  }
  return sealed;
}

/** The document hash the signatures page prints. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * The byte range of the file's last signature, if it covers the whole file except its own
 * `/Contents` hex string (ISO 32000-1, 12.8.1): what a sealed file must have, and the bytes a
 * reader checks.
 */
export function signedByteRange(pdf: Uint8Array): [number, number, number, number] | undefined {
  const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  const at = bytes.lastIndexOf('/ByteRange');
  if (at < 0) return undefined;
  const match = /^\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/.exec(
    bytes.subarray(at, at + 80).toString('latin1'),
  );
  if (!match) return undefined;
  const [start, firstLength, second, secondLength] = match.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
  ];
  const whole =
    start === 0 &&
    firstLength < second &&
    second + secondLength === bytes.length &&
    bytes[firstLength] === 0x3c && // "<"
    bytes[second - 1] === 0x3e; // ">"
  return whole ? [start, firstLength, second, secondLength] : undefined;
}
