import { generate, generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';

/** RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, 30-second steps. */
const ISSUER = 'Gremienportal';
/** One step either side: a phone clock a little off, or a code typed just as it changed. */
const TOLERANCE_SECONDS = 30;

export const newTotpSecret = (): string => generateSecret();

export function totpUri(secret: string, account: string): string {
  return generateURI({ issuer: ISSUER, label: account, secret });
}

/** The QR code of the otpauth URI as SVG markup, made here: no outside service sees the secret. */
export function totpQrSvg(uri: string): Promise<string> {
  return QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
}

/**
 * The 30-second step a code belongs to, or null when it is wrong. `notAfterStep`: the last step
 * accepted for this account; a code of that step or an earlier one is a replay and refused.
 */
export async function totpStep(
  secret: string,
  code: string,
  now: Date,
  notAfterStep: number | null,
): Promise<number | null> {
  const result = await verify({
    secret,
    token: code,
    epoch: Math.floor(now.getTime() / 1000),
    epochTolerance: TOLERANCE_SECONDS,
  });
  if (!result.valid) return null;
  const step = (result as { timeStep: number }).timeStep;
  return notAfterStep !== null && step <= notAfterStep ? null : step;
}

/** For tests and the CLI: the current code of a secret. */
export const totpCode = (secret: string, now: Date): Promise<string> =>
  generate({ secret, epoch: Math.floor(now.getTime() / 1000) });
