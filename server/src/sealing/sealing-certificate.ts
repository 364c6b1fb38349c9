import { X509Certificate, createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import forge from 'node-forge';
import type { SealingCertificateInfo } from './index.ts';

/*
 * The portal's own sealing certificate, for installations without one from a trust service: made
 * once at first start, self-signed, so readers show the seal as intact but its issuer as unknown
 * until someone trusts it. RSA with 3072 bits, the size BSI TR-02102-1 asks for beyond 2023.
 */

const MODULUS_BITS = 3072;

export interface SealingCertificateRequest {
  commonName: string;
  organization: string;
  /** How many years the certificate is valid, from `now`. */
  years: number;
  now?: Date;
}

/**
 * A new key and self-signed certificate as PKCS#12, under a new random password. Pure apart from
 * the randomness: nothing is stored, storing both (encrypted) is the caller's job.
 */
export function makeSealingCertificate(request: SealingCertificateRequest): {
  p12: Buffer;
  password: string;
} {
  const { commonName, organization, years } = request;
  if (commonName.trim() === '' || organization.trim() === '') {
    throw new Error('Siegelzertifikat: Name und Organisation dürfen nicht leer sein.');
  }
  if (!Number.isInteger(years) || years < 1 || years > 30) {
    throw new Error('Siegelzertifikat: die Gültigkeit muss 1 bis 30 Jahre betragen.');
  }
  // Node's key generation is native; node-forge's own would take seconds.
  const pair = generateKeyPairSync('rsa', {
    modulusLength: MODULUS_BITS,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const key = forge.pki.privateKeyFromPem(pair.privateKey);
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(pair.publicKey);
  cert.serialNumber = serialNumber();
  // X.509 times have whole seconds; rounding down keeps a seal made at `now` inside the validity.
  const notBefore = new Date(Math.floor((request.now ?? new Date()).getTime() / 1000) * 1000);
  const notAfter = new Date(notBefore);
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + years);
  cert.validity.notBefore = notBefore;
  cert.validity.notAfter = notAfter;
  // UTF-8, not node-forge's default PrintableString, which cannot hold "Südliches Ostallgäu".
  const name = [
    { shortName: 'O', value: organization },
    { shortName: 'CN', value: commonName },
  ].map((field) => ({ ...field, valueTagClass: forge.asn1.Type.UTF8 as unknown as forge.asn1.Class }));
  cert.setSubject(name);
  cert.setIssuer(name);
  cert.setExtensions([
    { name: 'basicConstraints', critical: true, cA: false },
    { name: 'keyUsage', critical: true, digitalSignature: true, nonRepudiation: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(key, forge.md.sha256.create());

  const password = randomBytes(24).toString('base64url');
  const p12 = forge.pkcs12.toPkcs12Asn1(key, [cert], password, {
    algorithm: 'aes256',
    friendlyName: commonName,
  });
  return { p12: Buffer.from(forge.asn1.toDer(p12).getBytes(), 'binary'), password };
}

/** Subject, fingerprint and end of validity of a DER certificate, read by Node (OpenSSL). */
export function describeCertificate(der: Uint8Array): SealingCertificateInfo {
  const certificate = new X509Certificate(der);
  return {
    subject: certificate.subject.split('\n').join(', '),
    fingerprintSha256: createHash('sha256').update(der).digest('hex'),
    notAfter: certificate.validToDate.toISOString(),
  };
}

/** Positive and 16 bytes long, as RFC 5280 4.1.2.2 wants, and random, as CA/B asks. */
function serialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0]! & 0x7f) | 0x10;
  return bytes.toString('hex');
}
