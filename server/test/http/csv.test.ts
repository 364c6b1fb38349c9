import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formulaCells, parseCsv } from '../support/csv.ts';
import { CSV_BOM, csvCell, csvRow, neutraliseFormulas, toCsv } from '../../src/http/csv.ts';

describe('csvCell', () => {
  it.each([
    ['einfach', '"einfach"'],
    ['', '""'],
    [null, '""'],
    [undefined, '""'],
    [42, '"42"'],
    ['a;b', '"a;b"'],
    ['er sagte "ja"', '"er sagte ""ja"""'],
    ['Zeile 1\nZeile 2', '"Zeile 1\nZeile 2"'],
    [' Leerzeichen', '" Leerzeichen"'],
    ['=1+1', `"'=1+1"`],
    ['+49 30 123', `"'+49 30 123"`],
    ['-5', `"'-5"`],
    ['@SUMME(A1)', `"'@SUMME(A1)"`],
    // The tab is also a separator a reader may split at: an apostrophe after it as well.
    ['\t=1', `"'\t'=1"`],
    // CR is also a line break where a reader may start a cell: an apostrophe after it as well.
    ['\r=1', `"'\r'=1"`],
    ['=A1;"x"', `"'=A1;""x"""`],
    ['a=b', '"a=b"'],
    // Formula starters after a separator or a line break inside the cell, also behind spaces and quotes.
    ['x,=1+2', `"x,'=1+2"`],
    ['a;@SUM(1)', `"a;'@SUM(1)"`],
    ['"=cmd"', `"'""=cmd"""`],
    ['a, -2+3', `"a,' '-2+3"`],
    ['Zeile\n+1', `"Zeile\n'+1"`],
    ['a,b;c', '"a,b;c"'],
    ['1,5 - 2', `"1,5 '- 2"`],
    // Read with tab or space as separator, a tab or space inside the cell starts a new one.
    ['x\t=1+2', `"x\t'=1+2"`],
    ['x =1+2', `"x '=1+2"`],
    ['Name @Kanzlei', `"Name '@Kanzlei"`],
    ['a\t\t+1', `"a\t'\t'+1"`],
    ['a  -1', `"a ' '-1"`],
    ['a\t\r', `"a\t'\r"`],
    ['Sitzung am 3. Mai', '"Sitzung am 3. Mai"'],
  ])('%j → %j', (input, expected) => {
    expect(csvCell(input)).toBe(expected);
  });

  it('joins a line with semicolons and CRLF, every cell quoted', () => {
    expect(csvRow(['a', null, 3])).toBe('"a";"";"3"\r\n');
    expect(toCsv(['Titel', 'Wert'], [['x,=1', 2]])).toBe(`${CSV_BOM}"Titel";"Wert"\r\n"x,'=1";"2"\r\n`);
  });
});

describe('CSV against formula injection, read with either separator (property)', () => {
  /** Strings made mostly of what matters: formula starters, separators, quotes, line breaks. */
  const nasty = fc.string({
    unit: fc.oneof(
      {
        weight: 3,
        arbitrary: fc.constantFrom('=', '+', '-', '@', '\t', '\r', '\n', ',', ';', '"', ' ', "'"),
      },
      { weight: 2, arbitrary: fc.constantFrom('a', '1', 'x', 'SUM(', ')') },
      { weight: 1, arbitrary: fc.string({ maxLength: 1, unit: 'binary' }) },
    ),
    maxLength: 24,
  });

  it('no cell a spreadsheet reads starts a formula with `;`, `,`, tab or space, and `;` reads back every cell', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(nasty, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 4 }),
        (rows) => {
          const file = toCsv(['Spalte'], rows);
          const body = file.slice(CSV_BOM.length);
          for (const separator of [';', ',', '\t', ' '] as const) {
            expect(formulaCells(parseCsv(body, separator))).toEqual([]);
          }
          const read = parseCsv(body, ';').slice(1);
          expect(read).toEqual(rows.map((row) => row.map(neutraliseFormulas)));
          // Only apostrophes are added.
          for (const [i, row] of rows.entries()) {
            row.forEach((cell, j) => expect(read[i]![j]!.replaceAll("'", '')).toBe(cell.replaceAll("'", '')));
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});
