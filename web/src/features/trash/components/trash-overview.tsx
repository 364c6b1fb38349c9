import { useEffect, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Alert, Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { IconTrashX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { TRASH_MESSAGES, trashListQuerySchema } from '@gremienportal/contracts/trash';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '../../../components/data-table-defaults';
import { ErrorState } from '../../../components/error-state';
import { LoadingState } from '../../../components/loading-state';
import { plural } from '../../../lib/plural';
import { trashListQueryOptions, type TrashFilters as TrashQueryFilters } from '../trash.api';
import { retentionDays, retentionText } from '../trash.rules';
import { RestoreTargetModal } from './restore-target-modal';
import { hasTrashFilters, isTrashKind, TrashFilters, type TrashFilterValues } from './trash-filters';
import { TrashTable } from './trash-table';
import { useTrashActions, type Restored } from './use-trash-actions';

const positiveInt = (value: string | null) => {
  const number = Number(value);
  return Number.isInteger(number) && number > 0 ? number : undefined;
};

/** The filters from the address, so a reload, the back button and a shared link keep them. */
function readParams(params: URLSearchParams) {
  const perPage = positiveInt(params.get('per_page'));
  const type = params.get('type');
  return {
    values: {
      type: isTrashKind(type) ? type : '',
      deletedBy: String(positiveInt(params.get('deleted_by')) ?? ''),
      from: params.get('from') ?? '',
      to: params.get('to') ?? '',
    } satisfies TrashFilterValues,
    page: positiveInt(params.get('page')) ?? 1,
    perPage: perPage && PAGE_SIZES.includes(perPage) ? perPage : DEFAULT_PAGE_SIZE,
  };
}

function writeParams(state: ReturnType<typeof readParams>): URLSearchParams {
  const params = new URLSearchParams();
  if (state.values.type) params.set('type', state.values.type);
  if (state.values.deletedBy) params.set('deleted_by', state.values.deletedBy);
  if (state.values.from) params.set('from', state.values.from);
  if (state.values.to) params.set('to', state.values.to);
  if (state.page !== 1) params.set('page', String(state.page));
  if (state.perPage !== DEFAULT_PAGE_SIZE) params.set('per_page', String(state.perPage));
  return params;
}

/** The contract's German messages by query field, or null when the filters are valid. */
function validate(filters: TrashQueryFilters): Partial<Record<string, string>> | null {
  const result = trashListQuerySchema.safeParse({ from: filters.from, to: filters.to });
  if (result.success) return null;
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) errors[String(issue.path[0] ?? 'to')] ??= issue.message;
  return errors;
}

/** Where a restored entry is now. */
function RestoredNotice({ restored, onClose }: { restored: Restored; onClose: () => void }) {
  const href =
    restored.type === 'event'
      ? `/events/show/${restored.id}`
      : `/files?folder=${restored.type === 'folder' ? restored.id : restored.folder_id}`;
  return (
    <Alert
      color="green"
      variant="light"
      withCloseButton
      closeButtonLabel="Hinweis schließen"
      onClose={onClose}
      title="Wiederhergestellt"
    >
      <Group gap="xs">
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          „{restored.title}“ ist wieder da.
        </Text>
        {restored.type === 'event' || restored.folder_id !== null || restored.type === 'folder' ? (
          <Anchor component={Link} to={href} size="sm" fw={600}>
            {restored.type === 'event' ? 'Event ansehen' : 'Im Explorer öffnen'}
          </Anchor>
        ) : null}
      </Group>
    </Alert>
  );
}

/** "Papierkorb": what was deleted, to restore or, for Super-Admins, to remove for good. */
export function TrashOverview() {
  const [searchParams, setSearchParams] = useSearchParams();
  const [state, setState] = useState(() => readParams(searchParams));
  const actions = useTrashActions();

  useEffect(() => {
    setSearchParams(writeParams(state), { replace: true });
  }, [state, setSearchParams]);

  const filters: TrashQueryFilters = useMemo(
    () => ({
      type: state.values.type || undefined,
      deletedBy: positiveInt(state.values.deletedBy),
      from: state.values.from || undefined,
      to: state.values.to || undefined,
    }),
    [state.values],
  );
  const errors = validate(filters);
  const list = useQuery({
    ...trashListQueryOptions(filters, { page: state.page, perPage: state.perPage }),
    enabled: errors === null,
  });
  const meta = list.data?.meta;

  // A restore or purge may empty the last page: show the one before.
  const lastPage = meta ? Math.max(1, Math.ceil(meta.total / state.perPage)) : 1;
  useEffect(() => {
    if (meta && state.page > lastPage) setState((current) => ({ ...current, page: lastPage }));
  }, [meta, lastPage, state.page]);
  const filtered = hasTrashFilters(state.values);

  return (
    <Stack gap="lg">
      <Text c="dimmed" maw={760}>
        {retentionText(retentionDays(list.data?.data[0]))}
      </Text>
      <TrashFilters
        values={state.values}
        deleters={meta?.deleters ?? []}
        errors={errors ?? undefined}
        onChange={(values) => setState((current) => ({ ...current, values, page: 1 }))}
      />
      {actions.lastRestored ? (
        <RestoredNotice restored={actions.lastRestored} onClose={actions.clearLastRestored} />
      ) : null}
      <Group justify="space-between" align="center" gap="sm">
        <Text size="sm" c="dimmed" aria-live="polite">
          {meta ? plural(meta.total, 'Eintrag', 'Einträge') : ''}
        </Text>
        {meta?.may_purge && meta.all > 0 ? (
          <Button
            variant="outline"
            color="red.9"
            leftSection={<IconTrashX size={18} aria-hidden />}
            loading={actions.emptying}
            onClick={() => actions.handleEmpty(meta.all)}
          >
            Papierkorb leeren
          </Button>
        ) : null}
      </Group>
      {list.isError ? (
        <ErrorState
          message={TRASH_MESSAGES.loadFailed}
          detail={list.error.message}
          onRetry={() => void list.refetch()}
        />
      ) : list.isPending && errors === null ? (
        <LoadingState />
      ) : (
        <TrashTable
          items={list.data?.data ?? []}
          total={meta?.total ?? 0}
          page={state.page}
          perPage={state.perPage}
          fetching={list.isFetching}
          emptyText={filtered ? TRASH_MESSAGES.filteredEmpty : TRASH_MESSAGES.empty}
          actions={{
            mayPurge: meta?.may_purge ?? false,
            busyId: actions.busyId,
            onRestore: actions.handleRestore,
            onPurge: actions.handlePurge,
          }}
          onPageChange={(page) => setState((current) => ({ ...current, page }))}
          onPerPageChange={(perPage) => setState((current) => ({ ...current, perPage, page: 1 }))}
        />
      )}
      <RestoreTargetModal {...actions.target} />
    </Stack>
  );
}
