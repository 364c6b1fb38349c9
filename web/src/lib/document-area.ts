import type { QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * The document area is split into two features whose queries start with their own name. A write
 * in either changes what both show (a new file changes its folder's listing, a moved folder the
 * paths of its files), so after each one the tree and every listing load again (product.md P4),
 * and with them "Neu für Sie" (decision 131).
 */
const DOCUMENT_AREA_KEYS: readonly QueryKey[] = [['folders'], ['files'], ['news']];

const startsWith = (key: QueryKey, prefix: QueryKey) => prefix.every((part, index) => key[index] === part);

/**
 * Marks everything of the document area stale and reloads what is on screen, except the given
 * keys (a deleted folder or file would only answer 404); those are dropped instead.
 */
export async function refreshDocumentArea(queryClient: QueryClient, gone: readonly QueryKey[] = []) {
  for (const key of gone) queryClient.removeQueries({ queryKey: key, exact: true });
  await Promise.all(
    DOCUMENT_AREA_KEYS.map((prefix) =>
      queryClient.invalidateQueries({
        queryKey: prefix,
        predicate: (query) => !gone.some((key) => startsWith(query.queryKey, key)),
      }),
    ),
  );
}
