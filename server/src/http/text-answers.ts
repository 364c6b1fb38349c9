import { z } from 'zod';

/**
 * Answers that are files, not JSON, as the routes declare them: the media type the client gets,
 * so the API description names it (errors stay JSON, see plugins/openapi.ts).
 */
export const csvAnswer = {
  description: 'CSV-Datei für Excel: Semikolon als Trenner, UTF-8 mit BOM, als Anhang',
  content: { 'text/csv': { schema: z.string() } },
};

export const calendarAnswer = {
  description: 'iCalendar-Datei (RFC 5545)',
  content: { 'text/calendar': { schema: z.string() } },
};
