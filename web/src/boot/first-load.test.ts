import { describe, expect, it } from 'vitest';
import { firstLoad } from './first-load';

describe('firstLoad (decision 184)', () => {
  it('signed out, preloads the login page on /login and asks the API nothing', () => {
    expect(firstLoad('/login', '', false)).toEqual({ chunks: ['login'], requests: [] });
    expect(firstLoad('/files', '?folder=7', false)).toEqual({ chunks: [], requests: [] });
  });

  it('the explorer asks for the tree and the listing of the folder in the address', () => {
    expect(firstLoad('/files', '?folder=7', true)).toEqual({
      chunks: ['app', 'files'],
      requests: ['/settings', '/tree?files=false', '/folders/7/files'],
    });
  });

  it('the root, a missing or unreadable folder all mean the root folder, with its news', () => {
    const root = {
      chunks: ['app', 'files'],
      requests: ['/settings', '/tree?files=false', '/root/files', '/news'],
    };
    for (const search of ['', '?folder=1', '?folder=abc', '?folder=0', '?folder=99999999999'])
      expect(firstLoad('/files', search, true), search).toEqual(root);
    expect(firstLoad('/', '', true)).toEqual(root);
  });

  it('a meeting, the events, the account and the search page', () => {
    expect(firstLoad('/events/show/12', '', true).requests).toEqual(['/settings', '/events/12']);
    expect(firstLoad('/events/show/12x', '', true)).toEqual({ chunks: ['app'], requests: ['/settings'] });
    expect(firstLoad('/events', '', true).requests).toEqual(['/settings', '/events']);
    expect(firstLoad('/account', '', true).chunks).toEqual(['app', 'account']);
    expect(firstLoad('/search', '?q=Haushalt', true)).toEqual({
      chunks: ['app', 'search'],
      requests: ['/settings'],
    });
  });
});
