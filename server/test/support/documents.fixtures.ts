import { constants, crc32, deflateRawSync } from 'node:zlib';
import { strToU8, zipSync } from 'fflate';
import { PDFDocument, PDFHexString, StandardFonts } from 'pdf-lib';

/** Documents made in the test for the text extraction: small real files and hostile ones. */

/** A PDF with one page per text, set in Helvetica (WinAnsi, so umlauts work). */
export async function pdfWithPages(texts: string[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const text of texts) doc.addPage().drawText(text, { x: 50, y: 700, size: 12, font });
  return doc.save();
}

/** Pages without any content: nothing to read, but every page must be visited. */
export async function pdfWithEmptyPages(count: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < count; i++) doc.addPage();
  return doc.save();
}

/**
 * A PDF protected by a user password (Standard security handler, RC4 40 bit). pdf-lib cannot
 * encrypt; the dictionary is written by hand and its /U entry matches no password, so a reader
 * cannot open the file without one, which is all an encrypted upload is to the extraction.
 */
export async function encryptedPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.addPage().drawText('Geheim', { x: 50, y: 700, font: await doc.embedFont(StandardFonts.Helvetica) });
  const ctx = doc.context;
  const encrypt = ctx.obj({
    Filter: 'Standard',
    V: 1,
    R: 2,
    Length: 40,
    P: -44,
    O: PDFHexString.of('a5'.repeat(32)),
    U: PDFHexString.of('5a'.repeat(32)),
  });
  ctx.trailerInfo.Encrypt = ctx.register(encrypt);
  const id = PDFHexString.of('0123456789abcdef0123456789abcdef');
  ctx.trailerInfo.ID = ctx.obj([id, id]);
  return doc.save({ useObjectStreams: false });
}

/** Bytes that start like a PDF and then are noise (a fixed seed, so every run is the same). */
export function malformedPdf(): Uint8Array {
  const noise = new Uint8Array(64 * 1024);
  let seed = 19;
  for (let i = 0; i < noise.length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    noise[i] = seed >>> 24;
  }
  return Buffer.concat([Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog'), noise]);
}

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
const OOXML_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

function contentTypes(overrides: Record<string, string>): string {
  const parts = Object.entries(overrides)
    .map(([part, type]) => `<Override PartName="/${part}" ContentType="${type}"/>`)
    .join('');
  return `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>${parts}</Types>`;
}

function relationships(rels: [id: string, type: string, target: string][]): string {
  const items = rels
    .map(([id, type, target]) => `<Relationship Id="${id}" Type="${OOXML_REL}/${type}" Target="${target}"/>`)
    .join('');
  return `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${items}</Relationships>`;
}

function zip(files: Record<string, string>): Uint8Array {
  return zipSync(Object.fromEntries(Object.entries(files).map(([name, text]) => [name, strToU8(text)])));
}

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

function wordBody(paragraphs: string[]): string {
  const body = paragraphs.map((p) => `<w:p><w:r><w:t xml:space="preserve">${p}</w:t></w:r></w:p>`).join('');
  return `${XML}<w:document ${W}><w:body>${body}</w:body></w:document>`;
}

function docxParts(documentXml: string): Record<string, string> {
  return {
    '[Content_Types].xml': contentTypes({
      'word/document.xml': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml',
    }),
    '_rels/.rels': relationships([['rId1', 'officeDocument', 'word/document.xml']]),
    'word/document.xml': documentXml,
  };
}

export function docx(paragraphs: string[]): Uint8Array {
  return zip(docxParts(wordBody(paragraphs)));
}

/** A DOCX made large by a stored (uncompressed) picture the text extraction never inflates. */
export function docxWithPicture(paragraphs: string[], pictureBytes: number): Uint8Array {
  const parts = Object.entries(docxParts(wordBody(paragraphs))).map(([name, text]) => [name, strToU8(text)]);
  return zipSync({
    ...Object.fromEntries(parts),
    'word/media/image1.png': [new Uint8Array(pictureBytes).fill(0x41), { level: 0 }],
  });
}

export function pptx(slideTexts: string[]): Uint8Array {
  const P = 'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';
  const A = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"';
  const files: Record<string, string> = {
    '[Content_Types].xml': contentTypes({
      'ppt/presentation.xml':
        'application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml',
      ...Object.fromEntries(
        slideTexts.map((_, i) => [
          `ppt/slides/slide${i + 1}.xml`,
          'application/vnd.openxmlformats-officedocument.presentationml.slide+xml',
        ]),
      ),
    }),
    '_rels/.rels': relationships([['rId1', 'officeDocument', 'ppt/presentation.xml']]),
    'ppt/presentation.xml': `${XML}<p:presentation ${P} xmlns:r="${OOXML_REL}"><p:sldIdLst>${slideTexts.map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${i + 1}"/>`).join('')}</p:sldIdLst></p:presentation>`,
    'ppt/_rels/presentation.xml.rels': relationships(
      slideTexts.map((_, i) => [`rId${i + 1}`, 'slide', `slides/slide${i + 1}.xml`]),
    ),
  };
  slideTexts.forEach((text, i) => {
    files[`ppt/slides/slide${i + 1}.xml`] =
      `${XML}<p:sld ${P} ${A}><p:cSld><p:spTree><p:sp><p:txBody><a:p><a:r><a:t>${text}</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:sld>`;
  });
  return zip(files);
}

export function xlsx(rows: string[][]): Uint8Array {
  const S = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
  const cells = rows
    .map(
      (row, r) =>
        `<row r="${r + 1}">${row.map((v, c) => `<c r="${String.fromCharCode(65 + c)}${r + 1}" t="inlineStr"><is><t>${v}</t></is></c>`).join('')}</row>`,
    )
    .join('');
  return zip({
    '[Content_Types].xml': contentTypes({
      'xl/workbook.xml': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml',
      'xl/worksheets/sheet1.xml': 'application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml',
    }),
    '_rels/.rels': relationships([['rId1', 'officeDocument', 'xl/workbook.xml']]),
    'xl/workbook.xml': `${XML}<workbook ${S} xmlns:r="${OOXML_REL}"><sheets><sheet name="Tabelle1" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    'xl/_rels/workbook.xml.rels': relationships([['rId1', 'worksheet', 'worksheets/sheet1.xml']]),
    'xl/worksheets/sheet1.xml': `${XML}<worksheet ${S}><sheetData>${cells}</sheetData></worksheet>`,
  });
}

