import * as z from 'zod/mini';
import { MAX_PASSWORD_LENGTH, MAX_TEXT_LENGTH, MIN_PASSWORD_LENGTH, msg } from './rules.ts';

/**
 * Fields the sign-in contracts (auth.ts) share with the others, written with `zod/mini`: the login
 * page validates with them without loading zod's classic API (decision 024). Mini schemas have no
 * methods such as `.optional()`; classic contracts wrap them (`z.optional(emailField)`), which
 * checks exactly the same. Every check carries its German message, so no zod locale is needed.
 */

export const emailField = z.pipe(
  z.pipe(
    z
      .string({ error: msg.required('E-Mail-Adresse') })
      .check(
        z.trim(),
        z.minLength(1, { error: msg.required('E-Mail-Adresse'), abort: true }),
        z.maxLength(MAX_TEXT_LENGTH, { error: msg.max('E-Mail-Adresse', MAX_TEXT_LENGTH) }),
      ),
    z.email({ error: msg.email }),
  ),
  z.transform((value: string) => value.toLowerCase()),
);

export const passwordField = (field = 'Passwort') =>
  z
    .string({ error: msg.required(field) })
    .check(
      z.minLength(1, { error: msg.required(field), abort: true }),
      z.minLength(MIN_PASSWORD_LENGTH, { error: msg.min(field, MIN_PASSWORD_LENGTH) }),
      z.maxLength(MAX_PASSWORD_LENGTH, { error: msg.max(field, MAX_PASSWORD_LENGTH) }),
    );

export const idSchema = z.coerce
  .number({ error: msg.invalidId })
  .check(
    z.int({ error: msg.invalidId }),
    z.positive({ error: msg.invalidId }),
    z.maximum(2_147_483_647, { error: msg.invalidId }),
  );
