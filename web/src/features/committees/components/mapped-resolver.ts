import type { FieldValues, Resolver } from 'react-hook-form';
import type { $ZodType } from 'zod/v4/core';
import { contractResolver } from '../../../lib/contract-resolver';

/**
 * A contract schema as a form's resolver, for forms whose inputs hold something else than the
 * request body: a select's id as a string, an empty number field as ''. `toInput` turns the form
 * values into what the schema reads (`''` → `null`), keeping the field names, so the schema's
 * messages land under the fields.
 */
export function mappedResolver<TValues extends FieldValues, TBody>(
  schema: $ZodType<unknown, FieldValues>,
  toInput: (values: TValues) => FieldValues,
): Resolver<TValues, unknown, TBody> {
  const resolve = contractResolver<FieldValues, TBody>(schema);
  return (values, context, options) =>
    resolve(toInput(values), context, options as unknown as Parameters<typeof resolve>[2]) as ReturnType<
      Resolver<TValues, unknown, TBody>
    >;
}

/** A NumberInput's value ('' while empty) as the schema reads it. */
export const numberOrNull = (value: number | string | null | undefined): number | null =>
  value === '' || value === null || value === undefined ? null : Number(value);

/** A text or select value ('' while empty) as the schema reads it. */
export const textOrNull = (value: string | null | undefined): string | null =>
  value === null || value === undefined || value.trim() === '' ? null : value;
