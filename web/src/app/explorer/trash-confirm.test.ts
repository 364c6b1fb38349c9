import { describe, expect, it } from 'vitest';
import { FOLDER_MESSAGES } from '@gremienportal/contracts/file-messages';

/** The delete confirmation names only what the folder holds, in the right number. */
describe('FOLDER_MESSAGES.trashConfirm', () => {
  it.each([
    [3, 7, 'Der Ordner enthält 3 Ordner und 7 Dateien. Alles wird in den Papierkorb verschoben.'],
    [0, 2, 'Der Ordner enthält 2 Dateien. Alles wird in den Papierkorb verschoben.'],
    [1, 1, 'Der Ordner enthält 1 Ordner und 1 Datei. Alles wird in den Papierkorb verschoben.'],
    [4, 0, 'Der Ordner enthält 4 Ordner. Alles wird in den Papierkorb verschoben.'],
    [0, 0, 'Der Ordner ist leer und wird in den Papierkorb verschoben.'],
  ])('%i Ordner, %i Dateien', (folders, files, text) => {
    expect(FOLDER_MESSAGES.trashConfirm(folders, files)).toBe(text);
  });
});
