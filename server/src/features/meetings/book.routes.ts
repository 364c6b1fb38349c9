import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema, idParamsSchema } from '@gremienportal/contracts/common';
import { MEETING_BOOK, meetingBookResponseSchema } from '@gremienportal/contracts/meetings';
import type { BookBuilder, BuiltBook } from '../../book/book-builder.ts';
import type { AppContext } from '../../context.ts';
import { contentDisposition, DOWNLOAD_CSP } from '../../http/send-download.ts';
import { actorOf } from '../../plugins/auth.ts';
import { bookService } from './book.service.ts';

const tags = ['Events'];

/** The Sitzungsmappe (decision 130). */
export const bookRoutes =
  (ctx: AppContext, books: BookBuilder): FastifyPluginAsyncZod =>
  async (app) => {
    const book = bookService(ctx, books);

    app.get(
      '/events/:id/book.pdf',
      {
        schema: {
          tags,
          summary:
            'Sitzungsmappe: alle Unterlagen der Sitzung, die der angemeldete Nutzer sehen darf, als ein PDF',
          description:
            'Für den angemeldeten Nutzer erstellt und gestreamt (mit Content-Length). 404, wenn das Event ' +
            'verborgen ist oder nicht existiert; 429 mit Retry-After, solange die vorige Sitzungsmappe ' +
            'desselben Nutzers noch erstellt oder heruntergeladen wird (eine zur Zeit); 503 mit ' +
            'Retry-After, solange zu viele Sitzungsmappen erstellt werden. Ein Download, der eine Zeit ' +
            'lang keine Daten abnimmt, wird beendet. HEAD prüft nur den Zugriff und erstellt nichts.',
          params: idParamsSchema,
          response: {
            200: {
              description: meetingBookResponseSchema.description!,
              content: { [MEETING_BOOK.mediaType]: { schema: meetingBookResponseSchema } },
            },
            404: errorBodySchema,
            429: errorBodySchema,
            503: errorBodySchema,
          },
        },
      },
      async (request, reply) => {
        const actor = actorOf(request);
        const answer: { fileName: string; book?: BuiltBook } =
          request.method === 'HEAD'
            ? await book.check(actor.principal, request.params.id)
            : await book.build(actor, request.params.id);
        reply
          .type(MEETING_BOOK.mediaType)
          .header('Content-Disposition', contentDisposition('attachment', answer.fileName))
          .header('X-Content-Type-Options', 'nosniff')
          .header('Content-Security-Policy', DOWNLOAD_CSP)
          .header('Cache-Control', 'private, no-store');
        if (!answer.book) return reply.send(Readable.from([]));
        // A client that takes no data for `stallMs` is cut off (decision 149): the socket's idle
        // timeout, which every write that leaves for the client restarts.
        reply.raw.setTimeout(books.limits.stallMs, () => reply.raw.destroy());
        return reply.header('Content-Length', String(answer.book.size)).send(answer.book.stream);
      },
    );
  };
