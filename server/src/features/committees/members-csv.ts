import {
  COMMITTEE_MESSAGES,
  IMPORT_MESSAGES,
  isCalendarDate,
  MEMBER_FUNCTIONS,
  type MemberFunction,
} from '@gremienportal/contracts/committees';
import { emailField, MIN_NAME_LENGTH, msg, requiredText } from '@gremienportal/contracts/common';

/**
 * The CSV file of "Mitglieder importieren", read into checked rows: pure, no database. A row is
 * either in `rows` (every check passed) or in `errors` (with all its messages); a problem with the
 * whole file is `fileError`, and then both lists are empty. Rows are numbered by the file's line on
 * which they start (header = 1), empty lines (also Excel's `;;;;`) are skipped but counted.
 */
export interface CsvMemberRow {
  row: number;
  title: 'Herr' | 'Frau' | '';
  firstname: string;
  lastname: string;
  /** Trimmed, lower case. */
  email: string;
  function: MemberFunction;
  /** Only an Ersatzmitglied has one, and must. */
  rank: number | null;
  /** `YYYY-MM-DD`, null when the cell is empty. */
  from: string | null;
  until: string | null;
  district: string | null;
}
export interface CsvRowError {
  row: number;
  name: string;
  email: string;
  messages: string[];
}
export interface ParsedMembersCsv {
  rows: CsvMemberRow[];
  errors: CsvRowError[];
  fileError?: string;
}

export const MAX_IMPORT_ROWS = 10_000;

/** The header of each column, then other spellings (compared folded: `e-mail`, `EMail` …). */
const COLUMNS = {
  title: ['Anrede'],
  firstname: ['Vorname'],
  lastname: ['Nachname'],
  email: ['E-Mail', 'E-Mail-Adresse'],
  function: ['Funktion'],
  from: ['von'],
  until: ['bis'],
  district: ['Wahlbezirk'],
  rank: ['Rang'],
} as const;
type Column = keyof typeof COLUMNS;
const REQUIRED_COLUMNS: readonly Column[] = ['firstname', 'lastname', 'email', 'function'];

/** Lower case, one spelling for umlauts (ä → ae, ß → ss), letters and digits only: `E-Mail` → `email`. */
const fold = (value: string) =>
  value
    .normalize('NFC')
    .toLowerCase()
    .replace(/[äöü]/g, (umlaut) => `${{ ä: 'a', ö: 'o', ü: 'u' }[umlaut]}e`)
    .replaceAll('ß', 'ss')
    .replace(/[^a-z0-9]/g, '');

const HEADERS = new Map<string, Column>(
  Object.entries(COLUMNS).flatMap(([column, names]) =>
    names.map((name) => [fold(name), column as Column] as const),
  ),
);

const FUNCTION_WORDS: Record<MemberFunction, string[]> = {
  vorsitz: ['Vorsitz', 'Vorsitzende(r)', 'Vorsitzender', 'Vorsitzende'],
  stellvertretung: [
    'stellvertretender Vorsitz',
    'stellv. Vorsitz',
    'Stellvertretung',
    'stellv. Vorsitzende(r)',
  ],
  schriftfuehrung: ['Schriftführung', 'Schriftführer', 'Schriftführerin', 'Schriftführer(in)'],
  mitglied: ['Mitglied'],
  ersatzmitglied: ['Ersatzmitglied'],
};
const FUNCTIONS = new Map<string, MemberFunction>(
  MEMBER_FUNCTIONS.flatMap((code) =>
    [code, ...FUNCTION_WORDS[code]].map((word) => [fold(word), code] as const),
  ),
);

const firstnameText = requiredText('Vorname', MIN_NAME_LENGTH);
const lastnameText = requiredText('Nachname', MIN_NAME_LENGTH);
const districtText = requiredText('Wahlbezirk', 1, 100);
/** A cell a spreadsheet would run as a formula; a name or address never starts so. */
const FORMULA_START = /^[=+@]/;
const CONTROL = /\p{Cc}/u;

