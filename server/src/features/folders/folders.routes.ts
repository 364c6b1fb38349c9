import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema, idParamsSchema, ROOT_FOLDER_ID } from '@gremienportal/contracts/common';
import {
  createFolderBodySchema,
  folderDetailResponseSchema,
  folderListResponseSchema,
  folderRefListResponseSchema,
  folderResponseSchema,
  periodBodySchema,
  updateFolderBodySchema,
} from '@gremienportal/contracts/folders';
import {
  explorerListResponseSchema,
  treeQuerySchema,
  treeResponseSchema,
} from '@gremienportal/contracts/files';
import type { AppContext } from '../../context.ts';
import { actorOf, type Actor, principalOf } from '../../plugins/auth.ts';
import { foldersService } from './folders.service.ts';
import type { ReadCache, Serialised } from '../explorer/explorer.service.ts';
import { acceptsGzip } from '../../http/spliced-json.ts';

/**
 * Sends an answer serialised ahead (and checked against its schema by the tests) as it is,
 * gzip-compressed to clients that take it: the tree and large listings are megabytes of JSON.
 */
async function sendSerialised(request: FastifyRequest, reply: FastifyReply, answer: Serialised) {
  const raw = reply.type('application/json; charset=utf-8').header('vary', 'accept-encoding') as FastifyReply;
  if (acceptsGzip(request.headers['accept-encoding'])) {
    return raw.header('content-encoding', 'gzip').send(await answer.gzip());
  }
  return raw.send(answer.json);
}

const folderTags = ['Ordner'];
const errors = { 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 422: errorBodySchema };
const readErrors = { 401: errorBodySchema, 404: errorBodySchema };

/**
 * The folders of the document area (product.md P5, P6): folders, the tree, move and upload
 * targets and Amtsperioden. Reads are open to every signed-in user and show only what they may
 * see; writes need Admin or Super-Admin. `cache` is the read cache shared with the files routes.
 */
/** Told of every Amtsperiode `POST /period` creates: the committees record the term (decision 189). */
export type PeriodListener = (
  actor: Actor,
  parentId: number,
  folderId: number,
  start: number,
  end: number,
) => Promise<void>;

