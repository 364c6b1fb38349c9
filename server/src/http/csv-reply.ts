import type { FastifyReply } from 'fastify';
import { contentDisposition, downloadName } from './send-download.ts';

/**
 * Sends a CSV export (`toCsv`) as a download named `title.csv`: never cached, never sniffed. The
 * member lists (Teilnahme, Kenntnisnahme) answer their exports this way.
 */
export function sendCsv(reply: FastifyReply, export_: { title: string; body: string }) {
  return reply
    .header('Content-Type', 'text/csv; charset=utf-8')
    .header('Content-Disposition', contentDisposition('attachment', downloadName(export_.title, 'csv')))
    .header('Cache-Control', 'private, no-store')
    .header('X-Content-Type-Options', 'nosniff')
    .send(export_.body);
}
