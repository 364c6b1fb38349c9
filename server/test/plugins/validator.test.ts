import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { unknownFields } from '../../src/plugins/validator.ts';

// Which keys a JSON body may not carry (decision 147): pure logic, so a unit test.
describe('unknownFields', () => {
  const schema = z
    .object({
      title: z.string(),
      items: z.array(
        z.object({ name: z.string(), tags: z.record(z.string(), z.object({ on: z.boolean() })) }),
      ),
      note: z.object({ text: z.string() }).optional(),
      kept: z.looseObject({ a: z.number() }),
      strict: z.strictObject({ b: z.number() }).optional(),
      either: z.union([
        z.object({ kind: z.literal('a'), a: z.number() }),
        z.object({ kind: z.literal('b') }),
      ]),
    })
    .refine(() => true);

  it('names keys of strip-mode objects at any depth, but leaves loose and strict objects to zod', () => {
    const found = unknownFields(schema, {
      title: 'x',
      user_id: 5,
      items: [{ name: 'n', tags: { t: { on: true, extra: 1 } }, owner: 3 }],
      note: { text: 't', html: '<b>' },
      kept: { a: 1, anything: true },
      strict: { b: 1, c: 2 },
      either: { kind: 'b', a: 1 },
    });
    expect(found).toEqual([
      { path: [], keys: ['user_id'] },
      { path: ['items', '0'], keys: ['owner'] },
      { path: ['items', '0', 'tags', 't'], keys: ['extra'] },
      { path: ['note'], keys: ['html'] },
      { path: ['either'], keys: ['a'] },
    ]);
  });

  it('finds nothing in a body of known fields, in values of the wrong type, or in no body', () => {
    expect(
      unknownFields(schema, { title: 'x', items: [], kept: { a: 1 }, either: { kind: 'a', a: 1 } }),
    ).toEqual([]);
    expect(unknownFields(schema, { title: 1, items: 'nope', note: null })).toEqual([]);
    expect(unknownFields(schema.optional(), undefined)).toEqual([]);
  });

  it('reads the input side of a pipe and keys named like Object.prototype', () => {
    const piped = z.object({ a: z.string() }).transform((value) => value.a);
    expect(unknownFields(piped, { a: 'x', constructor: 1, toString: 2 })).toEqual([
      { path: [], keys: ['constructor', 'toString'] },
    ]);
  });
});
