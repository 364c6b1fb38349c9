import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema, idParamsSchema, messageSchema } from '@gremienportal/contracts/common';
import {
  committeeListResponseSchema,
  committeeResponseSchema,
  createCommitteeBodySchema,
  createMembershipBodySchema,
  createTermBodySchema,
  IMPORT_MESSAGES,
  importQuerySchema,
  importResultSchema,
  membersQuerySchema,
  membershipListResponseSchema,
  membershipResponseSchema,
  termListResponseSchema,
  termResponseSchema,
  updateCommitteeBodySchema,
  updateMembershipBodySchema,
  updateTermBodySchema,
} from '@gremienportal/contracts/committees';
import type { AppContext } from '../../context.ts';
import { actorOf, principalOf } from '../../plugins/auth.ts';
import type { CommitteesFeature } from './committees.feature.ts';
import { AppError } from '../../errors.ts';

/** A member list from the member administration: a few thousand rows fit well within this. */
const IMPORT_LIMIT_BYTES = 5 * 1024 * 1024;
const IMPORT_BODY_MESSAGE = 'Bitte senden Sie die Mitgliederliste als CSV-Datei.';
/** The one file of a multipart form, whole; a broken or oversized form is a German 4xx. */
async function fileOfForm(request: FastifyRequest): Promise<Buffer | undefined> {
  try {
    const part = await request.file();
    return part ? await part.toBuffer() : undefined;
  } catch (error) {
    const code = (error as { code?: string } | undefined)?.code;
    if (code === 'FST_REQ_FILE_TOO_LARGE' || code === 'FST_FILES_LIMIT') {
      throw new AppError('payload_too_large', IMPORT_MESSAGES.fileTooLarge);
    }
    throw new AppError('bad_request', IMPORT_BODY_MESSAGE);
  }
}

const IMPORT_TYPES = [
  'text/csv',
  'application/csv',
  'text/plain',
  'application/octet-stream',
  'application/vnd.ms-excel',
];

