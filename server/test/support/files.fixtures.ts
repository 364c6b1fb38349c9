import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { TestApp } from './build-test-app.ts';
import type { TestUser } from './factories.ts';

/** Test helpers of the document area: multipart bodies, quick folder and file creation. */

export interface MultipartFile {
  field?: string;
  filename: string;
  type?: string;
  content: Buffer | string;
}

/** A `multipart/form-data` body built by hand, parts in the given order. */
export function multipart(fields: [string, string][], file?: MultipartFile, fileFirst = false) {
  const boundary = `----gremienportal${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  const addField = ([name, value]: [string, string]) =>
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
        'utf8',
      ),
    );
  const addFile = (f: MultipartFile) => {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.field ?? 'file'}"; filename="${f.filename}"\r\n` +
          `Content-Type: ${f.type ?? 'application/octet-stream'}\r\n\r\n`,
        'utf8',
      ),
      Buffer.isBuffer(f.content) ? f.content : Buffer.from(f.content, 'utf8'),
      Buffer.from('\r\n', 'utf8'),
    );
  };
  if (file && fileFirst) addFile(file);
  fields.forEach(addField);
  if (file && !fileFirst) addFile(file);
  chunks.push(Buffer.from(`--${boundary}--\r\n`, 'utf8'));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

export const dataUrl = (content: Buffer | string, type = 'application/pdf') =>
  `data:${type};base64,${(Buffer.isBuffer(content) ? content : Buffer.from(content)).toString('base64')}`;

/** A minimal PDF-looking payload; the portal never parses content. */
export const pdfBytes = (text = 'Inhalt') => Buffer.from(`%PDF-1.4\n% ${text}\n%%EOF\n`, 'utf8');

export async function createFolder(
  t: TestApp,
  admin: TestUser,
  body: Record<string, unknown>,
): Promise<{ id: number; breadcrumb: string }> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/folders',
    headers: admin.headers,
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().folder;
}

export async function uploadFile(
  t: TestApp,
  admin: TestUser,
  options: {
    title: string;
    folderId: number;
    roles: (string | number)[];
    notifications?: (string | number)[];
    content?: Buffer | string;
    filename?: string;
    type?: string;
  },
): Promise<{ id: number; external: string; title: string; format: string }> {
  const fields: [string, string][] = [
    ['title', options.title],
    ...options.roles.map((role): [string, string] => ['permissions', String(role)]),
    ...(options.notifications ?? []).map((role): [string, string] => ['notifications', String(role)]),
    ['folder_id', String(options.folderId)],
  ];
  const body = multipart(fields, {
    filename: options.filename ?? `${options.title}.pdf`,
    type: options.type ?? 'application/pdf',
    content: options.content ?? pdfBytes(options.title),
  });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/files',
    headers: { ...admin.headers, ...body.headers },
    payload: body.payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().file;
}

/** Stored objects and temporary leftovers of the disk storage. */
export async function storedObjects(t: TestApp): Promise<{ objects: string[]; temp: string[] }> {
  const root = join(t.dataDir, 'files');
  const objects = (await readdir(root, { withFileTypes: true }).catch(() => []))
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);
  const temp = await readdir(join(root, '.tmp')).catch(() => [] as string[]);
  return { objects, temp };
}

export async function fileRowCount(t: TestApp): Promise<number> {
  const row = await t.db.kysely
    .selectFrom('files')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
