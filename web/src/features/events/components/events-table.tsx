import { useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import {
  ActionIcon,
  Button,
  Group,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconEye, IconFilter, IconFilterOff, IconPencil, IconTrash } from '@tabler/icons-react';
import { DataTable, type DataTableColumn, type DataTableSortStatus } from 'mantine-datatable';
import { EVENT_MESSAGES, type PortalEvent } from '@gremienportal/contracts/events';
import {
  dataTableDefaults,
  DEFAULT_PAGE_SIZE,
  paginationDefaults,
} from '../../../components/data-table-defaults';
import { formatDateTime } from '../../../lib/format';
import { downloadEventFile } from '../events.api';

export type EventFilterKey = 'title' | 'start' | 'end' | 'location' | 'roles_string';
export type EventFilters = Record<EventFilterKey, string>;
export type EventSortStatus = DataTableSortStatus<PortalEvent>;

export const EMPTY_FILTERS: EventFilters = { title: '', start: '', end: '', location: '', roles_string: '' };
/** Spec § 2: initially sorted by title. */
export const SORT_BY_TITLE: EventSortStatus = { columnAccessor: 'title', direction: 'asc' };

const FILTER_LABELS: Record<EventFilterKey, string> = {
  title: 'Titel enthält',
  start: 'Beginn enthält',
  end: 'Ende enthält',
  location: 'Ort enthält',
  roles_string: 'Rollen enthalten',
};

/** What a person reads in a column is what the filter matches. */
function shownText(event: PortalEvent, key: EventFilterKey): string {
  if (key === 'start' || key === 'end') return formatDateTime(event[key]);
  return event[key];
}

export function filterEvents(events: readonly PortalEvent[], filters: EventFilters): PortalEvent[] {
  const active = (Object.entries(filters) as [EventFilterKey, string][])
    .map(([key, text]) => [key, text.trim().toLocaleLowerCase('de-DE')] as const)
    .filter(([, text]) => text !== '');
  if (active.length === 0) return [...events];
  return events.filter((event) =>
    active.every(([key, text]) => shownText(event, key).toLocaleLowerCase('de-DE').includes(text)),
  );
}

const collator = new Intl.Collator('de-DE', { sensitivity: 'base', numeric: true });

export function sortEvents(events: readonly PortalEvent[], status: EventSortStatus): PortalEvent[] {
  const key = status.columnAccessor as keyof PortalEvent;
  const factor = status.direction === 'asc' ? 1 : -1;
  return [...events].sort((a, b) => {
    const left = a[key];
    const right = b[key];
    // Times are ISO UTC strings: text order is time order.
    const byKey =
      key === 'start' || key === 'end'
        ? String(left).localeCompare(String(right))
        : collator.compare(String(left ?? ''), String(right ?? ''));
    return byKey * factor || (a.id - b.id) * factor;
  });
}

const SORT_LABELS: Record<string, string> = {
  'Not sorted': 'Nicht sortiert',
  'Sorted ascending': 'Aufsteigend sortiert',
  'Sorted descending': 'Absteigend sortiert',
};

/** mantine-datatable labels its sort icons in English; the portal speaks German everywhere. */
function useGermanSortLabels(container: React.RefObject<HTMLDivElement | null>) {
  useEffect(() => {
    const root = container.current;
    if (!root) return;
    const translate = () => {
      for (const element of root.querySelectorAll('[aria-label]')) {
        const german = SORT_LABELS[element.getAttribute('aria-label') ?? ''];
        if (german) element.setAttribute('aria-label', german);
      }
    };
    translate();
    const observer = new MutationObserver(translate);
    observer.observe(root, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['aria-label'],
    });
    return () => observer.disconnect();
  }, [container]);
}

interface EventsTableProps {
  events: readonly PortalEvent[];
  isAdmin: boolean;
  onDelete: (event: PortalEvent) => void;
  /** Events created just now: shown first, whatever the sort, until the sort or a filter changes. */
  pinnedIds?: readonly number[];
  onUnpin?: () => void;
  fetching?: boolean;
}

