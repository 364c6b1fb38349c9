import { zodResolver } from '@hookform/resolvers/zod';
import type { FieldValues, Resolver } from 'react-hook-form';
import type { $ZodType } from 'zod/v4/core';

/**
 * A contract schema as the resolver of a form whose values are what its inputs hold (role and folder
 * ids as strings, '' while nothing is chosen) and whose submit gets the schema's output, the request
 * body. zodResolver types the values as the schema's input, which such forms do not share; the one
 * cast for that is here.
 */
export function contractResolver<TValues extends FieldValues, TBody>(
  schema: $ZodType<unknown, FieldValues>,
): Resolver<TValues, unknown, TBody> {
  return zodResolver(schema) as unknown as Resolver<TValues, unknown, TBody>;
}
