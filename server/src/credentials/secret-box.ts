import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makePrivateDirSync, PRIVATE_FILE_MODE } from '../storage/private-files.ts';

/** Where the key lives when SECRET_KEY is not set: generated once, owner-only, inside DATA_DIR. */
export const SECRET_KEY_FILE = 'secret.key';
const VERSION = 'v1';

/**
 * Encrypts secrets at rest (TOTP seeds, decision 126) with AES-256-GCM: a fresh 12-byte nonce per
 * value, the tag checked on opening, so a changed or foreign value fails loudly instead of
 * yielding a wrong secret. Text form: `v1.<nonce>.<tag>.<ciphertext>` in base64url.
 */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32)
      throw new Error('SECRET_KEY muss 32 Bytes lang sein (64 Hex-Zeichen oder Base64).');
  }

  seal(plain: string): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, nonce, cipher.getAuthTag(), body]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  open(sealed: string): string {
    const [version, nonce, tag, body] = sealed.split('.');
    if (version !== VERSION || !nonce || !tag || body === undefined)
      throw new Error('Unbekanntes Format eines verschlüsselten Werts');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(nonce, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }
}

/** SECRET_KEY as 64 hex characters or base64 of 32 bytes. */
export function parseSecretKey(text: string): Buffer {
  const trimmed = text.trim();
  return /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
}

/**
 * The key from SECRET_KEY, else from DATA_DIR/secret.key, generated on the first start. Several
 * instances must share one SECRET_KEY (README, "Mehrere Instanzen"); a key file per instance
 * would make each unable to read the others' secrets.
 */
export function loadSecretBox(config: { SECRET_KEY?: string | undefined; DATA_DIR: string }): SecretBox {
  if (config.SECRET_KEY) return new SecretBox(parseSecretKey(config.SECRET_KEY));
  makePrivateDirSync(config.DATA_DIR);
  const file = join(config.DATA_DIR, SECRET_KEY_FILE);
  if (!existsSync(file)) {
    try {
      writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { mode: PRIVATE_FILE_MODE, flag: 'wx' });
    } catch (error) {
      // Another process of the same DATA_DIR wrote it first: use theirs.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return new SecretBox(parseSecretKey(readFileSync(file, 'utf8')));
}
