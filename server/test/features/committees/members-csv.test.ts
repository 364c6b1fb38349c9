import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COMMITTEE_MESSAGES, IMPORT_MESSAGES } from '@gremienportal/contracts/committees';
import { msg } from '@gremienportal/contracts/common';
import { parseMembersCsv, type CsvMemberRow } from '../../../src/features/committees/members-csv.ts';

const TERM = { start: '2026-07-01', end: '2030-06-30' };
const HEADER = 'Anrede;Vorname;Nachname;E-Mail;Funktion;von;bis;Wahlbezirk;Rang';
const utf8 = (text: string) => new TextEncoder().encode(text);
/** A `;` file with the full header and the given data lines, CRLF as Excel writes it. */
const parse = (...lines: string[]) => parseMembersCsv(utf8([HEADER, ...lines].join('\r\n')), TERM);
const anna: CsvMemberRow = {
  row: 2,
  title: 'Frau',
  firstname: 'Anna',
  lastname: 'Müller',
  email: 'anna.mueller@example.org',
  function: 'mitglied',
  rank: null,
  from: null,
  until: null,
  district: null,
};

describe('parseMembersCsv: rows', () => {
  it('reads a complete row and one with only the required cells', () => {
    const result = parse(
      'Herr; Bernd ;Schmidt;  Bernd.Schmidt@Example.ORG ;Ersatzmitglied;01.07.2026;2030-06-30;Nord;2',
      'Frau;Anna;Müller;anna.mueller@example.org;Mitglied',
    );
    expect(result).toEqual({
      rows: [
        {
          row: 2,
          title: 'Herr',
          firstname: 'Bernd',
          lastname: 'Schmidt',
          email: 'bernd.schmidt@example.org',
          function: 'ersatzmitglied',
          rank: 2,
          from: '2026-07-01',
          until: '2030-06-30',
          district: 'Nord',
        },
        { ...anna, row: 3 },
      ],
      errors: [],
    });
  });

  it.each([
    ['1.7.2026', '2026-07-01'],
    ['01.07.2026', '2026-07-01'],
    ['9.11.2028', '2028-11-09'],
    ['2029-02-28', '2029-02-28'],
    ['2028-02-29', '2028-02-29'],
  ])('reads the date %s as %s', (input, expected) => {
    const result = parse(`;Anna;Müller;anna@example.org;Mitglied;${input};${input}`);
    expect(result.errors).toEqual([]);
    expect(result.rows[0]).toMatchObject({ from: expected, until: expected });
  });

  it('accepts Anrede in any case and empty', () => {
    const result = parse(
      'herr;Bernd;Schmidt;b@example.org;Mitglied',
      'FRAU;Anna;Müller;a@example.org;Mitglied',
      ';Chris;Meier;c@example.org;Mitglied',
    );
    expect(result.rows.map((row) => row.title)).toEqual(['Herr', 'Frau', '']);
  });

  it('normalises names to NFC and joins line breaks and runs of spaces inside them', () => {
    const decomposed = 'Mu\u0308ller';
    const result = parse(`;"Anna\r\n  Maria";${decomposed};a@example.org;Mitglied;;;"Nord   Ost"`);
    expect(result.rows[0]).toMatchObject({
      firstname: 'Anna Maria',
      lastname: 'Müller',
      district: 'Nord Ost',
    });
    expect(result.rows[0]!.lastname).toBe('M\u00fcller');
  });

  it.each([
    ['Vorsitz', 'vorsitz'],
    ['Vorsitzende(r)', 'vorsitz'],
    ['Vorsitzender', 'vorsitz'],
    ['vorsitzende', 'vorsitz'],
    ['stellvertretender Vorsitz', 'stellvertretung'],
    ['Stellvertretender Vorsitz', 'stellvertretung'],
    ['stellv. Vorsitz', 'stellvertretung'],
    ['Stellvertretung', 'stellvertretung'],
    ['Schriftführung', 'schriftfuehrung'],
    ['Schriftführer', 'schriftfuehrung'],
    ['SCHRIFTFÜHRERIN', 'schriftfuehrung'],
    ['Schriftfu\u0308hrung', 'schriftfuehrung'],
    ['schriftfuehrung', 'schriftfuehrung'],
    ['MITGLIED', 'mitglied'],
    [' Mitglied ', 'mitglied'],
    ['ersatzmitglied', 'ersatzmitglied'],
  ])('reads the Funktion %j as %s', (input, expected) => {
    const rank = expected === 'ersatzmitglied' ? '1' : '';
    const result = parse(`;Anna;Müller;a@example.org;${input};;;;${rank}`);
    expect(result.errors).toEqual([]);
    expect(result.rows[0]!.function).toBe(expected);
  });
});