/** UTF-8 (a BOM is dropped), else windows-1252 as an older Excel writes it. */
function decode(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

/** `;` or `,`, whichever the header line has more of outside quotes (`;` on a tie, as German Excel writes). */
function detectSeparator(text: string): ';' | ',' {
  const unquoted = text.trimStart().replace(/"[^"]*"/g, '');
  const header = unquoted.slice(0, unquoted.search(/[\r\n]|$/));
  const count = (separator: string) => header.split(separator).length;
  return count(',') > count(';') ? ',' : ';';
}

class UnclosedQuote extends Error {
  constructor(readonly line: number) {
    super('unclosed quote');
  }
}

const lineBreaks = (text: string) => text.match(/\r\n|\r|\n/g)?.length ?? 0;

/**
 * RFC 4180 records with the line each starts on: `"` quotes a cell (`""` is a quote, separators
 * and line breaks inside are text); CRLF, LF or CR end a record. Lenient like Excel: a `"` inside
 * an unquoted cell is text, text after a closing quote is appended.
 */
function* records(text: string, separator: string): Generator<{ line: number; cells: string[] }> {
  let i = 0;
  let line = 1;
  while (i < text.length) {
    const start = line;
    const cells: string[] = [];
    for (;;) {
      let cell = '';
      if (text[i] === '"') {
        i += 1;
        for (;;) {
          const quote = text.indexOf('"', i);
          if (quote < 0) throw new UnclosedQuote(start);
          const part = text.slice(i, quote);
          line += lineBreaks(part);
          const escaped = text[quote + 1] === '"';
          cell += escaped ? `${part}"` : part;
          i = quote + (escaped ? 2 : 1);
          if (!escaped) break;
        }
      }
      let end = i;
      while (end < text.length && text[end] !== separator && text[end] !== '\n' && text[end] !== '\r')
        end += 1;
      cells.push(cell + text.slice(i, end));
      i = end;
      if (text[i] !== separator) break;
      i += 1;
    }
    if (text[i] === '\r') i += 1;
    if (text[i] === '\n') i += 1;
    line += 1;
    yield { line: start, cells };
  }
}

/** `YYYY-MM-DD` from `DD.MM.YYYY`, `D.M.YYYY` or `YYYY-MM-DD`; undefined when it names no day. */
function isoDate(value: string): string | undefined {
  const german = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(value);
  const [, day = '', month = '', year = ''] = german ?? [];
  const iso = german ? `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}` : value;
  return isCalendarDate(iso) ? iso : undefined;
}

type Term = { start: string; end: string };

function checkRow(
  line: number,
  cells: readonly string[],
  header: ReadonlyMap<Column, number>,
  term: Term,
  seen: Map<string, number>,
): CsvMemberRow | CsvRowError {
  const get = (column: Column) => {
    const index = header.get(column);
    return index === undefined ? '' : (cells[index] ?? '').trim();
  };
  const messages: string[] = [];
  /** A name or Wahlbezirk: spaces and line breaks inside become one space, then the contract's checks. */
  const text = (value: string, field: string, schema: typeof districtText) => {
    const cleaned = value.replace(/\s+/g, ' ').normalize('NFC');
    const result = schema.safeParse(cleaned);
    if (FORMULA_START.test(cleaned)) messages.push(IMPORT_MESSAGES.formulaCell(field));
    else if (!result.success) messages.push(...result.error.issues.map((issue) => issue.message));
    else if (CONTROL.test(cleaned)) messages.push(msg.invisibleCharacters(field));
    return cleaned;
  };

  const rawTitle = get('title').toLowerCase();
  const title = rawTitle === 'herr' ? 'Herr' : rawTitle === 'frau' ? 'Frau' : '';
  if (rawTitle !== '' && title === '') messages.push(IMPORT_MESSAGES.invalidTitle);

  const [rawFirst, rawLast] = [get('firstname'), get('lastname')];
  if (rawFirst === '' || rawLast === '') messages.push(IMPORT_MESSAGES.nameRequired);
  const firstname = rawFirst === '' ? '' : text(rawFirst, 'Vorname', firstnameText);
  const lastname = rawLast === '' ? '' : text(rawLast, 'Nachname', lastnameText);

  const rawEmail = get('email');
  let email = rawEmail.toLowerCase();
  if (rawEmail === '') messages.push(msg.required('E-Mail-Adresse'));
  else if (FORMULA_START.test(rawEmail)) messages.push(IMPORT_MESSAGES.formulaCell('E-Mail'));
  else {
    const result = emailField.safeParse(rawEmail);
    if (!result.success) messages.push(IMPORT_MESSAGES.invalidEmail);
    else {
      email = result.data;
      const first = seen.get(email);
      if (first === undefined) seen.set(email, line);
      else messages.push(IMPORT_MESSAGES.duplicateEmail(first));
    }
  }

  const rawFunction = get('function');
  const office = FUNCTIONS.get(fold(rawFunction));
  if (rawFunction === '') messages.push(IMPORT_MESSAGES.functionRequired);
  else if (!office) messages.push(IMPORT_MESSAGES.unknownFunction(rawFunction));

  const rawRank = get('rank');
  const rank = /^\d{1,3}$/.test(rawRank) && Number(rawRank) >= 1 ? Number(rawRank) : null;
  if (office === 'ersatzmitglied' && rawRank === '') messages.push(COMMITTEE_MESSAGES.rankRequired);
  else if (office && office !== 'ersatzmitglied' && rawRank !== '') {
    messages.push(COMMITTEE_MESSAGES.rankOnlySubstitutes);
  } else if (rawRank !== '' && rank === null) messages.push(IMPORT_MESSAGES.invalidRank);

  const date = (column: 'from' | 'until', field: string) => {
    const raw = get(column);
    if (raw === '') return null;
    const iso = isoDate(raw);
    if (!iso) messages.push(IMPORT_MESSAGES.invalidDate(field, raw));
    return iso ?? null;
  };
  const [from, until] = [date('from', 'Von'), date('until', 'Bis')];
  if ([from, until].some((day) => day !== null && (day < term.start || day > term.end))) {
    messages.push(IMPORT_MESSAGES.outsideTerm);
  }
  if (from !== null && until !== null && until < from) messages.push(COMMITTEE_MESSAGES.untilBeforeFrom);

  const rawDistrict = get('district');
  const district = rawDistrict === '' ? null : text(rawDistrict, 'Wahlbezirk', districtText);

  if (messages.length > 0 || !office) {
    return { row: line, name: `${firstname} ${lastname}`.trim(), email, messages };
  }
  return { row: line, title, firstname, lastname, email, function: office, rank, from, until, district };
}

/**
 * Reads the import file: header line with the columns Anrede, Vorname, Nachname, E-Mail,
 * Funktion, von, bis, Wahlbezirk, Rang (any order and case, unknown ones ignored), `;` or `,`.
 */
export function parseMembersCsv(bytes: Uint8Array, term: Term): ParsedMembersCsv {
  const fail = (fileError: string): ParsedMembersCsv => ({ rows: [], errors: [], fileError });
  const text = decode(bytes);
  let header: Map<Column, number> | undefined;
  const data: { line: number; cells: string[] }[] = [];
  try {
    for (const record of records(text, detectSeparator(text.trimStart()))) {
      if (record.cells.every((cell) => cell.trim() === '')) continue;
      if (header) {
        if (data.push(record) > MAX_IMPORT_ROWS) return fail(IMPORT_MESSAGES.tooLarge);
        continue;
      }
      header = new Map();
      for (const [index, cell] of record.cells.entries()) {
        const column = HEADERS.get(fold(cell));
        if (column && !header.has(column)) header.set(column, index);
      }
    }
  } catch (error) {
    if (error instanceof UnclosedQuote) return fail(IMPORT_MESSAGES.unclosedQuote(error.line));
    throw error;
  }
  if (!header) return fail(IMPORT_MESSAGES.empty);
  const known = header;
  const missing = REQUIRED_COLUMNS.filter((column) => !known.has(column)).map((column) => COLUMNS[column][0]);
  if (missing.length > 0) return fail(IMPORT_MESSAGES.missingColumns(missing));
  if (data.length === 0) return fail(IMPORT_MESSAGES.empty);

  const result: ParsedMembersCsv = { rows: [], errors: [] };
  const seen = new Map<string, number>();
  for (const { line, cells } of data) {
    const row = checkRow(line, cells, known, term, seen);
    if ('messages' in row) result.errors.push(row);
    else result.rows.push(row);
  }
  return result;
}
