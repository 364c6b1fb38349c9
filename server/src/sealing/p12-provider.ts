import { Signer } from '@signpdf/signpdf';
import forge from 'node-forge';
import type { SealingProvider } from './index.ts';
import { signPdfWith } from './pdf-signature.ts';
import { describeCertificate } from './sealing-certificate.ts';

/*
 * Seals with a PKCS#12 file (`SIGNING_P12` / `SIGNING_P12_PASSWORD`, or the portal's own from
 * makeSealingCertificate). The file is opened here, once, so a wrong password or an unusable file
 * fails at start-up with a clear message instead of at the first seal.
 *
 * The CMS is built as @signpdf/signer-p12 builds it, but not with it: its signer reads the file
 * anew for every seal from a buffer the first read used up (the second seal fails), and node-forge
 * writes a name in UTF-8 once more when it copies the certificate's issuer into the signer info, so
 * an issuer such as "Raiffeisenbank Südliches Ostallgäu eG" (the portal's own certificate is its
 * own issuer) no longer names the certificate and readers reject the signature.
 */

/** Room for the CMS beyond its certificates: signer info, attributes and the RSA signature. */
const SIGNATURE_OVERHEAD = 4096;
const MIN_SIGNATURE_LENGTH = 8192;

export function p12Provider(p12: Buffer, password: string): SealingProvider {
  const { key, certificate, chain } = openP12(p12, password);
  const info = describeCertificate(derOf(certificate));
  const { notBefore, notAfter } = certificate.validity;
  const signer = new CmsSigner(key, certificate, chain);
  const chainBytes = chain.reduce((sum, cert) => sum + derOf(cert).length, 0);
  const signatureLength = Math.max(MIN_SIGNATURE_LENGTH, chainBytes + SIGNATURE_OVERHEAD);
  return {
    name: 'p12',
    certificate: () => ({ ...info }),
    async seal(pdf, sealInfo) {
      if (sealInfo.signedAt < notBefore || sealInfo.signedAt > notAfter) {
        throw new Error(
          `Siegel: das Zertifikat gilt am ${sealInfo.signedAt.toISOString()} nicht ` +
            `(gültig von ${notBefore.toISOString()} bis ${notAfter.toISOString()}).`,
        );
      }
      return signPdfWith(signer, pdf, sealInfo, signatureLength);
    },
  };
}

/** A detached PKCS#7 over SHA-256 with every certificate of the file, as Adobe.PPKLite expects. */
class CmsSigner extends Signer {
  constructor(
    private readonly key: forge.pki.rsa.PrivateKey,
    private readonly certificate: forge.pki.Certificate,
    private readonly chain: forge.pki.Certificate[],
  ) {
    super();
  }

  override async sign(pdf: Buffer, signingTime?: Date): Promise<Buffer> {
    const p7 = forge.pkcs7.createSignedData();
    p7.content = forge.util.createBuffer(pdf.toString('binary'));
    for (const cert of this.chain) p7.addCertificate(cert);
    const oids = forge.pki.oids;
    p7.addSigner({
      key: this.key,
      certificate: this.certificate,
      digestAlgorithm: oids.sha256!,
      // This order of the attributes is the one EU validators (DSS) accept.
      authenticatedAttributes: [
        { type: oids.contentType!, value: oids.data! },
        { type: oids.signingTime!, value: (signingTime ?? new Date()) as unknown as string },
        { type: oids.messageDigest! },
      ],
    });
    p7.sign({ detached: true });
    return Buffer.from(forge.asn1.toDer(p7.toAsn1()).getBytes(), 'binary');
  }
}

interface OpenedP12 {
  key: forge.pki.rsa.PrivateKey;
  /** The certificate of the key. */
  certificate: forge.pki.Certificate;
  /** Every certificate in the file, the key's among them. */
  chain: forge.pki.Certificate[];
}

function openP12(p12: Buffer, password: string): OpenedP12 {
  let pfx: forge.pkcs12.Pkcs12Pfx;
  try {
    const asn1 = forge.asn1.fromDer(forge.util.createBuffer(p12.toString('binary')));
    pfx = forge.pkcs12.pkcs12FromAsn1(asn1, false, password);
  } catch (error) {
    // node-forge's messages name the cause ("Invalid password?") and never the password.
    const wrongPassword = error instanceof Error && /password/i.test(error.message);
    throw new Error(
      wrongPassword
        ? 'Siegelzertifikat: die PKCS#12-Datei lässt sich mit diesem Passwort nicht öffnen.'
        : 'Siegelzertifikat: die Datei ist keine lesbare PKCS#12-Datei (mit RSA-Schlüssel).',
      { cause: error },
    );
  }
  const keyBags = [forge.pki.oids.pkcs8ShroudedKeyBag!, forge.pki.oids.keyBag!].flatMap(
    (bagType) => pfx.getBags({ bagType })[bagType] ?? [],
  );
  const key = keyBags.find((bag) => bag.key)?.key as forge.pki.rsa.PrivateKey | undefined;
  if (!key) throw new Error('Siegelzertifikat: die PKCS#12-Datei enthält keinen RSA-Schlüssel.');
  const certBag = forge.pki.oids.certBag!;
  const chain = (pfx.getBags({ bagType: certBag })[certBag] ?? []).flatMap((bag) =>
    bag.cert ? [withDecodedNames(bag.cert)] : [],
  );
  const certificate = chain.find((cert) => {
    const publicKey = cert.publicKey as forge.pki.rsa.PublicKey;
    return publicKey.n.compareTo(key.n) === 0 && publicKey.e.compareTo(key.e) === 0;
  });
  if (!certificate) {
    throw new Error('Siegelzertifikat: kein Zertifikat der PKCS#12-Datei gehört zu ihrem Schlüssel.');
  }
  return { key, certificate, chain };
}

/**
 * node-forge reads a UTF8String in a name as its bytes but writes it as text, encoding it again;
 * decoded here, the issuer it writes into the signer info is the certificate's, byte for byte. The
 * certificate itself goes into the signature as read.
 */
function withDecodedNames(cert: forge.pki.Certificate): forge.pki.Certificate {
  const utf8 = forge.asn1.Type.UTF8 as number;
  for (const name of [cert.issuer, cert.subject]) {
    for (const attribute of name.attributes) {
      if ((attribute.valueTagClass as number | undefined) === utf8 && typeof attribute.value === 'string') {
        attribute.value = forge.util.decodeUtf8(attribute.value);
      }
    }
  }
  return cert;
}

function derOf(cert: forge.pki.Certificate): Buffer {
  return Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes(), 'binary');
}
