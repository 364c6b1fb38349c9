// Over 300 lines: the schema-derived generators and the hostile values, mutations and raw bodies are the one
// vocabulary of hostile-input.test.ts; most of the length is the lists of hostile strings and bodies.
import fc from 'fast-check';
import type { z } from 'zod';

/**
 * Generators for hostile input: values derived from the contract schemas (zod 4), and the
 * mutations a careless or malicious client sends instead.
 */

/** What the tests need to know of zod 4's internal schema description. */
interface SchemaDef {
  type: string;
  checks?: { _zod: { def: CheckDef } }[];
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  options?: z.ZodType[];
  element?: z.ZodType;
  valueType?: z.ZodType;
  entries?: Record<string, string | number>;
  values?: unknown[];
  format?: string;
  getter?: () => z.ZodType;
}
interface CheckDef {
  check: string;
  minimum?: number;
  maximum?: number;
  length?: number;
  value?: number;
  inclusive?: boolean;
  format?: string;
  pattern?: RegExp;
}

const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: SchemaDef } })._zod.def;
const isOptional = (schema: z.ZodType) =>
  (schema as unknown as { _zod: { optin?: string } })._zod.optin === 'optional';

/** Field name → generator, for values the schema cannot express (existing ids, role names). */
export type Hints = Record<string, fc.Arbitrary<unknown>>;

/** Lengths above this are left to the hostile values; the valid side stays quick to send. */
const LONGEST_GENERATED = 60;

function checksOf(def: SchemaDef): CheckDef[] {
  return (def.checks ?? []).map((check) => check._zod.def);
}

function stringArbitrary(def: SchemaDef): fc.Arbitrary<string> {
  let min = 0;
  let max = LONGEST_GENERATED;
  for (const check of checksOf(def)) {
    if (check.check === 'min_length') min = Math.max(min, check.minimum ?? 0);
    if (check.check === 'max_length') max = Math.min(max, check.maximum ?? max);
    if (check.check === 'length_equals') min = max = check.length ?? min;
    if (check.check === 'string_format' && check.format === 'regex' && check.pattern) {
      return fc.stringMatching(check.pattern);
    }
    if (check.check === 'string_format' && check.format === 'email') return fc.emailAddress();
  }
  if (def.format === 'email') return fc.emailAddress();
  max = Math.max(min, max);
  return fc.oneof(
    { weight: 4, arbitrary: fc.string({ minLength: min, maxLength: max }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: min, maxLength: max }) },
  );
}

function numberArbitrary(def: SchemaDef): fc.Arbitrary<number> {
  let min = -1e9;
  let max = 1e9;
  let integer = false;
  for (const check of checksOf(def)) {
    if (check.check === 'number_format') integer = true;
    if (check.check === 'greater_than') min = (check.value ?? min) + (check.inclusive ? 0 : 1);
    if (check.check === 'less_than') max = (check.value ?? max) - (check.inclusive ? 0 : 1);
  }
  return integer
    ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) })
    : fc.double({ min, max, noNaN: true });
}

/**
 * Values a schema accepts as far as its structure goes (types, lengths, formats, enums). Custom
 * refinements are not modelled, so some generated values are still refused: that is fine, every
 * answer is checked either way.
 */
export function arbitraryOf(schema: z.ZodType, hints: Hints = {}): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  switch (def.type) {
    case 'object': {
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      const required: string[] = [];
      for (const [key, field] of Object.entries(def.shape ?? {})) {
        model[key] = hints[key] ?? arbitraryOf(field, hints);
        if (!isOptional(field)) required.push(key);
      }
      return fc.record(model, { requiredKeys: required });
    }
    case 'string':
      return stringArbitrary(def);
    case 'number':
      return numberArbitrary(def);
    case 'boolean':
      return fc.boolean();
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries ?? {}));
    case 'literal':
      return fc.constantFrom(...(def.values ?? []));
    case 'array': {
      let min = 0;
      let max = 4;
      for (const check of checksOf(def)) {
        if (check.check === 'min_length') min = check.minimum ?? 0;
        if (check.check === 'max_length') max = Math.min(max, check.maximum ?? max);
      }
      return fc.array(arbitraryOf(def.element!, hints), { minLength: min, maxLength: Math.max(min, max) });
    }
    case 'union':
      return fc.oneof(...(def.options ?? []).map((option) => arbitraryOf(option, hints)));
    case 'optional':
    case 'default':
    case 'prefault':
      return fc.option(arbitraryOf(def.innerType!, hints), { nil: undefined });
    case 'nullable':
      return fc.option(arbitraryOf(def.innerType!, hints), { nil: null });
    case 'pipe':
      // preprocess(fn, schema) is a pipe from a transform: generate what the schema wants;
      // schema.transform(fn) is a pipe into a transform: generate what the schema reads.
      return defOf(def.in!).type === 'transform' ? arbitraryOf(def.out!, hints) : arbitraryOf(def.in!, hints);
    case 'lazy':
      return arbitraryOf(def.getter!(), hints);
    case 'record':
      return fc.dictionary(fc.string({ maxLength: 10 }), arbitraryOf(def.valueType!, hints), { maxKeys: 3 });
    case 'null':
      return fc.constant(null);
    case 'undefined':
      return fc.constant(undefined);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

