import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema, idParamsSchema } from '@gremienportal/contracts/common';
import {
  createFileBodySchema,
  updateFileBodySchema,
  downloadKeyParamsSchema,
  downloadQuerySchema,
  FILE_LIST_FIELDS,
  fileDataResponseSchema,
  fileListQuerySchema,
  fileListResponseSchema,
  fileResponseSchema,
} from '@gremienportal/contracts/files';
import { uploadBatchParamsSchema, uploadBatchResponseSchema } from '@gremienportal/contracts/files-batches';
import type { AppContext } from '../../context.ts';
import { actorOf, principalOf } from '../../plugins/auth.ts';
import { downloadResponses, sendDownload } from '../../http/send-download.ts';
import {
  closeWhenBodyUnread,
  multipartOptions,
  readUpload,
  type ReadUploadOptions,
} from '../../http/upload-source.ts';
import type { ReadCache } from '../explorer/explorer.service.ts';
import { filesService } from './files.service.ts';
import { uploadBatchesService } from './upload-batches.service.ts';

const fileTags = ['Dateien'];
const errors = { 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 422: errorBodySchema };
const readErrors = { 401: errorBodySchema, 404: errorBodySchema };

const FILE_PAYLOAD =
  'Zwei Lesarten: JSON `{ title, roles, folders: [id], notifications, data }` oder ' +
  '`{ title, file, permissions, notifications, folder_id }` mit der Datei als Data-URL ' +
  '(`data:application/pdf;base64,…`) in `data` bzw. `file`; oder `multipart/form-data` mit den Feldern ' +
  '`title`, `permissions` (wiederholt), `notifications` (wiederholt), `folder_id` und der Datei als Teil ' +
  '`file`. Rollen als IDs oder Namen. Das Format (Endung) kommt aus dem Dateinamen bzw. dem Medientyp ' +
  'der Data-URL. Größer als MAX_UPLOAD_MB → 413.';

const BATCH_PAYLOAD =
  'Mit `batch_id` (eine UUID, vom Client gewählt) gehört die Datei zu einem Stapel: wer sofort benachrichtigt ' +
  'wird, erhält eine E-Mail für alle Dokumente des Stapels, sobald er abgeschlossen ist ' +
  '(`POST /files/batches/{batch_id}/complete`, sonst 10 Minuten nach dem letzten Dokument); ein ' +
  'Dokument danach öffnet ihn wieder, für eine weitere E-Mail. Ein fremder Stapel → 422.';

const uploadOptions: ReadUploadOptions = { fileFields: ['file', 'data'], listFields: FILE_LIST_FIELDS };

/**
 * The documents of the document area (product.md P5, P6): files, uploads and downloads. Reads are
 * open to every signed-in user and show only what they may see; writes need Admin or Super-Admin.
 * `cache` is the read cache shared with the folder routes.
 */
