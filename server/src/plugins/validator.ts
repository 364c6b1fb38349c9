import type { FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify';
import { validatorCompiler as zodValidatorCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';

/** What fastify-type-provider-zod marks its validation issues with (hasZodFastifySchemaValidationErrors). */
const ZOD_ISSUE = Symbol.for('ZodFastifySchemaValidationError');

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  valueType?: z.ZodType;
  options?: readonly z.ZodType[];
  items?: readonly z.ZodType[];
  getter?: () => z.ZodType;
}

const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

type Found = { path: string[]; keys: string[] };

/**
 * The fields of `data` that `schema` does not know and would drop silently: the keys beside the
 * shape of every object in the default ("strip") mode, also nested. Objects that say otherwise
 * (`z.strictObject` refuses them itself, `z.looseObject` or a catchall keeps them) are left alone.
 */
export function unknownFields(schema: z.ZodType, data: unknown, path: string[] = [], found: Found[] = []) {
  const def = defOf(schema);
  switch (def.type) {
    case 'object': {
      if (!isPlainObject(data) || !def.shape) break;
      const shape = def.shape;
      const keys = Object.keys(data).filter((key) => !Object.hasOwn(shape, key));
      if (def.catchall === undefined && keys.length > 0) found.push({ path, keys });
      for (const [key, inner] of Object.entries(shape)) {
        if (Object.hasOwn(data, key)) unknownFields(inner, data[key], [...path, key], found);
      }
      break;
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      if (def.innerType) unknownFields(def.innerType, data, path, found);
      break;
    case 'pipe':
      // The input side: what the client sent.
      if (def.in) unknownFields(def.in, data, path, found);
      break;
    case 'lazy':
      if (def.getter) unknownFields(def.getter(), data, path, found);
      break;
    case 'array':
      if (Array.isArray(data) && def.element) {
        data.forEach((item, index) => unknownFields(def.element!, item, [...path, String(index)], found));
      }
      break;
    case 'tuple':
      if (Array.isArray(data) && def.items) {
        def.items.forEach((item, index) => unknownFields(item, data[index], [...path, String(index)], found));
      }
      break;
    case 'record':
      if (isPlainObject(data) && def.valueType) {
        for (const [key, value] of Object.entries(data)) {
          unknownFields(def.valueType, value, [...path, key], found);
        }
      }
      break;
    case 'union': {
      // The option the value is read as; when none fits, zod reports the value itself.
      const option = def.options?.find((candidate) => candidate.safeParse(data).success);
      if (option) unknownFields(option, data, path, found);
      break;
    }
    default:
      break;
  }
  return found;
}

/**
 * Zod's validation, with every JSON body read strictly (decision 147): a field the route does not
 * know is refused with 422 naming it, instead of being dropped silently, so that a client learns
 * that `two_factor_enabled` or `user_id` did nothing. Done here once, not by marking each body
 * schema strict, so that the contracts' schemas stay usable for the web's forms.
 */
export const validatorCompiler: FastifySchemaCompiler<z.ZodType> = (route) => {
  const validate = zodValidatorCompiler(route);
  if (route.httpPart !== 'body') return validate;
  const schema = route.schema;
  return (data: unknown) => {
    const result = validate(data) as { error?: FastifySchemaValidationError[]; value?: unknown };
    const unknown = unknownFields(schema, data);
    if (unknown.length === 0) return result;
    const issues = unknown.map(({ path, keys }) => ({
      [ZOD_ISSUE]: true,
      keyword: 'unrecognized_keys',
      instancePath: `/${path.join('/')}`,
      schemaPath: `#/${path.join('/')}/unrecognized_keys`,
      message: 'Unrecognized keys',
      params: { keys },
    })) as FastifySchemaValidationError[];
    return { error: [...(Array.isArray(result.error) ? result.error : []), ...issues] };
  };
};
