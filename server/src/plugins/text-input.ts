import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError, GERMAN } from '../errors.ts';

export const NUL_CHARACTER_MESSAGE = 'Die Eingabe enthält ein unzulässiges Zeichen.';

/**
 * The path of the first string in a parsed body or query that contains U+0000, or undefined.
 * Iterative, so a deeply nested body cannot exhaust the stack.
 */
export function findNulCharacter(value: unknown): string | undefined {
  const stack: { value: unknown; path: string }[] = [{ value, path: '' }];
  while (stack.length > 0) {
    const { value: current, path } = stack.pop()!;
    if (typeof current === 'string') {
      if (current.includes('\u0000')) return path;
    } else if (typeof current === 'object' && current !== null) {
      for (const [key, item] of Object.entries(current)) {
        stack.push({ value: item, path: path ? `${path}.${key}` : key });
      }
    }
  }
  return undefined;
}

/**
 * PostgreSQL text cannot hold U+0000 (the query fails, which was a 500), SQLite stores it: no
 * text field has a use for it, so every body and query string that carries one is refused alike
 * with a 422 under the field, before validation and before anything is written. Multipart fields
 * are checked where they are read (http/upload-source.ts).
 */
export const textInputPlugin = fp(async function textInputPlugin(app: FastifyInstance) {
  // Synchronous: it runs on every request, and a promise per request is measurable.
  app.addHook('preValidation', (request: FastifyRequest, _reply, done) => {
    for (const part of [request.query, request.body]) {
      const field = findNulCharacter(part);
      if (field !== undefined) {
        done(new AppError('validation', GERMAN.validation, { [field || '_']: [NUL_CHARACTER_MESSAGE] }));
        return;
      }
    }
    done();
  });
});
