/** Domain errors: services throw these, the error handler maps codes to HTTP statuses in one table. */
export type ErrorCode =
  | 'bad_request'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'validation'
  | 'too_many_requests'
  | 'unavailable'
  | 'insufficient_storage';

export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  validation: 422,
  too_many_requests: 429,
  unavailable: 503,
  insufficient_storage: 507,
};

export const GERMAN = {
  unauthenticated: 'Bitte melden Sie sich an.',
  forbidden: 'Dafür fehlt Ihnen die Berechtigung.',
  notFound: 'Nicht gefunden.',
  validation: 'Die Eingaben sind ungültig.',
  unknownField: 'Dieses Feld ist unbekannt.',
  badRequest: 'Die Anfrage ist ungültig.',
  badJson: 'Die Anfrage enthält kein gültiges JSON.',
  emptyJson: 'Die Anfrage enthält keine Daten.',
  unsupportedMediaType: 'Dieses Datenformat wird nicht unterstützt.',
  tooLarge: 'Die Anfrage ist zu groß.',
  tooManyRequests: 'Zu viele Versuche. Bitte warten Sie einen Moment.',
  insufficientStorage: 'Der Speicherplatz ist erschöpft. Bitte wenden Sie sich an die Geschäftsstelle.',
  internal: 'Ein interner Fehler ist aufgetreten. Bitte versuchen Sie es später erneut.',
  methodNotAllowed: 'Diese Methode ist hier nicht erlaubt.',
} as const;

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly errors?: Record<string, string[]>,
    readonly headers?: Record<string, string>,
    /** Machine-readable reason in the body's `code` (e.g. `two_factor_setup_required`). */
    readonly reason?: string,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const notFound = (message: string = GERMAN.notFound) => new AppError('not_found', message);
export const forbidden = (message: string = GERMAN.forbidden) => new AppError('forbidden', message);
export const unauthenticated = (message: string = GERMAN.unauthenticated) =>
  new AppError('unauthenticated', message);
/** A 422 with one message under one field, as the forms show it. */
export const invalidField = (field: string, message: string) =>
  new AppError('validation', message, { [field]: [message] });
