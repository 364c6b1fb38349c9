import { z } from 'zod';

const bool = z
  .enum(['0', '1', 'true', 'false', ''])
  .optional()
  .transform((value) => value === '1' || value === 'true');
const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);
const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((value) => value || undefined);
const optionalUrl = z
  .string()
  .trim()
  .url()
  .optional()
  .or(z.literal('').transform(() => undefined));

const variablesSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  PUBLIC_URL: z
    .string()
    .url()
    .default('http://localhost:3000')
    .transform((value) => value.replace(/\/+$/, '')),
  MAX_UPLOAD_MB: positiveInt(100),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'muss mit postgres:// beginnen')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  INITIAL_ADMIN_EMAIL: z.string().email().default('admin@example.org'),
  INITIAL_ADMIN_PASSWORD: z.string().min(6).max(128).optional(),
  DEMO: bool,
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'muss mit smtp:// oder smtps:// beginnen')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  MAIL_FROM: z.string().min(3).default('Gremienportal <no-reply@example.org>'),
  SESSION_IDLE_MINUTES: positiveInt(60),
  SESSION_ABSOLUTE_HOURS: positiveInt(12),
  LOGIN_MAX_ATTEMPTS: positiveInt(5),
  /** Failed sign-ins per 10 minutes from one client address, whatever e-mail addresses it tries. */
  LOGIN_MAX_FAILURES_PER_CLIENT: positiveInt(30),
  /** Failed sign-ins per hour for one e-mail address, from all clients together (ASVS 2.2.1). */
  LOGIN_MAX_FAILURES_PER_ACCOUNT: positiveInt(100),
  /**
   * The reverse proxies whose X-Forwarded-For is believed: `true` = a proxy on this machine
   * (loopback), or a list of addresses/CIDRs. The client address is the rightmost entry not added by
   * a trusted proxy, so a client cannot forge one to dodge the login throttle.
   */
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((value, ctx): string | false => {
      const text = (value ?? '').trim();
      if (['', 'false', '0'].includes(text.toLowerCase())) return false;
      if (['true', '1'].includes(text.toLowerCase())) return 'loopback';
      const entries = text.split(',').map((entry) => entry.trim());
      const valid = entries.every((entry) =>
        /^(loopback|linklocal|uniquelocal|[0-9a-f:.]+(\/\d{1,3})?)$/i.test(entry),
      );
      if (valid) return entries.join(',');
      ctx.addIssue({
        code: 'custom',
        message: 'true, false oder Adressen/Netze der Proxys (z. B. 10.0.0.2)',
      });
      return z.NEVER;
    }),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  STORAGE: z.enum(['disk', 's3']).default('disk'),
  S3_ENDPOINT: optionalUrl,
  S3_REGION: optionalText.transform((value) => value ?? 'us-east-1'),
  S3_BUCKET: z
    .string()
    .trim()
    .regex(
      /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
      'ist kein gültiger Bucket-Name (3–63 Zeichen: a–z, 0–9, Punkt, Bindestrich)',
    )
    .optional()
    .or(z.literal('').transform(() => undefined)),
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  S3_FORCE_PATH_STYLE: bool,
  /**
   * Who sends the bytes of an authorised download (decision 135): the portal itself (`none`),
   * nginx after an `X-Accel-Redirect` (`nginx`, disk storage only), or the object store through a
   * presigned address valid for 60 seconds (`s3`, S3 storage only).
   */
  DOWNLOAD_OFFLOAD: z.enum(['none', 'nginx', 's3']).default('none'),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'muss mit redis:// beginnen')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  CONTACT_AUFSICHTSRAT: z.string().email().default('aufsichtsrat@example.org'),
  CONTACT_VERTRETER: z.string().email().default('vertreter@example.org'),
  IMPRINT_URL: z.string().url().default('https://www.example.org/impressum'),
  PRIVACY_URL: z.string().url().default('https://www.example.org/datenschutz'),
  AUDIT_RETENTION_DAYS: positiveInt(365),
  /** 32 bytes (64 hex characters or base64) that encrypt secrets at rest; unset: DATA_DIR/secret.key. */
  SECRET_KEY: optionalText,
  /** Roles that must use a second factor (decision 126); empty: nobody. */
  TWO_FACTOR_REQUIRED_ROLES: z
    .string()
    .default('Admin,Super-Admin')
    .transform((value) =>
      value
        .split(',')
        .map((role) => role.trim())
        .filter((role) => role.length > 0),
    ),
  /** Sitzungsmappen built or being sent at the same time; more are answered 503 (decision 130). */
  BOOK_CONCURRENCY: positiveInt(2),
  /**
   * Seconds a SIGTERM/SIGINT waits for running requests, mail sends and log writes before the
   * process ends anyway, so that a rolling restart never stalls (docs/deployment.md).
   */
  SHUTDOWN_TIMEOUT_SECONDS: positiveInt(10),
  /** Papierkorb entries older than this many days are removed for good (decision 125). */
  TRASH_DAYS: positiveInt(30),
  /** Old versions kept per document; empty keeps all (decision 125). */
  VERSIONS_KEEP: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.coerce.number().int().min(0).optional(),
  ),
});

const together = (other: string) => `ist nötig, weil ${other} gesetzt ist (beide oder keinen angeben)`;

/** Variables that only make sense together: the message names the one that is missing. */
export const configSchema = variablesSchema.superRefine((config, ctx) => {
  if (config.STORAGE === 's3' && !config.S3_BUCKET) {
    ctx.addIssue({ code: 'custom', path: ['S3_BUCKET'], message: 'ist nötig, wenn STORAGE=s3 gesetzt ist' });
  }
  if (config.DOWNLOAD_OFFLOAD === 'nginx' && config.STORAGE !== 'disk') {
    ctx.addIssue({
      code: 'custom',
      path: ['DOWNLOAD_OFFLOAD'],
      message: 'nginx geht nur mit STORAGE=disk (nginx liest die Dateien aus DATA_DIR/files)',
    });
  }
  if (config.DOWNLOAD_OFFLOAD === 's3' && config.STORAGE !== 's3') {
    ctx.addIssue({
      code: 'custom',
      path: ['DOWNLOAD_OFFLOAD'],
      message: 's3 geht nur mit STORAGE=s3 (der Objektspeicher sendet die Dateien selbst)',
    });
  }
  if (config.S3_ACCESS_KEY_ID && !config.S3_SECRET_ACCESS_KEY) {
    ctx.addIssue({
      code: 'custom',
      path: ['S3_SECRET_ACCESS_KEY'],
      message: together('S3_ACCESS_KEY_ID'),
    });
  }
  if (config.S3_SECRET_ACCESS_KEY && !config.S3_ACCESS_KEY_ID) {
    ctx.addIssue({
      code: 'custom',
      path: ['S3_ACCESS_KEY_ID'],
      message: together('S3_SECRET_ACCESS_KEY'),
    });
  }
});

export type Config = z.output<typeof configSchema>;

export class ConfigError extends Error {}

/** Parses the environment; a bad value stops the start with a message naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const result = configSchema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Ungültige Konfiguration:\n${lines.join('\n')}`);
  }
  return result.data;
}

/** Reads an optional `.env` file into process.env without overriding what is set. */
export function readDotEnv(path = '.env'): void {
  try {
    process.loadEnvFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