// ---------------------------------------------------------------------------------------------
// Hostile values

const deep = (levels: number): unknown => {
  let value: unknown = 'Boden';
  for (let i = 0; i < levels; i += 1) value = i % 2 ? [value] : { a: value };
  return value;
};

export const HOSTILE_STRINGS: readonly string[] = [
  '',
  ' ',
  ' \t\r\n ',
  '\u0000',
  'Titel\u0000mit NUL',
  '\u0007\u001b[31m',
  '../../../../etc/passwd',
  '..\\..\\..\\windows\\win.ini',
  '/etc/passwd',
  'a/b/../../c',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  "'; DROP TABLE users; --",
  '" OR "1"="1',
  "1' OR '1'='1",
  '1; SELECT pg_sleep(5) --',
  "%' OR 1=1 --",
  '\\',
  '%',
  '%00',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '{{7*7}}${7*7}',
  '=HYPERLINK("http://example.org")',
  '__proto__',
  'constructor',
  '\u202Egnp.exe',
  '\uFEFFBOM',
  '\uD800',
  '\uDFFF\uD800x',
  'e\u0301'.repeat(200),
  '😀'.repeat(300),
  'ß'.repeat(256),
  'A'.repeat(256),
  'B'.repeat(20_000),
  'NaN',
  'Infinity',
  '-1',
  '0',
  '1e400',
  '0x1F',
  '1.5',
  ' 7 ',
  '１２３',
  '9'.repeat(400),
  'null',
  'true',
  '[]',
  '{}',
  'Admin',
  'Super-Admin',
];

export const HOSTILE_NUMBERS: readonly number[] = [
  0,
  -0,
  -1,
  1.5,
  2 ** 31 - 1,
  2 ** 31,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 53),
  1e308,
  -1e308,
  5e-324,
];

export const hostileString = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
);

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: hostileString },
  { weight: 3, arbitrary: fc.constantFrom<unknown>(...HOSTILE_NUMBERS) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(true, false, null) },
  { weight: 1, arbitrary: fc.array(fc.constantFrom(...HOSTILE_STRINGS.slice(0, 20)), { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(deep(300), [[[[[]]]]], {}, [], [null], [{}]) },
  {
    weight: 1,
    arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
  },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double() },
);

/** Extra keys a body should not have, some of them aimed at prototype pollution. */
export const hostileKey = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'id',
    'roles',
    'isAdmin',
    'password_hash',
    '$where',
  ),
  fc.string({ maxLength: 12 }),
);

/** A JSON object with the given entries, keeping `__proto__` as an own key. */
export function jsonObject(entries: [string, unknown][]): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const [key, value] of entries) {
    Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return object;
}

/** Ways to spoil a valid JSON body. */
export type BodyMutation =
  | { kind: 'keep' }
  | { kind: 'drop'; keys: number[] }
  | { kind: 'replace'; index: number; value: unknown }
  | { kind: 'extra'; key: string; value: unknown }
  | { kind: 'taint'; index: number; fragment: string; at: 'start' | 'end' | 'middle' }
  | { kind: 'whole'; value: unknown };

/**
 * Pieces that turn a valid text into a hostile one while keeping it valid-looking: NUL and other
 * control characters, Unicode oddities, path traversal, SQL and markup.
 */
export const TAINT_FRAGMENTS: readonly string[] = [
  '\u0000',
  '\u0001\u001f\u007f',
  '\r\n',
  '../../../etc/passwd',
  '..\\..\\',
  "'; DROP TABLE users; --",
  "' OR '1'='1",
  '%00',
  '%',
  '\\',
  '<script>alert(1)</script>',
  '\u202E',
  '\uFEFF',
  '\uD800',
  'e\u0301',
  '😀',
  'ẞ',
];

