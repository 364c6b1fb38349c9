import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-client';
import { applyFieldErrors, generalErrorOf } from './form-errors';

interface Values {
  title: string;
  roles: string[];
}

const invalid = (errors: Record<string, string[]>, message = 'Die Eingaben sind ungültig.') =>
  new ApiError(422, message, { errors });

describe('applyFieldErrors', () => {
  it('puts the messages under the form fields and focuses only the first', () => {
    const setError = vi.fn();
    const placed = applyFieldErrors<Values>(
      invalid({ title: ['Bitte einen Titel eingeben.'], roles: ['Bitte eine Rolle wählen.', 'Mehr.'] }),
      setError,
      ['title', 'roles'],
    );
    expect(placed).toEqual({ unplaced: [], fileError: undefined, message: 'Die Eingaben sind ungültig.' });
    expect(setError).toHaveBeenCalledWith(
      'title',
      { type: 'server', message: 'Bitte einen Titel eingeben.' },
      { shouldFocus: true },
    );
    expect(setError).toHaveBeenCalledWith(
      'roles',
      { type: 'server', message: 'Bitte eine Rolle wählen. Mehr.' },
      { shouldFocus: false },
    );
  });

  it('returns the messages of fields the form does not show', () => {
    const setError = vi.fn();
    const placed = applyFieldErrors<Values>(
      invalid({ title: ['Zu lang.'], folder_id: ['Der Ordner fehlt.'] }),
      setError,
      ['title'],
    );
    expect(placed?.unplaced).toEqual(['Der Ordner fehlt.']);
    expect(setError).toHaveBeenCalledTimes(1);
  });

  it('keeps the file messages apart, joined, and not among the unplaced ones', () => {
    const setError = vi.fn();
    const placed = applyFieldErrors<Values>(
      invalid({ file: ['Die Datei ist zu groß.'], data: ['Das Format ist nicht erlaubt.'] }),
      setError,
      ['title'],
      { fileFields: ['file', 'data'] },
    );
    expect(placed).toEqual({
      unplaced: [],
      fileError: 'Die Datei ist zu groß. Das Format ist nicht erlaubt.',
      message: 'Die Eingaben sind ungültig.',
    });
    expect(setError).not.toHaveBeenCalled();
  });

  it('leaves any other error to the form', () => {
    const setError = vi.fn();
    expect(applyFieldErrors<Values>(new ApiError(422, 'Geschützt.'), setError, ['title'])).toBeNull();
    expect(applyFieldErrors<Values>(new ApiError(401, 'Abgemeldet.'), setError, ['title'])).toBeNull();
    expect(applyFieldErrors<Values>(new Error('kaputt'), setError, ['title'])).toBeNull();
    expect(setError).not.toHaveBeenCalled();
  });
});

describe('generalErrorOf', () => {
  it('shows the failure text as title and the server message for a 422', () => {
    expect(
      generalErrorOf<Values>(new ApiError(422, 'Der Ordner ist geschützt.'), 'Fehlgeschlagen.', vi.fn(), [
        'title',
      ]),
    ).toEqual({
      title: 'Fehlgeschlagen.',
      messages: ['Der Ordner ist geschützt.'],
    });
  });

  it('shows the unplaced field messages instead of the server message', () => {
    expect(
      generalErrorOf<Values>(invalid({ folder_id: ['Der Ordner fehlt.'] }), 'Fehlgeschlagen.', vi.fn(), [
        'title',
      ]),
    ).toEqual({ title: 'Fehlgeschlagen.', messages: ['Der Ordner fehlt.'] });
  });

  it('shows only the failure text for anything else', () => {
    expect(
      generalErrorOf<Values>(new ApiError(500, 'Serverfehler.'), 'Fehlgeschlagen.', vi.fn(), ['title']),
    ).toEqual({
      messages: ['Fehlgeschlagen.'],
    });
  });
});
