import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFString, rgb } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embedBookFonts } from '../../src/book/book-fonts.ts';
import {
  sealPdf,
  sha256Hex,
  signedByteRange,
  type SealInfo,
  type SealingProvider,
} from '../../src/sealing/index.ts';
import { p12Provider } from '../../src/sealing/p12-provider.ts';
import { makeSealingCertificate } from '../../src/sealing/sealing-certificate.ts';

/*
 * The seal as readers outside the portal see it: poppler's pdfsig checks the signature with NSS,
 * pdftotext reads the text, OpenSSL reads the certificate. All three are installed by .ci/run
 * (poppler-utils, openssl); a missing one fails the test, it is not skipped.
 */

const COMMON_NAME = 'Gremienportal Siegel';
const ORGANIZATION = 'Raiffeisenbank Südliches Ostallgäu eG';
const MADE_AT = new Date('2026-11-21T09:00:00.000Z');
const INFO: SealInfo = {
  reason: 'Niederschrift, unterzeichnet von 2 Personen :-) \\ (Vorsitz',
  location: 'Kempten (Allgäu)',
  signerName: 'Łucja Wąsowska',
  signedAt: new Date('2026-11-21T10:00:00.000Z'),
};

const run = promisify(execFile);
let work: string;
let madeP12: { p12: Buffer; password: string };
let provider: SealingProvider;
let minutes: Uint8Array;
let sealed: Uint8Array;

/** Where `tool` puts the file it wrote `bytes` to. */
const FILE = '<file>';

/** A tool's output, on `bytes` written to a file, whatever its exit code; a missing tool fails loudly. */
async function tool(command: string, args: string[], bytes?: Uint8Array): Promise<string> {
  const file = join(work, `${command}-${Math.random().toString(36).slice(2)}.pdf`);
  if (bytes) await writeFile(file, bytes);
  try {
    const { stdout, stderr } = await run(
      command,
      args.map((arg) => (arg === FILE ? file : arg)),
      { env: { ...process.env, TZ: 'UTC' } },
    );
    return stdout + stderr;
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & { stdout?: string; stderr?: string };
    if (failure.code === 'ENOENT') {
      throw new Error(
        `${command} fehlt: poppler-utils und openssl installieren (apt-get install poppler-utils openssl).`,
        {
          cause: error,
        },
      );
    }
    return (failure.stdout ?? '') + (failure.stderr ?? '');
  } finally {
    if (bytes) await rm(file, { force: true });
  }
}

const pdfsig = (bytes: Uint8Array) => tool('pdfsig', [FILE], bytes);

/** A Niederschrift of `pages` pages in Noto Sans, with names beyond WinAnsi. */
async function makeMinutes(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle('Niederschrift der Sitzung des Aufsichtsrats');
  const { regular, bold } = await embedBookFonts(doc);
  for (let number = 1; number <= pages; number += 1) {
    const page = doc.addPage([595, 842]);
    page.drawText(`Niederschrift – Seite ${number} von ${pages}`, { x: 50, y: 790, size: 16, font: bold });
    for (let line = 0; line < 36; line += 1) {
      page.drawText(`TOP ${line + 1}: Łucja Wąsowska berichtet über die Prüfung der Größe „Straße“.`, {
        x: 50,
        y: 750 - line * 19,
        size: 10.5,
        font: regular,
        color: rgb(0.1, 0.1, 0.1),
      });
    }
  }
  return doc.save();
}

/** The signature dictionary of a sealed file, read back with pdf-lib. */
async function signatureDictionary(bytes: Uint8Array): Promise<PDFDict> {
  const doc = await PDFDocument.load(bytes);
  const acroForm = doc.catalog.lookup(PDFName.of('AcroForm'), PDFDict);
  const widget = acroForm.lookup(PDFName.of('Fields'), PDFArray).lookup(0, PDFDict);
  return widget.lookup(PDFName.of('V'), PDFDict);
}