export const bodyMutation: fc.Arbitrary<BodyMutation> = fc.oneof(
  { weight: 2, arbitrary: fc.constant<BodyMutation>({ kind: 'keep' }) },
  {
    weight: 2,
    arbitrary: fc
      .array(fc.nat(20), { minLength: 1, maxLength: 3 })
      .map((keys): BodyMutation => ({ kind: 'drop', keys })),
  },
  {
    weight: 5,
    arbitrary: fc
      .record({ index: fc.nat(20), value: hostileValue })
      .map((m): BodyMutation => ({ kind: 'replace', ...m })),
  },
  {
    weight: 2,
    arbitrary: fc
      .record({ key: hostileKey, value: hostileValue })
      .map((m): BodyMutation => ({ kind: 'extra', ...m })),
  },
  {
    weight: 4,
    arbitrary: fc
      .record({
        index: fc.nat(20),
        fragment: fc.constantFrom(...TAINT_FRAGMENTS),
        at: fc.constantFrom<'start' | 'end' | 'middle'>('start', 'end', 'middle'),
      })
      .map((m): BodyMutation => ({ kind: 'taint', ...m })),
  },
  { weight: 1, arbitrary: hostileValue.map((value): BodyMutation => ({ kind: 'whole', value })) },
);

function taint(text: string, fragment: string, at: 'start' | 'end' | 'middle'): string {
  if (at === 'start') return `${fragment}${text}`;
  if (at === 'end') return `${text}${fragment}`;
  const middle = Math.floor(text.length / 2);
  return `${text.slice(0, middle)}${fragment}${text.slice(middle)}`;
}

export function applyMutation(body: unknown, mutation: BodyMutation): unknown {
  if (mutation.kind === 'whole') return mutation.value;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const entries = Object.entries(body).filter(([, value]) => value !== undefined);
  switch (mutation.kind) {
    case 'keep':
      return jsonObject(entries);
    case 'drop': {
      const drop = new Set(mutation.keys.map((k) => (entries.length ? k % entries.length : -1)));
      return jsonObject(entries.filter((_entry, index) => !drop.has(index)));
    }
    case 'replace': {
      if (entries.length === 0) return jsonObject([['title', mutation.value]]);
      const index = mutation.index % entries.length;
      return jsonObject(entries.map(([key, value], i) => [key, i === index ? mutation.value : value]));
    }
    case 'extra':
      return jsonObject([...entries, [mutation.key, mutation.value]]);
    case 'taint': {
      // The chosen field if it holds text, else the next one that does (lists: their first item).
      const texts = entries
        .map(([, value], index) => ({ value, index }))
        .filter(
          ({ value }) => typeof value === 'string' || (Array.isArray(value) && typeof value[0] === 'string'),
        );
      if (texts.length === 0) return jsonObject(entries);
      const chosen = texts[mutation.index % texts.length]!.index;
      return jsonObject(
        entries.map(([key, value], i): [string, unknown] => {
          if (i !== chosen) return [key, value];
          if (typeof value === 'string') return [key, taint(value, mutation.fragment, mutation.at)];
          const [first, ...rest] = value as string[];
          return [key, [taint(first!, mutation.fragment, mutation.at), ...rest]];
        }),
      );
    }
  }
}

/** Bodies no JSON parser should survive, and some it should. */
export const RAW_JSON_BODIES: readonly (string | Buffer)[] = [
  '',
  '{',
  '{"title":',
  '{"title": "x",}',
  "{'title': 'x'}",
  '{"title":"x"}Müll',
  'null',
  'true',
  '"Text"',
  '0',
  '[]',
  '[{}]',
  '{"title": 1e400}',
  '{"folder_id": 1e400, "id": -0}',
  '{"__proto__": {"isAdmin": true, "roles": ["Admin"]}}',
  '{"constructor": {"prototype": {"isAdmin": true}}}',
  '\uFEFF{"title":"Mit BOM"}',
  '{"roles": [1], "roles": "Vertreter"}',
  '{"title": "\\u0000\\ud800"}',
  Buffer.from([0x7b, 0x22, 0x74, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x22, 0x7d]),
  Buffer.from('\u0000\u0000\u0000'),
  `${'['.repeat(20_000)}${']'.repeat(20_000)}`,
  `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`,
];

export const WRONG_CONTENT_TYPES: readonly string[] = [
  'text/plain',
  'text/plain; charset=utf-8',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=gibt-es-nicht',
  'application/json; charset=utf-16le',
  'application/octet-stream',
  'image/svg+xml',
  'application/json, text/html',
  'Application/JSON',
  ';;;',
];

/** Path parameters: the valid pool plus what should never be an id or key. */
export const HOSTILE_PATH_SEGMENTS: readonly string[] = [
  '0',
  '-1',
  '1.5',
  '1e3',
  '0x10',
  '１',
  ' 1',
  '1 ',
  '1%00',
  '%00',
  '%E0%A4%A',
  '..%2F..%2Fetc%2Fpasswd',
  '..',
  "1'%20OR%20'1'='1",
  '9'.repeat(30),
  '2147483648',
  '-2147483649',
  'NaN',
  'null',
  '__proto__',
  'constructor',
  'A'.repeat(65),
  '7'.repeat(150),
  'AAAAAAAAAAAAAAA',
  'AAAAAAAAAAAAAAAA',
  '%F0%9F%98%80',
  '%C0%AF',
];