const tags = ['Gremien'];
const errors = { 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const writeErrors = { ...errors, 422: errorBodySchema };
const admin = { access: 'admin' as const };

/**
 * Gremien, Amtsperioden, Mitgliedschaften (decision 189). Members read the committees they
 * belong to (others answer 404); only Admins and Super-Admins change them.
 */
export const committeesRoutes =
  (_ctx: AppContext, feature: CommitteesFeature): FastifyPluginAsyncZod =>
  async (app) => {
    const { committees, terms, memberships } = feature;

    app.get(
      '/committees',
      {
        schema: {
          tags,
          summary: 'Gremien: die eigenen, für Admins alle',
          response: { 200: committeeListResponseSchema, 401: errorBodySchema },
        },
      },
      async (request) => ({ data: await committees.list(principalOf(request)) }),
    );
    app.post(
      '/committees',
      {
        config: admin,
        schema: {
          tags,
          summary:
            'Gremium anlegen, mit einer Rolle gleichen Namens (und einem Ordner, wenn keiner gewählt ist)',
          body: createCommitteeBodySchema,
          response: { 201: committeeResponseSchema, ...writeErrors },
        },
      },
      async (request, reply) =>
        reply.status(201).send({ data: await committees.create(actorOf(request), request.body) }),
    );
    app.get(
      '/committees/:id',
      {
        schema: {
          tags,
          summary: 'Ein Gremium',
          params: idParamsSchema,
          response: { 200: committeeResponseSchema, ...errors },
        },
      },
      async (request) => ({ data: await committees.get(principalOf(request), request.params.id) }),
    );
    app.put(
      '/committees/:id',
      {
        config: admin,
        schema: {
          tags,
          summary: 'Gremium ändern: Name, Art, Ordner, Regeln',
          params: idParamsSchema,
          body: updateCommitteeBodySchema,
          response: { 200: committeeResponseSchema, ...writeErrors },
        },
      },
      async (request) => ({
        data: await committees.update(actorOf(request), request.params.id, request.body),
      }),
    );
    app.delete(
      '/committees/:id',
      {
        config: admin,
        schema: {
          tags,
          summary: 'Gremium löschen (nur ohne Amtsperioden; die Rolle bleibt)',
          params: idParamsSchema,
          response: { 200: messageSchema, ...writeErrors },
        },
      },
      async (request) => {
        await committees.remove(actorOf(request), request.params.id);
        return { message: 'Das Gremium wurde gelöscht.' };
      },
    );

    app.get(
      '/committees/:id/terms',
      {
        schema: {
          tags,
          summary: 'Amtsperioden eines Gremiums, die neueste zuerst',
          params: idParamsSchema,
          response: { 200: termListResponseSchema, ...errors },
        },
      },
      async (request) => ({ data: await terms.list(principalOf(request), request.params.id) }),
    );
    app.post(
      '/committees/:id/terms',
      {
        config: admin,
        schema: {
          tags,
          summary:
            'Amtsperiode anlegen, mit ihrem Ordner und einem Unterordner je Jahr im Ordner des Gremiums',
          params: idParamsSchema,
          body: createTermBodySchema,
          response: { 201: termResponseSchema, ...writeErrors },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send({ data: await terms.create(actorOf(request), request.params.id, request.body) }),
    );
    app.put(
      '/terms/:id',
      {
        config: admin,
        schema: {
          tags,
          summary: 'Amtsperiode ändern; `archived` (wieder öffnen oder schließen) nur Super-Admins',
          params: idParamsSchema,
          body: updateTermBodySchema,
          response: { 200: termResponseSchema, ...writeErrors },
        },
      },
      async (request) => ({ data: await terms.update(actorOf(request), request.params.id, request.body) }),
    );
    app.delete(
      '/terms/:id',
      {
        config: admin,
        schema: {
          tags,
          summary: 'Amtsperiode löschen (nur ohne Mitgliedschaften; ihre Ordner bleiben)',
          params: idParamsSchema,
          response: { 200: messageSchema, ...writeErrors },
        },
      },
      async (request) => {
        await terms.remove(actorOf(request), request.params.id);
        return { message: 'Die Amtsperiode wurde gelöscht.' };
      },
    );

    app.get(
      '/committees/:id/members',
      {
        schema: {
          tags,
          summary: 'Mitglieder einer Amtsperiode (ohne `term_id`: der laufenden)',
          params: idParamsSchema,
          querystring: membersQuerySchema,
          response: { 200: membershipListResponseSchema, ...errors },
        },
      },
      async (request) => ({
        data: await memberships.list(principalOf(request), request.params.id, request.query.term_id),
      }),
    );
    app.post(
      '/committees/:id/members',
      {
        config: admin,
        schema: {
          tags,
          summary: 'Mitgliedschaft anlegen',
          params: idParamsSchema,
          body: createMembershipBodySchema,
          response: { 201: membershipResponseSchema, ...writeErrors },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send({ data: await memberships.create(actorOf(request), request.params.id, request.body) }),
    );
    app.put(
      '/memberships/:id',
      {
        config: admin,
        schema: {
          tags,
          summary:
            'Mitgliedschaft ändern (Funktion, Rang, von, bis, Wahlbezirk, Grund eines vorzeitigen Endes)',
          params: idParamsSchema,
          body: updateMembershipBodySchema,
          response: { 200: membershipResponseSchema, ...writeErrors },
        },
      },
      async (request) => ({
        data: await memberships.update(actorOf(request), request.params.id, request.body),
      }),
    );
    app.delete(
      '/memberships/:id',
      {
        config: admin,
        schema: {
          tags,
          summary: 'Mitgliedschaft löschen (ein Eintrag, der nicht hätte sein sollen)',
          params: idParamsSchema,
          response: { 200: messageSchema, ...writeErrors },
        },
      },
      async (request) => {
        await memberships.remove(actorOf(request), request.params.id);
        return { message: 'Die Mitgliedschaft wurde gelöscht.' };
      },
    );
    app.post(
      '/memberships/:id/successor',
      {
        config: admin,
        schema: {
          tags,
          summary: 'Nachrücken bestätigen: das vorgeschlagene Ersatzmitglied wird ab dem Folgetag Mitglied',
          params: idParamsSchema,
          response: { 201: membershipResponseSchema, ...writeErrors },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send({ data: await memberships.confirmSuccessor(actorOf(request), request.params.id) }),
    );

    await app.register(async (plain) => {
      const scope = plain.withTypeProvider<ZodTypeProvider>();
      // Or as a form's file (what a browser form or curl -F sends): one file, nothing else kept.
      await scope.register(multipart, { limits: { fileSize: IMPORT_LIMIT_BYTES, files: 1, fields: 10 } });
      // The file as it is (any encoding): the CSV reader decodes it.
      scope.addContentTypeParser(
        IMPORT_TYPES,
        { parseAs: 'buffer', bodyLimit: IMPORT_LIMIT_BYTES },
        (_request, body, done) => done(null, body),
      );
      scope.post(
        '/committees/:id/members/import',
        {
          config: admin,
          bodyLimit: IMPORT_LIMIT_BYTES,
          schema: {
            tags,
            summary:
              'Mitglieder importieren (CSV): mit `dry_run=true` (Standard) nur die Vorschau, mit `false` der Import',
            description:
              'Rumpf: die CSV-Datei selbst (`Content-Type: text/csv`) oder als einzige Datei eines Formulars (`multipart/form-data`), UTF-8 mit oder ohne BOM oder Windows-1252, ' +
              'Trennzeichen `;` oder `,`, Spalten Anrede, Vorname, Nachname, E-Mail, Funktion, von, bis, Wahlbezirk, Rang. ' +
              'Der Import schreibt in einer Transaktion und nur, wenn keine Zeile fehlerhaft ist.',
            params: idParamsSchema,
            querystring: importQuerySchema,
            response: {
              200: importResultSchema,
              ...writeErrors,
              400: errorBodySchema,
              413: errorBodySchema,
              415: errorBodySchema,
            },
          },
        },
        async (request) => {
          const body = request.isMultipart() ? await fileOfForm(request) : request.body;
          if (!(body instanceof Buffer)) throw new AppError('unsupported_media_type', IMPORT_BODY_MESSAGE);
          return feature.imports.run(
            actorOf(request),
            request.params.id,
            request.query.term_id,
            body,
            request.query.dry_run,
          );
        },
      );
    });
  };
