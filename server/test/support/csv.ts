/**
 * Reads a CSV file the way a spreadsheet does, with the separator the user picked: a cell that
 * starts with `"` is quoted until a lone `"` (a doubled one is a quote), anything after that up to
 * the separator is appended as it is; a `"` inside an unquoted cell is text; CR, LF and CRLF end a
 * line outside quotes. Lenient like Excel and LibreOffice, so a file written for `;` can be read
 * with `,` as well.
 */
export function parseCsv(text: string, separator: ',' | ';' | '\t' | ' '): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let atCellStart = true;
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i]!;
    if (quoted) {
      if (ch !== '"') cell += ch;
      else if (text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else quoted = false;
    } else if (atCellStart && ch === '"') {
      quoted = true;
      atCellStart = false;
    } else if (ch === separator) {
      row.push(cell);
      cell = '';
      atCellStart = true;
    } else if (ch === '\r' || ch === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      atCellStart = true;
      if (ch === '\r' && text[i + 1] === '\n') i += 1;
    } else {
      cell += ch;
      atCellStart = false;
    }
  }
  if (!atCellStart || cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

/**
 * Cells a spreadsheet would run as a formula: starting with = + - @ once the spaces, tabs, line
 * breaks and stray quotes in front are trimmed away (a spreadsheet strips some of them first).
 */
export function formulaCells(rows: readonly string[][]): string[] {
  return rows.flat().filter((cell) => /^[=+\-@]/.test(cell.replace(/^[\s"]+/, '')));
}
