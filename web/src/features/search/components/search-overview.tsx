import { useEffect, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { Alert, Button, Group, Stack, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { IconExclamationCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { LoadingState } from '../../../components/loading-state';
import { isApiError } from '../../../lib/api-client';
import { plural } from '../../../lib/plural';
import { searchFolderQueryOptions, searchQueryOptions } from '../search.api';
import { KIND_NAMES, QUERY_MAX_LENGTH } from '../search.rules';
import {
  filtersOf,
  pageOf,
  readSearchState,
  searchErrors,
  writeSearchState,
  type SearchState,
} from '../search-state';
import { SearchFilters } from './search-filters';
import { SearchResults } from './search-results';

/** "12 Treffer"; with a kind chosen, the kind: "1 Datei", "3 Events". */
function countText(total: number, state: SearchState) {
  if (!state.type) return plural(total, 'Treffer', 'Treffer');
  const names = KIND_NAMES[state.type];
  return plural(total, names.one, names.other);
}

/**
 * The failure of a search: a 422 says in German what is wrong with the search; anything else may
 * be tried again. (Not the shared ErrorState: importing it here would split the chunk /files
 * loads it from and cost the first load of /files bytes; decision 129.)
 */
function SearchError({ error, onRetry }: { error: Error; onRetry: () => void }) {
  const invalid = isApiError(error) && error.status === 422;
  return (
    <Alert
      color="red"
      variant="light"
      role="alert"
      icon={<IconExclamationCircle aria-hidden />}
      title={invalid ? error.message : 'Die Suche ist fehlgeschlagen.'}
    >
      <Stack gap="sm" align="flex-start">
        {invalid ? error.allMessages.slice(1).join(' ') : error.message}
        {invalid ? null : (
          <Button variant="default" size="xs" onClick={onRetry}>
            Erneut versuchen
          </Button>
        )}
      </Stack>
    </Alert>
  );
}

/** The query field; it starts from the address's query (keyed by it, so a new search resets it). */
function QueryForm({
  initial,
  error,
  onSubmit,
}: {
  initial: string;
  error?: string | undefined;
  onSubmit: (q: string) => void;
}) {
  const [draft, setDraft] = useState(initial);
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(draft.trim());
  };
  return (
    <form role="search" aria-label="Suche" onSubmit={handleSubmit}>
      <TextInput
        label="Suchbegriff"
        value={draft}
        maxLength={QUERY_MAX_LENGTH}
        enterKeyHint="search"
        autoComplete="off"
        maw={640}
        error={error}
        onChange={(event) => setDraft(event.currentTarget.value)}
        inputContainer={(input) => (
          <Group gap="sm" wrap="nowrap" align="stretch">
            <div style={{ flex: 1 }}>{input}</div>
            <Button type="submit">Suchen</Button>
          </Group>
        )}
      />
    </form>
  );
}

/** Nothing found: check the spelling; a search kept to a folder may look everywhere. */
function NoHits({ state, onEverywhere }: { state: SearchState; onEverywhere: () => void }) {
  const inFolder = state.folderId !== undefined && !state.everywhere;
  return (
    <Alert color="gray" variant="light" title={`Nichts gefunden für „${filtersOf(state).q}“`}>
      <Stack gap="xs" align="flex-start">
        <Text size="sm">Bitte prüfen Sie die Schreibweise oder versuchen Sie einen anderen Begriff.</Text>
        {inFolder ? (
          <Button variant="default" size="xs" onClick={onEverywhere}>
            In allen Ordnern suchen
          </Button>
        ) : null}
      </Stack>
    </Alert>
  );
}

/**
 * /search (decision 129): the query, the filters and one page of hits, all kept in the address so
 * reload, back and a shared link show the same search.
 */
export function SearchOverview() {
  const [searchParams, setSearchParams] = useSearchParams();
  const state = readSearchState(searchParams);
  const update = (patch: Partial<SearchState>, options: { push?: boolean } = {}) =>
    setSearchParams(writeSearchState({ ...state, page: 1, ...patch }), { replace: !options.push });

  const asked = state.q.trim() !== '';
  const errors = asked ? searchErrors(state) : null;
  const list = useQuery({
    ...searchQueryOptions(filtersOf(state), pageOf(state)),
    enabled: asked && errors === null,
  });
  const folder = useQuery({
    ...searchFolderQueryOptions(state.folderId ?? 0),
    enabled: state.folderId !== undefined,
  });
  const meta = list.data?.meta;

  // A page beyond the last one (an old link, fewer hits since) shows the last one.
  const lastPage = meta ? Math.max(1, Math.ceil(meta.total / state.perPage)) : 1;
  useEffect(() => {
    if (!meta || state.page <= lastPage) return;
    setSearchParams((current) => writeSearchState({ ...readSearchState(current), page: lastPage }), {
      replace: true,
    });
  }, [meta, lastPage, state.page, setSearchParams]);

  const hits = list.data?.data ?? [];
  const liveText =
    !asked || errors !== null || list.isFetching
      ? ''
      : list.isError
        ? 'Die Suche ist fehlgeschlagen.'
        : countText(meta?.total ?? 0, state);
  return (
    <Stack gap="lg">
      <QueryForm
        key={state.q}
        initial={state.q}
        error={errors?.q}
        onSubmit={(q) => update({ q }, { push: true })}
      />
      <SearchFilters
        state={state}
        folderPath={folder.data}
        errors={errors ?? {}}
        onChange={(patch) => update(patch)}
      />
      {!asked ? (
        <Text c="dimmed">Geben Sie einen Suchbegriff ein, um Dateien, Ordner und Events zu finden.</Text>
      ) : errors !== null ? null : list.isPending || (list.isError && list.isFetching) ? (
        <LoadingState label="Suche läuft …" />
      ) : list.isError ? (
        <SearchError error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <Stack gap="md">
          <Text fw={600}>{countText(meta?.total ?? 0, state)}</Text>
          {hits.length === 0 ? (
            <NoHits state={state} onEverywhere={() => update({ everywhere: true })} />
          ) : (
            <SearchResults
              hits={hits}
              total={meta?.total ?? 0}
              page={state.page}
              perPage={state.perPage}
              fetching={list.isFetching}
              onPageChange={(page) => update({ page }, { push: true })}
              onPerPageChange={(perPage) => update({ perPage })}
            />
          )}
        </Stack>
      )}
      {/* Read out when a search has finished: how many hits, or that it failed. */}
      <VisuallyHidden role="status">{liveText}</VisuallyHidden>
    </Stack>
  );
}
