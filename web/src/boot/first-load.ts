/**
 * What the first page of a visit needs before it can show anything (decision 184): the chunks of
 * its code (by group, as the build names them: `login`, `app`, `files` …) and, signed in, the API
 * calls it makes first. The boot script starts both while the entry still loads; the page's own
 * calls then find the answers already on their way (lib/early-requests.ts).
 */
import { ROOT_FOLDER_ID } from '@gremienportal/contracts/rules';
import { FOLDER_TREE_PATH, folderIdFromParam, folderItemsPath } from '../features/folders/folders.rules';

export interface FirstLoad {
  /** Chunk groups whose files get `<link rel="modulepreload">`. */
  chunks: string[];
  /** API paths below /api/v1, exactly as the page's own calls spell them. */
  requests: string[];
}

export function firstLoad(pathname: string, search: string, signedIn: boolean): FirstLoad {
  if (!signedIn) return { chunks: pathname === '/login' ? ['login'] : [], requests: [] };
  const page = (chunk: string, requests: string[] = []): FirstLoad => ({
    chunks: ['app', chunk],
    requests: ['/settings', ...requests],
  });
  if (pathname === '/' || pathname === '/files') {
    const folder = folderIdFromParam(new URLSearchParams(search).get('folder'));
    return page('files', [
      FOLDER_TREE_PATH,
      folderItemsPath(folder),
      ...(folder === ROOT_FOLDER_ID ? ['/news'] : []),
    ]);
  }
  const event = /^\/events\/show\/([1-9]\d{0,9})$/.exec(pathname);
  if (event) return page('event-show', [`/events/${event[1]}`]);
  if (pathname === '/events') return page('events', ['/events']);
  if (pathname === '/account')
    return page('account', [
      '/account',
      '/account/notifications',
      '/account/calendar-feed',
      '/audit/my-logins',
    ]);
  if (pathname === '/search') return page('search');
  return { chunks: ['app'], requests: ['/settings'] };
}