const ODF_NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" office:version="1.3"';

function odf(mimetype: string, body: string, manifestExtra = ''): Uint8Array {
  // The mimetype entry comes first and uncompressed, as ODF requires.
  return zipSync({
    mimetype: [strToU8(mimetype), { level: 0 }],
    'META-INF/manifest.xml': strToU8(
      `${XML}<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3"><manifest:file-entry manifest:full-path="/" manifest:media-type="${mimetype}"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml">${manifestExtra}</manifest:file-entry></manifest:manifest>`,
    ),
    'content.xml': strToU8(
      `${XML}<office:document-content ${ODF_NS}><office:body>${body}</office:body></office:document-content>`,
    ),
  });
}

export function odt(paragraphs: string[]): Uint8Array {
  const text = paragraphs.map((p) => `<text:p>${p}</text:p>`).join('');
  return odf('application/vnd.oasis.opendocument.text', `<office:text>${text}</office:text>`);
}

export function ods(rows: string[][]): Uint8Array {
  const table = rows
    .map(
      (row) =>
        `<table:table-row>${row.map((v) => `<table:table-cell office:value-type="string"><text:p>${v}</text:p></table:table-cell>`).join('')}</table:table-row>`,
    )
    .join('');
  return odf(
    'application/vnd.oasis.opendocument.spreadsheet',
    `<office:spreadsheet><table:table table:name="Tabelle1">${table}</table:table></office:spreadsheet>`,
  );
}

/** An ODT whose manifest says content.xml is encrypted (as LibreOffice writes with a password). */
export function encryptedOdt(): Uint8Array {
  const encryption =
    '<manifest:encryption-data manifest:checksum-type="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0#sha256-1k" manifest:checksum="AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="><manifest:algorithm manifest:algorithm-name="http://www.w3.org/2001/04/xmlenc#aes256-cbc" manifest:initialisation-vector="AAAAAAAAAAAAAAAAAAAAAA=="/><manifest:key-derivation manifest:key-derivation-name="PBKDF2" manifest:key-size="32" manifest:iteration-count="100000" manifest:salt="AAAAAAAAAAAAAAAAAAAAAA=="/></manifest:encryption-data>';
  return odf('application/vnd.oasis.opendocument.text', '<office:text/>', encryption);
}

/**
 * A DOCX whose document.xml inflates to `gib` GiB of zeros from about a thousandth of that, and
 * whose headers claim 1 KiB, so only counting the bytes really inflated can stop it. Each
 * full-flushed block of 1 MiB zeros stands alone, so the stream is one block repeated.
 */
export function docxZipBomb(gib: number): Uint8Array {
  const block = deflateRawSync(Buffer.alloc(1024 * 1024), { finishFlush: constants.Z_FULL_FLUSH });
  const bomb = Buffer.concat([...Array<Buffer>(gib * 1024).fill(block), deflateRawSync(Buffer.alloc(0))]);
  const parts = docxParts(wordBody(['leer']));
  const entries: RawEntry[] = Object.entries(parts)
    .filter(([name]) => name !== 'word/document.xml')
    .map(([name, text]) => {
      const raw = Buffer.from(text);
      return { name, data: deflateRawSync(raw), size: raw.length, crc: crc32(raw) };
    });
  entries.push({ name: 'word/document.xml', data: bomb, size: 1024, crc: 0 });
  return rawZip(entries);
}

interface RawEntry {
  name: string;
  /** Deflated bytes as they go into the archive. */
  data: Buffer;
  /** What the headers claim, true or not. */
  size: number;
  crc: number;
}

/** A zip written field by field, so its headers can say what a hostile file would say. */
function rawZip(entries: RawEntry[]): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(e.crc, 14);
    local.writeUInt32LE(e.data.length, 18);
    local.writeUInt32LE(e.size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(e.crc, 16);
    central.writeUInt32LE(e.data.length, 20);
    central.writeUInt32LE(e.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, e.data);
    centrals.push(central, name);
    offset += local.length + name.length + e.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** A DOCX with many small paragraphs: cheap to store, a large tree once parsed. */
export function largeDocx(paragraphs: number): Uint8Array {
  return docx(Array.from({ length: paragraphs }, (_, i) => `Absatz ${i} der Vertreterversammlung`));
}
