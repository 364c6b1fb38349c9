import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { SignPdf, type Signer } from '@signpdf/signpdf';
import { PDFAcroSignature, PDFDocument, PDFHexString, PDFInvalidObject, PDFName } from 'pdf-lib';
import type { SealInfo } from './index.ts';

/*
 * A PDF signature over the whole file, for any @signpdf Signer (a PKCS#12 today, a provider's
 * remote signer later). pdf-lib rewrites the file once, with the signature field and a zeroed
 * `/Contents` of `signatureLength` bytes; the signer then signs every byte but that hex string.
 * The placeholder keeps its signature dictionary out of object streams by itself (it registers it
 * as raw bytes), so the file keeps pdf-lib's compact object streams and needs no
 * `useObjectStreams: false`.
 *
 * The SubFilter is adbe.pkcs7.detached, not ETSI.CAdES.detached: the CMS built here, as
 * @signpdf/signer-p12 builds it, has a signing-time attribute and no ESS signing-certificate-v2,
 * which a PAdES baseline forbids and requires; claiming PAdES would make EU validators (DSS) reject
 * a seal every reader accepts.
 */

const ADOBE_PKCS7_DETACHED = 'adbe.pkcs7.detached';

/**
 * The placeholder writes its text strings as pdf-lib's PDFString: one byte per character, unescaped,
 * so "Łucja" comes out as "Aucja" and an unbalanced ")" ends the string early. It gets these
 * stand-ins instead, which are then replaced by UTF-16 hex strings (ISO 32000-1, 7.9.2.2).
 */
const STAND_INS = {
  reason: 'GPSEAL-REASON',
  location: 'GPSEAL-LOCATION',
  contactInfo: 'GPSEAL-CONTACT',
  signerName: 'GPSEAL-NAME',
} as const;

/** `pdf` with a signature by `signer` over all of it; byte for byte the same for the same input. */
export async function signPdfWith(
  signer: Signer,
  pdf: Uint8Array,
  info: SealInfo,
  signatureLength: number,
): Promise<Uint8Array> {
  const doc = await loadUnsigned(pdf);
  // The file's own metadata stays; pdf-lib's would put the time of saving in, and no two seals of
  // one file would be the same.
  doc.setModificationDate(info.signedAt);
  pdflibAddPlaceholder({
    pdfDoc: doc,
    reason: STAND_INS.reason,
    location: STAND_INS.location,
    contactInfo: STAND_INS.contactInfo,
    name: STAND_INS.signerName,
    signingTime: info.signedAt,
    signatureLength,
    subFilter: ADOBE_PKCS7_DETACHED,
  });
  writeTextStrings(doc, info);
  const prepared = await doc.save();
  return new SignPdf().sign(prepared, signer, info.signedAt);
}

async function loadUnsigned(pdf: Uint8Array): Promise<PDFDocument> {
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(pdf, { updateMetadata: false });
  } catch (error) {
    throw new Error('Siegel: das PDF lässt sich nicht lesen (beschädigt oder verschlüsselt).', {
      cause: error,
    });
  }
  // pdf-lib writes the file anew, which breaks every signature already in it.
  const signed = (doc.catalog.getAcroForm()?.getAllFields() ?? []).some(
    ([field]) => field instanceof PDFAcroSignature && field.dict.has(PDFName.of('V')),
  );
  if (signed) throw new Error('Siegel: das PDF ist bereits signiert; ein Siegel würde die Signatur brechen.');
  return doc;
}

/** Replaces the stand-ins in the signature dictionary (stored as raw bytes) by the real texts. */
function writeTextStrings(doc: PDFDocument, info: SealInfo): void {
  const standIn = (name: keyof typeof STAND_INS) => `(${STAND_INS[name]})`;
  for (const [ref, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFInvalidObject)) continue;
    const bytes = new Uint8Array(object.sizeInBytes());
    object.copyBytesInto(bytes, 0);
    let dict = Buffer.from(bytes).toString('latin1');
    if (!dict.includes(standIn('reason'))) continue;
    for (const name of ['reason', 'location', 'signerName'] as const) {
      dict = dict.replace(standIn(name), PDFHexString.fromText(info[name]).toString());
    }
    dict =
      info.contactInfo === undefined || info.contactInfo === ''
        ? dict.replace(`/ContactInfo ${standIn('contactInfo')}`, '')
        : dict.replace(standIn('contactInfo'), PDFHexString.fromText(info.contactInfo).toString());
    if (Object.keys(STAND_INS).some((name) => dict.includes(standIn(name as keyof typeof STAND_INS)))) {
      throw new Error('Siegel: das Signaturfeld hat eine unerwartete Form.');
    }
    doc.context.assign(ref, PDFInvalidObject.of(Buffer.from(dict, 'latin1')));
    return;
  }
  throw new Error('Siegel: das Signaturfeld fehlt im PDF.');
}