export const filesRoutes =
  (ctx: AppContext, cache: ReadCache): FastifyPluginAsyncZod =>
  async (app) => {
    const files = filesService(ctx, cache);
    const batches = uploadBatchesService(ctx);

    app.get(
      '/files',
      {
        schema: {
          tags: fileTags,
          summary: 'Sichtbare Dateien, die zuletzt geänderten zuerst (`?limit=` höchstens 1000)',
          querystring: fileListQuerySchema,
          response: { 200: fileListResponseSchema, 401: errorBodySchema, 422: errorBodySchema },
        },
      },
      async (request) => ({ data: await files.list(principalOf(request), request.query.limit) }),
    );

    app.get(
      '/files/:id',
      {
        schema: {
          tags: fileTags,
          summary: 'Eine Datei (verborgene und fehlende antworten gleich mit 404)',
          params: idParamsSchema,
          response: { 200: fileDataResponseSchema, ...readErrors },
        },
      },
      async (request) => ({ data: await files.get(principalOf(request), request.params.id) }),
    );

    app.delete(
      '/files/:id',
      {
        config: { access: 'admin' },
        schema: {
          tags: fileTags,
          summary: 'Datei löschen',
          params: idParamsSchema,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await files.remove(actorOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/download/:key',
      {
        schema: {
          tags: fileTags,
          summary: 'Dateiinhalt (GET und HEAD, Range); Bearer-Token und passende Rolle nötig',
          params: downloadKeyParamsSchema,
          querystring: downloadQuerySchema,
          response: { ...downloadResponses, 401: errorBodySchema },
        },
      },
      async (request, reply) => {
        const actor = actorOf(request);
        const file = await files.forDownload(actor.principal, request.params.key);
        return sendDownload(
          request,
          reply,
          ctx,
          {
            kind: 'file',
            id: file.id,
            key: file.storage_key,
            title: file.title,
            format: file.format,
            mimeType: file.mime_type,
          },
          {
            // Every answer with content, whatever its range, before the first byte leaves; the
            // service keeps a viewer's range requests to one entry (decision 116). HEAD sends none.
            beforeSend: async ({ head }) => {
              if (!head) await files.recordDownload(actor, file, request.query.purpose);
            },
          },
        );
      },
    );

    app.post(
      '/files/batches/:batch_id/complete',
      {
        config: { access: 'admin' },
        schema: {
          tags: fileTags,
          summary: 'Stapel abschließen: je Person eine E-Mail für alle Dokumente des Stapels',
          description:
            'Nur wer den Stapel mit dem ersten Dokument begonnen hat. Ein unbekannter oder fremder Stapel antwortet 404; ' +
            'ein schon abgeschlossener dasselbe wie beim ersten Mal, ohne neue E-Mails. Ohne diesen Aufruf wird ein ' +
            'Stapel 10 Minuten nach seinem letzten Dokument abgeschlossen.',
          params: uploadBatchParamsSchema,
          response: { 200: uploadBatchResponseSchema, ...errors },
        },
      },
      async (request) => batches.complete(actorOf(request), request.params.batch_id),
    );

    // Multipart only where documents arrive: its hooks would otherwise run on every request.
    await app.register(async (scope) => {
      await scope.register(multipart, multipartOptions(ctx.config));
      scope.addHook('onSend', closeWhenBodyUnread);
      const uploads = scope.withTypeProvider<ZodTypeProvider>();

      uploads.post(
        '/files',
        {
          config: { access: 'admin' },
          schema: {
            tags: fileTags,
            summary: 'Datei hochladen',
            description: `${FILE_PAYLOAD} Titel (mind. 3 Zeichen), mindestens eine Rolle und ein Ordner (nicht der Hauptordner) sind nötig; \`notifications\` müssen unter den Rollen der Datei sein. ${BATCH_PAYLOAD}`,
            upload: { body: createFileBodySchema, dataUrlFields: ['data', 'file'] },
            response: { 201: fileResponseSchema, ...errors, 413: errorBodySchema },
          },
        },
        async (request, reply) => {
          const actor = actorOf(request);
          const upload = await readUpload(request, ctx, {
            ...uploadOptions,
            checkFieldsBeforeFile: (fields) => files.checkCreateFields(actor, fields),
          });
          const file = await files.create(actor, upload);
          return reply.status(201).send({ file });
        },
      );

      uploads.put(
        '/files/:id',
        {
          config: { access: 'admin' },
          schema: {
            tags: fileTags,
            summary: 'Datei ändern; eine neue Datei ersetzt den Inhalt',
            description: `${FILE_PAYLOAD} Alles ist optional: was fehlt, bleibt unverändert.`,
            upload: { body: updateFileBodySchema, dataUrlFields: ['data', 'file'] },
            params: idParamsSchema,
            response: { 200: fileResponseSchema, ...errors, 413: errorBodySchema },
          },
        },
        async (request) => {
          const actor = actorOf(request);
          const upload = await readUpload(request, ctx, {
            ...uploadOptions,
            checkFieldsBeforeFile: (fields) => files.checkUpdateFields(actor, request.params.id, fields),
          });
          return { file: await files.update(actor, request.params.id, upload) };
        },
      );
    });
  };
