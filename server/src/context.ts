import type { FastifyBaseLogger as Logger } from 'fastify';
import type { Config } from './config.ts';
import type { Clock } from './clock.ts';
import type { Db } from './db/database.ts';
import type { FileStorage } from './storage/file-storage.ts';
import type { CounterStore } from './rate-limit/counter-store.ts';
import type { MailSender } from './mail/sender.ts';
import type { SecretBox } from './credentials/secret-box.ts';

/**
 * What every feature gets: explicit, so tests can pass fakes. It lives apart from `app.ts`, which
 * wires the parts together, so that no feature has to import the module that imports it.
 */
export interface AppContext {
  config: Config;
  db: Db;
  clock: Clock;
  storage: FileStorage;
  counters: CounterStore;
  mailSender: MailSender;
  logger: Logger;
  /** Encrypts secrets at rest (TOTP seeds). */
  secrets: SecretBox;
}
