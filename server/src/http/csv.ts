/**
 * CSV for spreadsheets, the one way every export of the portal writes it (decision 061).
 * German Excel opens `;`-separated files directly; the BOM makes it read them as UTF-8.
 *
 * Formula injection: a spreadsheet runs a cell as a formula when it starts with = + - @ (or a
 * tab or carriage return it strips first). A user does not always open the file with `;` as
 * separator: with `,` a cell `x,=1+2` splits and its second part starts with `=`, with tab or
 * space as separator `x =1` does the same (decision 148), and an import that ignores quotes
 * starts a new cell after every line break. So every place where any reader may start a cell
 * (the cell's start, after `,`, `;`, a tab, a space or a line break) gets an apostrophe when a
 * formula starter follows, also behind spaces and quotes; and every cell is quoted, so with the
 * intended separator the file reads back exactly.
 */
export const CSV_BOM = '\uFEFF';
export const CSV_SEPARATOR = ';';
const LINE_END = '\r\n';

export type CsvValue = string | number | null | undefined;

/** A formula starter: directly, after a tab or CR a spreadsheet strips, or behind spaces and quotes. */
const STARTS_FORMULA = /^(?:[\t\r]|[\s"]*[=+\-@])/;
/** A place inside a cell where a reader may start a cell, followed by a formula starter. */
const FORMULA_AFTER_BOUNDARY = /([,;\t \r\n])(?=[\t\r]|[\s"]*[=+\-@])/g;

/** The text of one cell with an apostrophe before each formula starter a reader could see. */
export function neutraliseFormulas(text: string): string {
  const inner = text.replace(FORMULA_AFTER_BOUNDARY, "$1'");
  return STARTS_FORMULA.test(text) ? `'${inner}` : inner;
}

/** One cell: neutralised, always quoted, inner quotes doubled (RFC 4180). */
export function csvCell(value: CsvValue): string {
  const text = value === null || value === undefined ? '' : neutraliseFormulas(String(value));
  return `"${text.replaceAll('"', '""')}"`;
}

/** One line: the cells separated by `;`, ended with CRLF. */
export function csvRow(cells: readonly CsvValue[]): string {
  return cells.map(csvCell).join(CSV_SEPARATOR) + LINE_END;
}

/** A whole file: BOM, header, rows. Large exports stream `CSV_BOM + csvRow(header)`, then `csvRow`s. */
export function toCsv(header: readonly CsvValue[], rows: Iterable<readonly CsvValue[]>): string {
  let text = CSV_BOM + csvRow(header);
  for (const row of rows) text += csvRow(row);
  return text;
}