describe('parseMembersCsv: encoding and CSV syntax', () => {
  it('reads UTF-8 with a byte order mark', () => {
    const bytes = new Uint8Array([
      0xef,
      0xbb,
      0xbf,
      ...utf8(`${HEADER}\r\nFrau;Anna;Müller;anna.mueller@example.org;Mitglied`),
    ]);
    expect(parseMembersCsv(bytes, TERM)).toEqual({ rows: [anna], errors: [] });
  });

  it('reads windows-1252 as an older Excel writes it (ü = 0xFC, ß = 0xDF)', () => {
    const ascii = (text: string) => [...text].map((ch) => ch.charCodeAt(0));
    const bytes = new Uint8Array([
      ...ascii(`${HEADER}\r\nFrau;J`),
      0xfc,
      ...ascii('rgen;M'),
      0xfc,
      ...ascii('ller;j@example.org;Mitglied;;;Stra'),
      0xdf,
      ...ascii('e 5\r\n'),
    ]);
    expect(parseMembersCsv(bytes, TERM).rows[0]).toMatchObject({
      firstname: 'Jürgen',
      lastname: 'Müller',
      district: 'Straße 5',
    });
  });

  it('reads a file separated by commas, with commas and semicolons inside quotes', () => {
    const file = [
      'Vorname,Nachname,E-Mail,Funktion,Wahlbezirk',
      'Anna,"Müller, geb. Schulz",a@example.org,Mitglied,"Nord; Süd"',
    ].join('\n');
    expect(parseMembersCsv(utf8(file), TERM).rows[0]).toMatchObject({
      lastname: 'Müller, geb. Schulz',
      district: 'Nord; Süd',
    });
  });

  it('counts the separators of the header outside quotes only', () => {
    const file = [
      'Vorname;Nachname;E-Mail;Funktion;"Bemerkung (a, b, c, d, e, f)"',
      'Anna;Müller;a@example.org;Mitglied;x, y',
    ].join('\n');
    const result = parseMembersCsv(utf8(file), TERM);
    expect(result.errors).toEqual([]);
    expect(result.rows[0]).toMatchObject({ firstname: 'Anna', lastname: 'Müller' });
  });

  it('reads doubled quotes and separators inside quoted cells', () => {
    const result = parse(';"Anna ""Anni""";"Müller;Schulz";"a@example.org";"Mitglied"');
    expect(result.rows[0]).toMatchObject({ firstname: 'Anna "Anni"', lastname: 'Müller;Schulz' });
  });

  it('numbers rows by the line they start on, also after a line break inside quotes', () => {
    const result = parse(
      ';Anna;Müller;a@example.org;Mitglied;;;"Nord\r\nOst\nSüd"',
      ';Bernd;Schmidt;b@example.org;Mitglied',
      ';;;b@example.org;Mitglied',
    );
    expect(result.rows.map((row) => row.row)).toEqual([2, 5]);
    expect(result.errors.map((error) => error.row)).toEqual([6]);
  });

  it.each([
    ['LF', '\n'],
    ['CRLF', '\r\n'],
    ['CR', '\r'],
  ])('reads %s line ends', (_name, eol) => {
    const file = [HEADER, ';Anna;Müller;a@example.org;Mitglied', ';Bernd;Schmidt;b@example.org;Mitglied', ''];
    const result = parseMembersCsv(utf8(file.join(eol)), TERM);
    expect(result.errors).toEqual([]);
    expect(result.rows.map((row) => [row.row, row.lastname])).toEqual([
      [2, 'Müller'],
      [3, 'Schmidt'],
    ]);
  });

  it('skips empty lines and lines of separators only, and keeps counting them', () => {
    const result = parse('', ';;;;;;;;', '  ', ';Anna;Müller;a@example.org;Mitglied', '');
    expect(result).toEqual({ rows: [{ ...anna, title: '', row: 5, email: 'a@example.org' }], errors: [] });
  });

  it('refuses a quote that is never closed, naming its line', () => {
    expect(parse(';Anna;Müller;a@example.org;Mitglied', ';"Bernd;Schmidt;b@example.org;Mitglied')).toEqual({
      rows: [],
      errors: [],
      fileError: IMPORT_MESSAGES.unclosedQuote(3),
    });
  });

  it('reads back any district quoted as RFC 4180 writes it (property)', () => {
    const units = fc.constantFrom('a', 'ü', ';', ',', '"', ' ', '\n', '\r\n', '=', 'x');
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: units, minLength: 1, maxLength: 20 }), { maxLength: 5 }),
        (districts) => {
          const lines = districts.map(
            (district, i) => `;Anna;Müller;a${i}@example.org;Mitglied;;;"${district.replaceAll('"', '""')}"`,
          );
          const expected = districts
            .map((district) => district.replace(/\s+/g, ' ').trim())
            .map((district) => (district === '' ? null : district));
          const result = parse(...lines, ';Bernd;Schmidt;b@example.org;Mitglied');
          const read = [...result.rows, ...result.errors].sort((a, b) => a.row - b.row);
          expect(read).toHaveLength(districts.length + 1);
          const formulas = expected.filter((district) => district !== null && /^[=+@]/.test(district));
          expect(result.errors).toHaveLength(formulas.length);
          expect(result.rows.slice(0, -1).map((row) => row.district)).toEqual(
            expected.filter((district) => !formulas.includes(district)),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('parseMembersCsv: header', () => {
  it.each(['E-Mail', 'Email', 'EMAIL', 'e-mail', ' E-Mail-Adresse ', 'E‑Mail', '"E-Mail"'])(
    'finds the e-mail column by the header %j',
    (header) => {
      const file = `Vorname;Nachname;${header};Funktion\nAnna;Müller;a@example.org;Mitglied`;
      expect(parseMembersCsv(utf8(file), TERM).rows[0]?.email).toBe('a@example.org');
    },
  );

  it('reads the columns in any order and case and ignores unknown ones', () => {
    const file = [
      'Mitgliedsnummer;RANG;funktion;Nachname;BIS;Von;WAHLBEZIRK;e-mail;Vorname;anrede;Notiz',
      '4711;3;Ersatzmitglied;Müller;31.12.2029;1.1.2027;Süd;A@Example.org;Anna;Frau;=SUMME(A1)',
    ].join('\r\n');
    expect(parseMembersCsv(utf8(file), TERM)).toEqual({
      rows: [
        {
          ...anna,
          email: 'a@example.org',
          function: 'ersatzmitglied',
          rank: 3,
          from: '2027-01-01',
          until: '2029-12-31',
          district: 'Süd',
        },
      ],
      errors: [],
    });
  });

  it('takes the first of two columns with the same header', () => {
    const file = 'Vorname;Nachname;E-Mail;Funktion;Email\nAnna;Müller;a@example.org;Mitglied;b@example.org';
    expect(parseMembersCsv(utf8(file), TERM).rows[0]?.email).toBe('a@example.org');
  });

  it('names every required column that is missing', () => {
    const file = 'Anrede;Vorname;Mail;Rolle\nFrau;Anna;a@example.org;Mitglied';
    expect(parseMembersCsv(utf8(file), TERM)).toEqual({
      rows: [],
      errors: [],
      fileError: IMPORT_MESSAGES.missingColumns(['Nachname', 'E-Mail', 'Funktion']),
    });
    expect(IMPORT_MESSAGES.missingColumns(['Nachname', 'E-Mail'])).toBe(
      'Es fehlen die Spalten Nachname, E-Mail.',
    );
  });

  it.each([
    ['no bytes', new Uint8Array()],
    ['only a byte order mark', new Uint8Array([0xef, 0xbb, 0xbf])],
    ['only empty lines', utf8('\r\n\r\n ;;\r\n')],
    ['only the header', utf8(`${HEADER}\r\n`)],
    ['the header and empty lines', utf8(`${HEADER}\r\n;;;;\r\n\r\n`)],
  ])('refuses a file with %s as empty', (_name, bytes) => {
    expect(parseMembersCsv(bytes, TERM)).toEqual({ rows: [], errors: [], fileError: IMPORT_MESSAGES.empty });
  });

  it('refuses more than 10,000 data rows, and takes 10,000', () => {
    const lines = (count: number) =>
      Array.from({ length: count }, (_, i) => `;Anna;Müller;a${i}@example.org;Mitglied`);
    expect(parse(...lines(10_001))).toEqual({ rows: [], errors: [], fileError: IMPORT_MESSAGES.tooLarge });
    const full = parse(...lines(10_000), '', ';;;');
    expect(full.fileError).toBeUndefined();
    expect(full.rows).toHaveLength(10_000);
  });
});

describe('parseMembersCsv: row errors', () => {
  it.each([
    ['Vorname empty', ';;Müller;a@example.org;Mitglied', [IMPORT_MESSAGES.nameRequired]],
    ['Nachname empty', ';Anna;  ;a@example.org;Mitglied', [IMPORT_MESSAGES.nameRequired]],
    ['Vorname too short', ';Al;Müller;a@example.org;Mitglied', [msg.min('Vorname', 3)]],
    ['Nachname too long', `;Anna;${'x'.repeat(256)};a@example.org;Mitglied`, [msg.max('Nachname', 255)]],
    ['zero-width space', ';An\u200Bna;Müller;a@example.org;Mitglied', [msg.invisibleCharacters('Vorname')]],
    ['bidi control', ';Anna;\u202EMüller;a@example.org;Mitglied', [msg.invisibleCharacters('Nachname')]],
    ['control character', ';Anna;Mül\u0007ler;a@example.org;Mitglied', [msg.invisibleCharacters('Nachname')]],
    ['E-Mail empty', ';Anna;Müller; ;Mitglied', [msg.required('E-Mail-Adresse')]],
    ['E-Mail without @', ';Anna;Müller;anna.example.org;Mitglied', [IMPORT_MESSAGES.invalidEmail]],
    ['E-Mail with space', ';Anna;Müller;anna mueller@example.org;Mitglied', [IMPORT_MESSAGES.invalidEmail]],
    ['Anrede', 'Dr.;Anna;Müller;a@example.org;Mitglied', [IMPORT_MESSAGES.invalidTitle]],
    ['Funktion unknown', ';Anna;Müller;a@example.org;Beisitz', [IMPORT_MESSAGES.unknownFunction('Beisitz')]],
    ['Funktion empty', ';Anna;Müller;a@example.org;', [IMPORT_MESSAGES.functionRequired]],
    [
      'von no date',
      ';Anna;Müller;a@example.org;Mitglied;morgen',
      [IMPORT_MESSAGES.invalidDate('Von', 'morgen')],
    ],
    [
      'bis no day',
      ';Anna;Müller;a@example.org;Mitglied;;31.02.2027',
      [IMPORT_MESSAGES.invalidDate('Bis', '31.02.2027')],
    ],
    [
      'two-digit year',
      ';Anna;Müller;a@example.org;Mitglied;1.7.26',
      [IMPORT_MESSAGES.invalidDate('Von', '1.7.26')],
    ],
    [
      'US date',
      ';Anna;Müller;a@example.org;Mitglied;07/01/2026',
      [IMPORT_MESSAGES.invalidDate('Von', '07/01/2026')],
    ],
    ['von before the term', ';Anna;Müller;a@example.org;Mitglied;30.06.2026', [IMPORT_MESSAGES.outsideTerm]],
    ['bis after the term', ';Anna;Müller;a@example.org;Mitglied;;2030-07-01', [IMPORT_MESSAGES.outsideTerm]],
    ['both outside', ';Anna;Müller;a@example.org;Mitglied;1.1.2020;1.1.2031', [IMPORT_MESSAGES.outsideTerm]],
    [
      'bis before von',
      ';Anna;Müller;a@example.org;Mitglied;2.7.2026;1.7.2026',
      [COMMITTEE_MESSAGES.untilBeforeFrom],
    ],
    ['Rang missing', ';Anna;Müller;a@example.org;Ersatzmitglied', [COMMITTEE_MESSAGES.rankRequired]],
    ['Rang 0', ';Anna;Müller;a@example.org;Ersatzmitglied;;;;0', [IMPORT_MESSAGES.invalidRank]],
    ['Rang 1.5', ';Anna;Müller;a@example.org;Ersatzmitglied;;;;1.5', [IMPORT_MESSAGES.invalidRank]],
    ['Rang -1', ';Anna;Müller;a@example.org;Ersatzmitglied;;;;-1', [IMPORT_MESSAGES.invalidRank]],
    ['Rang 1000', ';Anna;Müller;a@example.org;Ersatzmitglied;;;;1000', [IMPORT_MESSAGES.invalidRank]],
    [
      'Rang of a Mitglied',
      ';Anna;Müller;a@example.org;Mitglied;;;;1',
      [COMMITTEE_MESSAGES.rankOnlySubstitutes],
    ],
    [
      'Wahlbezirk too long',
      `;Anna;Müller;a@example.org;Mitglied;;;${'x'.repeat(101)}`,
      [msg.max('Wahlbezirk', 100)],
    ],
  ])('%s', (_name, line, messages) => {
    const result = parse(';Bernd;Schmidt;b@example.org;Mitglied', line);
    expect(result.rows.map((row) => row.row)).toEqual([2]);
    expect(result.errors).toEqual([expect.objectContaining({ row: 3, messages })]);
  });

  it('collects every message of a row and shows its name and e-mail address', () => {
    const result = parse('Dr.; Anna ;Müller; Anna@Beispiel ;Ersatzmitglied;1.1.2020;1.1.2019;;x');
    expect(result).toEqual({
      rows: [],
      errors: [
        {
          row: 2,
          name: 'Anna Müller',
          email: 'anna@beispiel',
          messages: [
            IMPORT_MESSAGES.invalidTitle,
            IMPORT_MESSAGES.invalidEmail,
            IMPORT_MESSAGES.invalidRank,
            IMPORT_MESSAGES.outsideTerm,
            COMMITTEE_MESSAGES.untilBeforeFrom,
          ],
        },
      ],
    });
  });

  it('reports a repeated e-mail address on the later rows, naming the first', () => {
    const result = parse(
      ';Anna;Müller;anna@example.org;Mitglied',
      ';Bernd;Schmidt;b@example.org;Mitglied',
      ';Anna;Müller-Schulz; ANNA@example.org ;Mitglied',
      '',
      ';Anne;Müller;anna@Example.org;Ersatzmitglied;;;;1',
    );
    expect(result.rows.map((row) => row.row)).toEqual([2, 3]);
    expect(result.errors).toEqual([
      {
        row: 4,
        name: 'Anna Müller-Schulz',
        email: 'anna@example.org',
        messages: [IMPORT_MESSAGES.duplicateEmail(2)],
      },
      {
        row: 6,
        name: 'Anne Müller',
        email: 'anna@example.org',
        messages: [IMPORT_MESSAGES.duplicateEmail(2)],
      },
    ]);
  });

  it('counts a row with errors as the first of its e-mail address', () => {
    const result = parse(';Anna;Müller;anna@example.org;Beisitz', ';Anna;Müller;anna@example.org;Mitglied');
    expect(result.errors.map((error) => [error.row, error.messages])).toEqual([
      [2, [IMPORT_MESSAGES.unknownFunction('Beisitz')]],
      [3, [IMPORT_MESSAGES.duplicateEmail(2)]],
    ]);
  });

  it.each([
    ['Vorname', ';=HYPERLINK("http://x");Müller;a@example.org;Mitglied', 'Vorname'],
    ['Vorname behind spaces', '; =1+1;Müller;a@example.org;Mitglied', 'Vorname'],
    ['Nachname', ';Anna;+49301234;a@example.org;Mitglied', 'Nachname'],
    ['Nachname with @', ';Anna;@SUMME(A1);a@example.org;Mitglied', 'Nachname'],
    ['E-Mail with =', ';Anna;Müller;=a@example.org;Mitglied', 'E-Mail'],
    ['E-Mail with +', ';Anna;Müller;+a@example.org;Mitglied', 'E-Mail'],
    ['E-Mail with @', ';Anna;Müller;@a@example.org;Mitglied', 'E-Mail'],
    ['Wahlbezirk', ';Anna;Müller;a@example.org;Mitglied;;;=1+1', 'Wahlbezirk'],
    ['quoted', ';Anna;"=cmd|\' /C calc\'!A0";a@example.org;Mitglied', 'Nachname'],
  ])('refuses a formula cell: %s', (_name, line, field) => {
    const result = parse(line);
    expect(result.rows).toEqual([]);
    expect(result.errors).toEqual([
      expect.objectContaining({ row: 2, messages: [IMPORT_MESSAGES.formulaCell(field)] }),
    ]);
  });

  it('takes a name that only contains a formula sign or starts with a hyphen', () => {
    const result = parse(
      ';Anna-Lena;-Müller;a@example.org;Mitglied;;;Nord=Süd',
      ';Bernd;O+Brien;b@example.org;Mitglied',
    );
    expect(result.errors).toEqual([]);
    expect(result.rows.map((row) => row.lastname)).toEqual(['-Müller', 'O+Brien']);
  });
});

describe('parseMembersCsv: performance', () => {
  it('parses 5,000 rows in well under a second', () => {
    const lines = Array.from(
      { length: 5_000 },
      (_, i) =>
        `Frau;"Anna ${i}";"Müller; ""${i}""";anna.${i}@example.org;${i % 10 === 0 ? 'Ersatzmitglied' : 'Mitglied'};` +
        `1.7.2026;2030-06-30;Bezirk ${i % 7};${i % 10 === 0 ? i / 10 + 1 : ''}`,
    );
    const bytes = utf8([HEADER, ...lines].join('\r\n'));
    const started = performance.now();
    const result = parseMembersCsv(bytes, TERM);
    const elapsed = performance.now() - started;
    expect(result.errors).toEqual([]);
    expect(result.rows).toHaveLength(5_000);
    expect(result.rows[4_999]).toMatchObject({ row: 5_001, lastname: 'Müller; "4999"' });
    expect(elapsed).toBeLessThan(1_000);
  });
});
