import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Group, Paper, Pill, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import {
  AUDIT_MESSAGES,
  auditListQuerySchema,
  VISIBLE_TO_TYPES,
  type VisibleToType,
} from '@gremienportal/contracts/audit';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '../../../components/data-table-defaults';
import { ErrorState } from '../../../components/error-state';
import { LoadingState } from '../../../components/loading-state';
import { plural } from '../../../lib/plural';
import { auditListQueryOptions, type AuditFilters as AuditQueryFilters } from '../audit.api';
import { AuditExportButton } from './audit-export-button';
import { AuditFilters, hasFilters, type AuditFilterValues } from './audit-filters';
import { AuditTable } from './audit-table';
import { VisibleToList } from './visible-to-list';

const isVisibleToType = (type: string): type is VisibleToType =>
  (VISIBLE_TO_TYPES as readonly string[]).includes(type);

const TEXT_DEBOUNCE_MS = 300;

const positiveInt = (value: string | null) => {
  const number = Number(value);
  return Number.isInteger(number) && number > 0 ? number : undefined;
};

/** The filters from the address, so a reload, the back button and a shared link keep them. */
function readParams(params: URLSearchParams) {
  const perPage = positiveInt(params.get('per_page'));
  return {
    values: {
      q: params.get('q') ?? '',
      actions: params
        .getAll('action')
        .flatMap((value) => value.split(','))
        .filter(Boolean),
      objectType: params.get('object_type') ?? '',
      from: params.get('from') ?? '',
      to: params.get('to') ?? '',
    } satisfies AuditFilterValues,
    objectId: positiveInt(params.get('object_id')),
    page: positiveInt(params.get('page')) ?? 1,
    perPage: perPage && PAGE_SIZES.includes(perPage) ? perPage : DEFAULT_PAGE_SIZE,
  };
}

function writeParams(state: ReturnType<typeof readParams>): URLSearchParams {
  const params = new URLSearchParams();
  if (state.values.q.trim()) params.set('q', state.values.q);
  for (const action of state.values.actions) params.append('action', action);
  if (state.values.objectType) params.set('object_type', state.values.objectType);
  if (state.objectId !== undefined) params.set('object_id', String(state.objectId));
  if (state.values.from) params.set('from', state.values.from);
  if (state.values.to) params.set('to', state.values.to);
  if (state.page !== 1) params.set('page', String(state.page));
  if (state.perPage !== DEFAULT_PAGE_SIZE) params.set('per_page', String(state.perPage));
  return params;
}

/** The contract's German messages by query field, or null when the filters are valid. */
function validate(filters: AuditQueryFilters): Partial<Record<string, string>> | null {
  const result = auditListQuerySchema.safeParse({
    q: filters.q,
    action: filters.actions?.length ? [...filters.actions] : undefined,
    object_type: filters.objectType || undefined,
    object_id: filters.objectId,
    from: filters.from || undefined,
    to: filters.to || undefined,
  });
  if (result.success) return null;
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) errors[String(issue.path[0] ?? 'q')] ??= issue.message;
  return errors;
}

/** "Aktivitäten": the audit trail with filters, server-side pages and the CSV export. */
export function AuditOverview() {
  const [searchParams, setSearchParams] = useSearchParams();
  const [state, setState] = useState(() => readParams(searchParams));
  const [debouncedText] = useDebouncedValue(state.values.q, TEXT_DEBOUNCE_MS);

  useEffect(() => {
    setSearchParams(writeParams(state), { replace: true });
  }, [state, setSearchParams]);

  const filters: AuditQueryFilters = useMemo(
    () => ({
      q: debouncedText.trim() || undefined,
      actions: state.values.actions,
      objectType: state.values.objectType || undefined,
      objectId: state.objectId,
      from: state.values.from || undefined,
      to: state.values.to || undefined,
    }),
    [debouncedText, state.values, state.objectId],
  );
  const errors = validate({ ...filters, q: state.values.q });
  const log = useQuery({
    ...auditListQueryOptions(filters, { page: state.page, perPage: state.perPage }),
    enabled: errors === null,
  });

  const changeFilters = (values: AuditFilterValues) =>
    setState((current) => ({ ...current, values, page: 1 }));
  const filtered = hasFilters(state.values) || state.objectId !== undefined;

  return (
    <Stack gap="lg">
      <Text c="dimmed" maw={760}>
        Wer hat wann was getan: Anmeldungen, Zugriffe auf Unterlagen und Änderungen an Dateien, Ordnern,
        Events und Konten. Einträge werden nach Ablauf der Speicherfrist gelöscht, Adressen nach 30 Tagen
        gekürzt.
      </Text>
      <AuditFilters values={state.values} onChange={changeFilters} errors={errors ?? undefined} />
      <Group justify="space-between" align="center" gap="sm">
        <Group gap="xs">
          {state.objectId !== undefined ? (
            <Pill
              withRemoveButton
              removeButtonProps={{ 'aria-label': 'Objekt-Filter entfernen' }}
              onRemove={() => setState((current) => ({ ...current, objectId: undefined, page: 1 }))}
            >
              Objekt-ID {state.objectId}
            </Pill>
          ) : null}
          <Text size="sm" c="dimmed" aria-live="polite">
            {log.data ? plural(log.data.meta.total, 'Eintrag', 'Einträge') : ''}
          </Text>
        </Group>
        <AuditExportButton filters={filters} disabled={errors !== null} />
      </Group>
      {state.objectId !== undefined && isVisibleToType(state.values.objectType) ? (
        <Paper withBorder p="md" radius="md">
          <VisibleToList type={state.values.objectType} id={state.objectId} />
        </Paper>
      ) : null}
      {log.isError ? (
        <ErrorState
          message={AUDIT_MESSAGES.loadFailed}
          detail={log.error.message}
          onRetry={() => void log.refetch()}
        />
      ) : log.isPending && errors === null ? (
        <LoadingState />
      ) : (
        <AuditTable
          entries={log.data?.data ?? []}
          total={log.data?.meta.total ?? 0}
          page={state.page}
          perPage={state.perPage}
          fetching={log.isFetching}
          emptyText={filtered ? AUDIT_MESSAGES.filteredEmpty : AUDIT_MESSAGES.empty}
          onPageChange={(page) => setState((current) => ({ ...current, page }))}
          onPerPageChange={(perPage) => setState((current) => ({ ...current, perPage, page: 1 }))}
        />
      )}
    </Stack>
  );
}
