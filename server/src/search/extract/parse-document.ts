/* The parsers per format; runs inside the extraction worker, never on the server's thread. */
import type { ExtractFailure, ExtractLimits, ExtractResult } from './types.ts';
import { TEXT_FORMATS, cutToBytes, decodeText, normaliseWhitespace } from './plain-text.ts';

const OFFICE_FORMATS: ReadonlySet<string> = new Set(['docx', 'pptx', 'xlsx', 'odt', 'odp', 'ods', 'rtf']);

/** `complete` is false when `bytes` is only the beginning of a text file (`bytesToRead`). */
export async function parseDocument(
  bytes: Uint8Array,
  format: string,
  limits: ExtractLimits,
  complete: boolean,
): Promise<ExtractResult> {
  try {
    let raw: string;
    if (format === 'pdf') raw = await pdfText(bytes, limits.maxTextBytes);
    else if (OFFICE_FORMATS.has(format)) raw = await officeText(bytes, format, limits);
    else if (TEXT_FORMATS.has(format)) raw = decodeText(bytes, complete);
    else return { state: 'failed', reason: 'unsupported' };
    return { state: 'done', text: cutToBytes(normaliseWhitespace(raw), limits.maxTextBytes) };
  } catch (error) {
    return { state: 'failed', reason: failureOf(error) };
  }
}

/** Pages one after another (unpdf's extractText asks for all at once) until the text limit. */
async function pdfText(bytes: Uint8Array, maxTextBytes: number): Promise<string> {
  // Each worker loads only the parser it needs (officeparser alone takes long to load, decision 127).
  const { getDocumentProxy } = await import('unpdf');
  // pdf.js refuses Node Buffers; a plain view of the same memory will do. Verbosity 0: a broken
  // file's warnings are not worth a log line.
  const data = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const pdf = await getDocumentProxy(data, { verbosity: 0 });
  try {
    const pages: string[] = [];
    let length = 0;
    for (let number = 1; number <= pdf.numPages && length <= maxTextBytes; number++) {
      const page = await pdf.getPage(number);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items) {
        if ('str' in item) text += item.str + (item.hasEOL ? '\n' : '');
      }
      page.cleanup();
      pages.push(text);
      length += text.length;
    }
    return pages.join('\n');
  } finally {
    await pdf.loadingTask.destroy();
  }
}

async function officeText(bytes: Uint8Array, format: string, limits: ExtractLimits): Promise<string> {
  const { parseOffice } = await import('officeparser');
  const ast = await parseOffice(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
    fileType: format as 'docx',
    // OCR would pull tesseract and its language data from the network; images are not read at all.
    ocr: false,
    extractAttachments: false,
    includeRawContent: false,
    ignorePageGeometry: true,
    // officeparser counts the bytes it really inflates, so a zip bomb stops here whatever its
    // headers claim; half the heap leaves room for the XML tree built from them.
    decompressionLimits: {
      maxUncompressedBytes: Math.floor((limits.maxMemoryMb * 1024 * 1024) / 2),
      maxZipEntries: 10_000,
    },
  });
  const { value } = await ast.to('text');
  return typeof value === 'string' ? value : '';
}

const OFFICE_FAILURES: Readonly<Record<string, ExtractFailure>> = {
  PASSWORD_REQUIRED: 'encrypted',
  PASSWORD_INCORRECT: 'encrypted',
  DOCUMENT_DECRYPTION_FAILED: 'encrypted',
  ZIP_SIZE_LIMIT_EXCEEDED: 'too_large',
  ZIP_ENTRY_COUNT_LIMIT_EXCEEDED: 'too_large',
  XML_ELEMENT_LIMIT_EXCEEDED: 'too_large',
  OUTPUT_TOO_LARGE: 'too_large',
  MAX_NESTING_DEPTH_EXCEEDED: 'damaged',
};

function failureOf(error: unknown): ExtractFailure {
  const e = error as { name?: unknown; officeIssue?: { code?: unknown } } | null;
  // pdf.js names its exception classes; a password it cannot open with '' is PasswordException.
  if (e?.name === 'PasswordException') return 'encrypted';
  const code = e?.officeIssue?.code;
  if (typeof code === 'string' && OFFICE_FAILURES[code]) return OFFICE_FAILURES[code];
  // A string or an array buffer larger than V8 allows, caught before the heap limit kills us.
  if (error instanceof RangeError && /string length|allocation failed/i.test(error.message)) return 'memory';
  return 'damaged';
}
