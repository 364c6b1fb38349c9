import { describe, expect, it } from 'vitest';
import {
  SEARCH_MAX_LENGTH,
  SEARCH_MESSAGES,
  SEARCH_MIN_LENGTH,
  SEARCH_TYPES,
} from '@gremienportal/contracts/search';
import {
  folderOfLocation,
  hitHref,
  isSendableQuery,
  normalizeQuery,
  QUERY_MAX_LENGTH,
  QUERY_MIN_LENGTH,
  SEARCH_TEXTS,
  SEARCH_TYPE_NAMES,
  searchPageHref,
} from './search.rules';

describe('search rules', () => {
  it('write out the contract’s values and messages unchanged', () => {
    expect(QUERY_MIN_LENGTH).toBe(SEARCH_MIN_LENGTH);
    expect(QUERY_MAX_LENGTH).toBe(SEARCH_MAX_LENGTH);
    expect(SEARCH_TYPE_NAMES).toEqual(SEARCH_TYPES);
    expect(SEARCH_TEXTS.tooShort).toBe(SEARCH_MESSAGES.tooShort);
    expect(SEARCH_TEXTS.tooLong).toBe(SEARCH_MESSAGES.tooLong);
    expect(SEARCH_TEXTS.rangeReversed).toBe(SEARCH_MESSAGES.rangeReversed);
  });

  it('send a query only when the server takes it: 2 to 200 characters once spaces are folded', () => {
    expect(normalizeQuery('  Haushalts   plan \n')).toBe('Haushalts plan');
    expect(isSendableQuery('a')).toBe(false);
    expect(isSendableQuery(' a  ')).toBe(false);
    expect(isSendableQuery('ab')).toBe(true);
    expect(isSendableQuery('x'.repeat(200))).toBe(true);
    expect(isSendableQuery('x'.repeat(201))).toBe(false);
  });

  it('lead a document or event to its page, a folder into the explorer, a resolution to the register', () => {
    expect(hitHref({ type: 'file', id: 31 })).toBe('/files/show/31');
    expect(hitHref({ type: 'folder', id: 12 })).toBe('/files?folder=12');
    expect(hitHref({ type: 'folder', id: 1 })).toBe('/files');
    expect(hitHref({ type: 'event', id: 4 })).toBe('/events/show/4');
    expect(hitHref({ type: 'resolution', id: 7 })).toBe('/beschluesse/7');
  });

  it('know the folder a search starts in: the explorer’s or a folder page’s, never the root', () => {
    expect(folderOfLocation('/files', '?folder=12')).toBe(12);
    expect(folderOfLocation('/', '?folder=7&x=1')).toBe(7);
    expect(folderOfLocation('/folders/show/9', '')).toBe(9);
    expect(folderOfLocation('/files', '?folder=1')).toBeUndefined();
    expect(folderOfLocation('/files', '?folder=abc')).toBeUndefined();
    expect(folderOfLocation('/files', '')).toBeUndefined();
    expect(folderOfLocation('/events', '?folder=12')).toBeUndefined();
    expect(folderOfLocation('/files/show/31', '')).toBeUndefined();
  });

  it('build the results page’s address', () => {
    expect(searchPageHref(' Protokoll  März ')).toBe('/search?q=Protokoll+M%C3%A4rz');
    expect(searchPageHref('Etat', 12)).toBe('/search?q=Etat&folder_id=12');
  });
});