export const foldersRoutes =
  (ctx: AppContext, cache: ReadCache, onPeriod?: PeriodListener): FastifyPluginAsyncZod =>
  async (app) => {
    const folders = foldersService(ctx, cache);

    app.get(
      '/folders',
      {
        schema: {
          tags: folderTags,
          summary: 'Alle sichtbaren Ordner als flache Liste, nach Pfad sortiert (für Auswahllisten)',
          response: { 200: folderListResponseSchema, 401: errorBodySchema },
        },
      },
      async (request) => ({ data: await folders.list(principalOf(request)) }),
    );

    app.post(
      '/folders',
      {
        config: { access: 'admin' },
        schema: {
          tags: folderTags,
          summary: 'Ordner anlegen',
          description:
            '`{ title }` oder `{ folder_id, title }` (`parent_id` gleichbedeutend); ohne Ordner-ID im ' +
            'Hauptordner. Ohne `roles` übernimmt der Ordner die Rollen des übergeordneten Ordners.',
          body: createFolderBodySchema,
          response: { 201: folderResponseSchema, ...errors },
        },
      },
      async (request, reply) => {
        const folder = await folders.create(actorOf(request), request.body);
        return reply.status(201).send({ folder });
      },
    );

    app.get(
      '/folders/:id',
      {
        schema: {
          tags: folderTags,
          summary: 'Ein Ordner mit der Zahl der Ordner und Dateien darunter (`contents`)',
          params: idParamsSchema,
          response: { 200: folderDetailResponseSchema, ...readErrors },
        },
      },
      async (request) => ({ data: await folders.get(principalOf(request), request.params.id) }),
    );

    app.put(
      '/folders/:id',
      {
        config: { access: 'admin' },
        schema: {
          tags: folderTags,
          summary: 'Ordner umbenennen, verschieben (`parent_id`) oder seine Rollen ändern',
          description:
            '`{ title }` oder `{ parent_id, title }`, optional `roles`. Die Pfade aller Unterordner ' +
            'folgen. Geschützte Ordner (IDs 1–4) → 422. Ein archivierter Ordner (beendete Amtsperiode, ' +
            '`archived`) und alles darin behält Namen und Ort (422); nur seine Rollen dürfen sich ändern.',
          params: idParamsSchema,
          body: updateFolderBodySchema,
          response: { 200: folderResponseSchema, ...errors },
        },
      },
      async (request) => ({
        folder: await folders.update(actorOf(request), request.params.id, request.body),
      }),
    );

    app.delete(
      '/folders/:id',
      {
        config: { access: 'admin' },
        schema: {
          tags: folderTags,
          summary: 'Ordner mit allem darin löschen (geschützte und archivierte Ordner → 422)',
          params: idParamsSchema,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await folders.remove(actorOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/folders/:id/files',
      {
        schema: {
          tags: folderTags,
          summary: 'Inhalt eines Ordners: sichtbare Unterordner, dann sichtbare Dateien (`type`)',
          params: idParamsSchema,
          response: { 200: explorerListResponseSchema, ...readErrors },
        },
      },
      async (request, reply) =>
        sendSerialised(request, reply, await folders.items(principalOf(request), request.params.id)),
    );

    app.get(
      '/root/files',
      {
        schema: {
          tags: folderTags,
          summary: 'Inhalt des Hauptordners (wie /folders/1/files)',
          response: { 200: explorerListResponseSchema, 401: errorBodySchema },
        },
      },
      async (request, reply) =>
        sendSerialised(request, reply, await folders.items(principalOf(request), ROOT_FOLDER_ID)),
    );

    app.get(
      '/tree',
      {
        schema: {
          tags: folderTags,
          summary: 'Der ganze sichtbare Ordnerbaum ab dem Hauptordner, mit den sichtbaren Dateien',
          description: 'Mit `?files=false` nur die Ordner (jeder Knoten mit `files: []`).',
          querystring: treeQuerySchema,
          response: { 200: treeResponseSchema, 401: errorBodySchema },
        },
      },
      async (request, reply) =>
        sendSerialised(
          request,
          reply,
          await folders.serialisedTree(principalOf(request), request.query.files === 'true'),
        ),
    );

    app.get(
      '/breadcrumbs/:id',
      {
        schema: {
          tags: folderTags,
          summary: 'Verschiebeziele für einen Ordner: sichtbare Ordner ohne ihn selbst und seine Unterordner',
          params: idParamsSchema,
          response: { 200: folderRefListResponseSchema, ...readErrors },
        },
      },
      async (request) => ({ data: await folders.moveTargets(principalOf(request), request.params.id) }),
    );

    app.get(
      '/file-breadcrumbs',
      {
        schema: {
          tags: folderTags,
          summary: 'Ziele für Uploads: alle sichtbaren Ordner außer dem Hauptordner',
          response: { 200: folderRefListResponseSchema, 401: errorBodySchema },
        },
      },
      async (request) => ({ data: await folders.uploadTargets(principalOf(request)) }),
    );

    app.post(
      '/period',
      {
        config: { access: 'admin' },
        schema: {
          tags: folderTags,
          summary: 'Amtsperiode anlegen: Ordner „Amtsperiode {start}–{end}“ mit einem Unterordner je Jahr',
          description:
            'Bestehende Ordner werden wiederverwendet (mehrfaches Ausführen legt nichts doppelt an). ' +
            'Antwort: der Ordner der Amtsperiode.',
          body: periodBodySchema,
          response: { 201: folderResponseSchema, ...errors },
        },
      },
      async (request, reply) => {
        const actor = actorOf(request);
        const folder = await folders.createPeriod(actor, request.body);
        await onPeriod?.(actor, request.body.folder_id, folder.id, request.body.start, request.body.end);
        return reply.status(201).send({ folder });
      },
    );
  };