function text(dict: PDFDict, key: string): string | undefined {
  const value = dict.lookup(PDFName.of(key));
  return value instanceof PDFHexString || value instanceof PDFString ? value.decodeText() : undefined;
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'sealing-'));
  madeP12 = makeSealingCertificate({
    commonName: COMMON_NAME,
    organization: ORGANIZATION,
    years: 5,
    now: MADE_AT,
  });
  provider = p12Provider(madeP12.p12, madeP12.password);
  minutes = await makeMinutes(3);
  sealed = await sealPdf(provider, minutes, INFO);
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('sealPdf with the portal’s own certificate', () => {
  it('gives a file that pdfsig finds signed over all of it, the signature valid', async () => {
    const output = await pdfsig(sealed);
    expect(output, output).toContain('Signature #1:');
    expect(output, output).toContain(`Signer Certificate Common Name: ${COMMON_NAME}`);
    expect(output, output).toContain(`Signer full Distinguished Name: CN=${COMMON_NAME},O=${ORGANIZATION}`);
    expect(output, output).toContain('Signing Time: Nov 21 2026 10:00:00');
    expect(output, output).toContain('Signing Hash Algorithm: SHA-256');
    expect(output, output).toContain('Signature Type: adbe.pkcs7.detached');
    expect(output, output).toContain('Total document signed');
    expect(output, output).toContain('Signature Validation: Signature is Valid.');
    // Self-made: intact, but nobody vouches for the issuer.
    expect(output, output).toMatch(/Certificate Validation: Certificate issuer (is unknown|isn't Trusted)/);
    expect(output, output).not.toContain('Signature #2:');
  });

  it.each([
    ['the header, before the signature', (bytes: Buffer) => bytes.indexOf('%', 1) + 1],
    [
      'the reason, after the signature',
      (bytes: Buffer) =>
        bytes.indexOf('/Reason <FEFF', signedByteRange(bytes)![2]) + '/Reason <FEFF00'.length,
    ],
  ])('shows a byte changed after sealing, in %s', async (_where, position) => {
    const tampered = Buffer.from(sealed);
    const at = position(tampered);
    const [, firstLength, second] = signedByteRange(tampered)!;
    expect(at < firstLength || at >= second, 'the byte lies in a signed range').toBe(true);
    // A hex digit or a comment byte stays one: the file still parses, only its content differs.
    tampered[at] = tampered[at] === 0x34 ? 0x35 : tampered[at]! ^ 0x01;
    const output = await pdfsig(tampered);
    expect(output, output).toContain('Signature #1:');
    expect(output, output).toMatch(/Signature Validation: (Digest Mismatch|Signature is Invalid)\./);
    expect(output, output).not.toContain('Signature is Valid.');
    expect(sha256Hex(tampered)).not.toBe(sha256Hex(sealed));
  });

  it('keeps the pages and their text, as pdftotext reads it', async () => {
    const output = await tool('pdftotext', ['-enc', 'UTF-8', FILE, '-'], sealed);
    expect(output).toContain('Niederschrift – Seite 3 von 3');
    expect(output).toContain('Łucja Wąsowska berichtet über die Prüfung der Größe „Straße“.');
    expect((await PDFDocument.load(sealed)).getPageCount()).toBe(3);
    expect((await PDFDocument.load(sealed)).getTitle()).toBe('Niederschrift der Sitzung des Aufsichtsrats');
  });

  it('writes name, reason and place in Unicode into the signature, and no contact without one', async () => {
    const dict = await signatureDictionary(sealed);
    expect(text(dict, 'Name')).toBe('Łucja Wąsowska');
    expect(text(dict, 'Reason')).toBe(INFO.reason);
    expect(text(dict, 'Location')).toBe('Kempten (Allgäu)');
    expect(dict.has(PDFName.of('ContactInfo'))).toBe(false);
    expect(dict.lookup(PDFName.of('SubFilter'))).toEqual(PDFName.of('adbe.pkcs7.detached'));
    expect(dict.lookup(PDFName.of('M'))).toEqual(PDFString.of('D:20261121100000Z'));

    const withContact = await sealPdf(provider, minutes, { ...INFO, contactInfo: 'gremien@rb-süd.de' });
    expect(text(await signatureDictionary(withContact), 'ContactInfo')).toBe('gremien@rb-süd.de');
  });

  it('gives the same bytes for the same input, and a signature over the whole file', async () => {
    const again = await sealPdf(provider, minutes, INFO);
    expect(Buffer.from(again).equals(Buffer.from(sealed))).toBe(true);
    expect(sha256Hex(again)).toMatch(/^[0-9a-f]{64}$/);
    expect(sha256Hex(again)).toBe(sha256Hex(sealed));
    const [start, firstLength, second, secondLength] = signedByteRange(sealed)!;
    expect(start).toBe(0);
    expect(second + secondLength).toBe(sealed.length);
    expect(Buffer.from(sealed.subarray(firstLength, firstLength + 1)).toString()).toBe('<');

    const later = await sealPdf(provider, minutes, {
      ...INFO,
      signedAt: new Date('2026-11-21T10:00:01.000Z'),
    });
    expect(sha256Hex(later)).not.toBe(sha256Hex(sealed));
  });

  it('seals a 30-page Niederschrift quickly, and it stays valid', async () => {
    const long = await makeMinutes(30);
    const started = performance.now();
    const sealedLong = await sealPdf(provider, long, INFO);
    const took = performance.now() - started;
    const output = await pdfsig(sealedLong);
    expect(output, output).toContain('Signature Validation: Signature is Valid.');
    // A loose bound against a seal that reads or hashes the file over and over.
    expect(took).toBeLessThan(5_000);
  });

  it('refuses a file that is already signed: pdf-lib would break its signature', async () => {
    await expect(sealPdf(provider, sealed, INFO)).rejects.toThrow('bereits signiert');
  });

  it('refuses a time outside the certificate’s validity', async () => {
    await expect(
      sealPdf(provider, minutes, { ...INFO, signedAt: new Date('2031-11-22T00:00:00.000Z') }),
    ).rejects.toThrow('gilt am 2031-11-22T00:00:00.000Z nicht');
    await expect(
      sealPdf(provider, minutes, { ...INFO, signedAt: new Date('2026-11-21T08:59:59.000Z') }),
    ).rejects.toThrow('nicht');
  });

  it('refuses an empty reason, and a provider whose result carries no signature', async () => {
    await expect(sealPdf(provider, minutes, { ...INFO, reason: ' ' })).rejects.toThrow('der Grund fehlt');
    const careless: SealingProvider = {
      name: 'careless',
      seal: async (pdf) => pdf,
      certificate: () => provider.certificate(),
    };
    await expect(sealPdf(careless, minutes, INFO)).rejects.toThrow('keine Signatur über die ganze Datei');
    await expect(sealPdf(provider, Buffer.from('kein PDF'), INFO)).rejects.toThrow('lässt sich nicht lesen');
  });
});

describe('p12Provider', () => {
  it('opens the made PKCS#12 with its password and reports the certificate', async () => {
    const again = p12Provider(madeP12.p12, madeP12.password);
    expect(again.name).toBe('p12');
    const certificate = again.certificate();
    expect(certificate).toEqual(provider.certificate());
    expect(certificate.subject).toBe(`O=${ORGANIZATION}, CN=${COMMON_NAME}`);
    expect(certificate.fingerprintSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(certificate.notAfter).toBe('2031-11-21T09:00:00.000Z');

    // OpenSSL reads the file too, and sees the same certificate.
    const p12File = join(work, 'made.p12');
    await writeFile(p12File, madeP12.p12);
    const pem = await tool('openssl', [
      'pkcs12',
      '-in',
      p12File,
      '-nokeys',
      '-passin',
      `pass:${madeP12.password}`,
    ]);
    const pemFile = join(work, 'made.pem');
    await writeFile(pemFile, pem);
    const described = await tool('openssl', [
      'x509',
      '-in',
      pemFile,
      '-noout',
      '-text',
      '-fingerprint',
      '-sha256',
    ]);
    const fingerprint = /sha256 Fingerprint=([0-9A-F:]+)/.exec(described)?.[1];
    expect(fingerprint?.replaceAll(':', '').toLowerCase(), described).toBe(certificate.fingerprintSha256);
    expect(described).toContain('Public-Key: (3072 bit)');
    expect(described).toMatch(/X509v3 Key Usage: critical\s+Digital Signature, Non Repudiation/);
    expect(described).toMatch(/X509v3 Basic Constraints: critical\s+CA:FALSE/);
    expect(described).toContain('Signature Algorithm: sha256WithRSAEncryption');
  });

  it('refuses a wrong password with a clear message that names no password', () => {
    const attempt = () => p12Provider(madeP12.p12, 'falsches-Passwort-123');
    expect(attempt).toThrow(Error);
    expect(attempt).toThrow('lässt sich mit diesem Passwort nicht öffnen');
    let message = '';
    try {
      attempt();
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).not.toContain('falsches-Passwort-123');
    expect(message).not.toContain(madeP12.password);
  });

  it('refuses a file that is no PKCS#12', () => {
    expect(() => p12Provider(Buffer.from('kein Zertifikat'), 'x')).toThrow('keine lesbare PKCS#12-Datei');
  });

  it('seals with a PKCS#12 that OpenSSL made, issued by a CA with umlauts in its name', async () => {
    const ssl = (args: string[]) => tool('openssl', args);
    const file = (name: string) => join(work, name);
    await ssl([
      ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-utf8', '-days', '3650'],
      ...['-keyout', file('ca.key'), '-out', file('ca.crt')],
      ...['-subj', '/C=DE/O=Genossenschaftsverband Süd/CN=Verband Prüf-CA'],
      ...['-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign'],
    ]);
    await ssl([
      ...[
        'req',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-utf8',
        '-keyout',
        file('leaf.key'),
        '-out',
        file('leaf.csr'),
      ],
      ...['-subj', `/C=DE/O=${ORGANIZATION}/CN=${COMMON_NAME}`],
    ]);
    await writeFile(file('leaf.ext'), 'keyUsage=critical,digitalSignature,nonRepudiation\n');
    await ssl([
      ...['x509', '-req', '-in', file('leaf.csr'), '-CA', file('ca.crt'), '-CAkey', file('ca.key')],
      ...['-CAcreateserial', '-days', '3650', '-extfile', file('leaf.ext'), '-out', file('leaf.crt')],
    ]);
    const made = await ssl([
      ...['pkcs12', '-export', '-inkey', file('leaf.key'), '-in', file('leaf.crt')],
      ...['-certfile', file('ca.crt'), '-out', file('leaf.p12'), '-passout', 'pass:geheim'],
    ]);
    const p12 = await readFile(file('leaf.p12')).catch(() => {
      throw new Error(`OpenSSL made no PKCS#12: ${made}`);
    });

    const theirs = p12Provider(p12, 'geheim');
    expect(theirs.certificate().subject).toBe(`C=DE, O=${ORGANIZATION}, CN=${COMMON_NAME}`);
    const output = await pdfsig(await sealPdf(theirs, minutes, { ...INFO, signedAt: new Date() }));
    expect(output, output).toContain(
      `Signer full Distinguished Name: CN=${COMMON_NAME},O=${ORGANIZATION},C=DE`,
    );
    expect(output, output).toContain('Signature Validation: Signature is Valid.');
  });
});

describe('makeSealingCertificate', () => {
  it('makes a new key and password every time', () => {
    const other = makeSealingCertificate({
      commonName: COMMON_NAME,
      organization: ORGANIZATION,
      years: 5,
      now: MADE_AT,
    });
    expect(other.password).not.toBe(madeP12.password);
    expect(other.password.length).toBeGreaterThanOrEqual(32);
    expect(p12Provider(other.p12, other.password).certificate().fingerprintSha256).not.toBe(
      provider.certificate().fingerprintSha256,
    );
  });

  it('refuses an empty name and an unreasonable validity', () => {
    expect(() => makeSealingCertificate({ commonName: ' ', organization: ORGANIZATION, years: 5 })).toThrow(
      'nicht leer',
    );
    expect(() =>
      makeSealingCertificate({ commonName: COMMON_NAME, organization: ORGANIZATION, years: 0 }),
    ).toThrow('1 bis 30 Jahre');
  });
});