/** Filter, sort and page the events on the client; initially by title (spec § 2). */
export function EventsTable({
  events,
  isAdmin,
  onDelete,
  pinnedIds = [],
  onUnpin,
  fetching,
}: EventsTableProps) {
  const [sortStatus, setSortStatus] = useState<EventSortStatus>(SORT_BY_TITLE);
  const [filters, setFilters] = useState<EventFilters>(EMPTY_FILTERS);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(DEFAULT_PAGE_SIZE);
  const container = useRef<HTMLDivElement>(null);
  useGermanSortLabels(container);

  const filterKeys: EventFilterKey[] = isAdmin
    ? ['title', 'start', 'end', 'location', 'roles_string']
    : ['title', 'start', 'end', 'location'];
  const activeFilters = filterKeys.filter((key) => filters[key].trim() !== '').length;
  const filtering = activeFilters > 0;
  // On small screens the filter fields fold away behind a button.
  const smallScreen = useMediaQuery('(max-width: 47.99em)');
  const [filtersOpen, setFiltersOpen] = useState(false);
  const showFilters = !smallScreen || filtersOpen || filtering;

  const rows = useMemo(() => {
    const pinned = pinnedIds
      .map((id) => events.find((event) => event.id === id))
      .filter((event): event is PortalEvent => event !== undefined);
    const rest = events.filter((event) => !pinnedIds.includes(event.id));
    const visibleFilters = isAdmin ? filters : { ...filters, roles_string: '' };
    return [...pinned, ...sortEvents(filterEvents(rest, visibleFilters), sortStatus)];
  }, [events, pinnedIds, filters, sortStatus, isAdmin]);

  // A new event is shown on the first page; after a delete the page may have become empty.
  const pinnedKey = pinnedIds.join(',');
  useEffect(() => {
    if (pinnedKey !== '') setPage(1);
  }, [pinnedKey]);
  const lastPage = Math.max(1, Math.ceil(rows.length / pageSize));
  const currentPage = Math.min(page, lastPage);
  const records = rows.slice((currentPage - 1) * pageSize, currentPage * pageSize);

  const setFilter = (key: EventFilterKey, value: string) => {
    setFilters((current) => ({ ...current, [key]: value }));
    setPage(1);
    onUnpin?.();
  };

  const handleDownload = async (event: PortalEvent) => {
    try {
      await downloadEventFile(event);
    } catch {
      notifications.show({ color: 'red', message: EVENT_MESSAGES.loadFailed });
    }
  };

  const columns: DataTableColumn<PortalEvent>[] = [
    { accessor: 'title', title: 'Titel', sortable: true },
    // No wrapping: on narrow screens the table scrolls sideways instead of breaking dates apart.
    {
      accessor: 'start',
      title: 'Beginn',
      sortable: true,
      noWrap: true,
      render: (event) => formatDateTime(event.start),
    },
    {
      accessor: 'end',
      title: 'Ende',
      sortable: true,
      noWrap: true,
      render: (event) => formatDateTime(event.end),
    },
    { accessor: 'location', title: 'Ort', sortable: true },
    {
      accessor: 'external',
      title: 'Datei',
      textAlign: 'center',
      render: (event) =>
        event.external ? (
          <Tooltip label="Herunterladen">
            <ActionIcon
              variant="subtle"
              onClick={() => void handleDownload(event)}
              aria-label={`Informationsdatei zu „${event.title}“ herunterladen`}
            >
              <IconDownload size={18} aria-hidden />
            </ActionIcon>
          </Tooltip>
        ) : (
          <Text size="sm" c="dimmed">
            –<VisuallyHidden> keine Datei</VisuallyHidden>
          </Text>
        ),
    },
    { accessor: 'roles_string', title: 'Rollen', sortable: true, hidden: !isAdmin },
    {
      accessor: 'actions',
      title: 'Aktionen',
      textAlign: 'right',
      render: (event) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <Tooltip label="Anzeigen">
            <ActionIcon
              variant="subtle"
              component={Link}
              to={`/events/show/${event.id}`}
              aria-label={`Event „${event.title}“ anzeigen`}
            >
              <IconEye size={18} aria-hidden />
            </ActionIcon>
          </Tooltip>
          {isAdmin ? (
            <>
              <Tooltip label="Bearbeiten">
                <ActionIcon
                  variant="subtle"
                  component={Link}
                  to={`/events/update/${event.id}`}
                  aria-label={`Event „${event.title}“ bearbeiten`}
                >
                  <IconPencil size={18} aria-hidden />
                </ActionIcon>
              </Tooltip>
              <Tooltip label="Löschen">
                <ActionIcon
                  variant="subtle"
                  color="red"
                  onClick={() => onDelete(event)}
                  aria-label={`Event „${event.title}“ löschen`}
                >
                  <IconTrash size={18} aria-hidden />
                </ActionIcon>
              </Tooltip>
            </>
          ) : null}
        </Group>
      ),
    },
  ];

  return (
    <Stack gap="sm" ref={container}>
      {smallScreen ? (
        <Button
          variant="default"
          size="xs"
          leftSection={<IconFilter size={16} aria-hidden />}
          aria-expanded={showFilters}
          aria-controls="events-filters"
          onClick={() => setFiltersOpen((open) => !open)}
          style={{ alignSelf: 'flex-start' }}
        >
          {showFilters ? 'Filter ausblenden' : 'Filter anzeigen'}
          {filtering ? ` (${activeFilters} aktiv)` : ''}
        </Button>
      ) : null}
      {showFilters ? (
        <SimpleGrid
          id="events-filters"
          cols={{ base: 1, xs: 2, md: filterKeys.length }}
          spacing="sm"
          role="search"
          aria-label="Events filtern"
        >
          {filterKeys.map((key) => (
            <TextInput
              key={key}
              size="xs"
              label={FILTER_LABELS[key]}
              placeholder={key === 'start' || key === 'end' ? 'z. B. 15.07.2026' : undefined}
              value={filters[key]}
              onChange={(e) => setFilter(key, e.currentTarget.value)}
            />
          ))}
        </SimpleGrid>
      ) : null}
      {filtering ? (
        <Group justify="flex-end">
          <Button
            variant="subtle"
            size="xs"
            leftSection={<IconFilterOff size={16} aria-hidden />}
            onClick={() => {
              setFilters(EMPTY_FILTERS);
              setPage(1);
            }}
          >
            Filter zurücksetzen
          </Button>
        </Group>
      ) : null}
      <DataTable<PortalEvent>
        {...dataTableDefaults}
        {...paginationDefaults}
        aria-label="Events"
        idAccessor="id"
        columns={columns}
        records={records}
        fetching={fetching}
        totalRecords={rows.length}
        page={currentPage}
        onPageChange={setPage}
        recordsPerPage={pageSize}
        onRecordsPerPageChange={(size: number) => {
          setPageSize(size);
          setPage(1);
        }}
        sortStatus={sortStatus}
        onSortStatusChange={(status) => {
          setSortStatus(status);
          setPage(1);
          onUnpin?.();
        }}
        noRecordsText={events.length > 0 && filtering ? EVENT_MESSAGES.filteredEmpty : EVENT_MESSAGES.empty}
      />
    </Stack>
  );
}
