import { Link } from 'react-router';
import { Anchor, Button, Group, Text, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconEye, IconPencil, IconTrash } from '@tabler/icons-react';
import { EVENT_MESSAGES, type PortalEvent } from '@gremienportal/contracts/events';
import {
  compareText,
  SortableTable,
  type SortableColumn,
  type SortStatus,
} from '../../../components/sortable-table';
import { RowAction } from '../../../components/row-action';
import { filterRows, type FilterField, type FilterValues } from '../../../components/table-filters';
import { formatDateTime } from '../../../lib/format';
import { downloadEventFile } from '../events.api';

export type EventFilterKey = 'title' | 'start' | 'end' | 'location' | 'roles_string';
export type EventFilters = FilterValues<EventFilterKey>;
export type EventSortStatus = SortStatus<PortalEvent>;

export const EMPTY_FILTERS: EventFilters = { title: '', start: '', end: '', location: '', roles_string: '' };
/** product.md P3: initially sorted by title. */
export const SORT_BY_TITLE: EventSortStatus = { columnAccessor: 'title', direction: 'asc' };

const DATE_PLACEHOLDER = 'z. B. 15.07.2026';
const FILTER_FIELDS: FilterField<EventFilterKey>[] = [
  { key: 'title', label: 'Titel enthält' },
  { key: 'start', label: 'Beginn enthält', placeholder: DATE_PLACEHOLDER },
  { key: 'end', label: 'Ende enthält', placeholder: DATE_PLACEHOLDER },
  { key: 'location', label: 'Ort enthält' },
  { key: 'roles_string', label: 'Rollen enthalten' },
];
/** Members see no roles, so they cannot filter by them either. */
const MEMBER_FILTER_FIELDS = FILTER_FIELDS.filter((field) => field.key !== 'roles_string');

/** What a person reads in a column is what the filter matches. */
function shownText(event: PortalEvent, key: EventFilterKey): string {
  if (key === 'start' || key === 'end') return formatDateTime(event[key]);
  return event[key];
}

export const filterEvents = (events: readonly PortalEvent[], filters: EventFilters) =>
  filterRows(events, filters, shownText);

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
        : compareText(String(left ?? ''), String(right ?? ''));
    return byKey * factor || (a.id - b.id) * factor;
  });
}

/** A phone card's buttons; the card itself opens the event. */
function CardActions({ event, onDelete }: { event: PortalEvent; onDelete: (event: PortalEvent) => void }) {
  return (
    <>
      <Button
        variant="default"
        component={Link}
        to={`/events/update/${event.id}`}
        leftSection={<IconPencil size={18} aria-hidden />}
        aria-label={`Event „${event.title}“ bearbeiten`}
      >
        Bearbeiten
      </Button>
      <Button
        variant="outline"
        color="red.9"
        leftSection={<IconTrash size={18} aria-hidden />}
        onClick={() => onDelete(event)}
        aria-label={`Event „${event.title}“ löschen`}
      >
        Löschen
      </Button>
    </>
  );
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

/** Filter, sort and page the events on the client; initially by title (product.md P3). */
export function EventsTable({ events, isAdmin, onDelete, pinnedIds, onUnpin, fetching }: EventsTableProps) {
  const handleDownload = async (event: PortalEvent) => {
    try {
      await downloadEventFile(event);
    } catch {
      notifications.show({ color: 'red', message: EVENT_MESSAGES.loadFailed });
    }
  };

  const columns: SortableColumn<PortalEvent>[] = [
    {
      accessor: 'title',
      title: 'Titel',
      sortable: true,
      // The phone card has the title as its heading.
      hiddenInCard: true,
      render: (event) => (
        <Anchor component={Link} to={`/events/show/${event.id}`} size="sm">
          {event.title}
        </Anchor>
      ),
    },
    // No wrapping: dates stay whole (phones show cards instead of the table).
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
          <RowAction
            tooltip="Herunterladen"
            icon={IconDownload}
            onClick={() => void handleDownload(event)}
            label={`Informationsdatei zu „${event.title}“ herunterladen`}
          />
        ) : (
          <Text size="sm" c="dimmed">
            –<VisuallyHidden> keine Datei</VisuallyHidden>
          </Text>
        ),
      renderInCard: (event) =>
        event.external ? (
          <Button
            variant="light"
            size="sm"
            leftSection={<IconDownload size={18} aria-hidden />}
            onClick={() => void handleDownload(event)}
            aria-label={`Informationsdatei zu „${event.title}“ herunterladen`}
          >
            Herunterladen
          </Button>
        ) : (
          'keine'
        ),
    },
    { accessor: 'roles_string', title: 'Rollen', sortable: true, hidden: !isAdmin },
    {
      accessor: 'actions',
      title: 'Aktionen',
      textAlign: 'right',
      hiddenInCard: true,
      render: (event) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <RowAction
            tooltip="Anzeigen"
            icon={IconEye}
            to={`/events/show/${event.id}`}
            label={`Event „${event.title}“ anzeigen`}
          />
          {isAdmin ? (
            <>
              <RowAction
                tooltip="Bearbeiten"
                icon={IconPencil}
                to={`/events/update/${event.id}`}
                label={`Event „${event.title}“ bearbeiten`}
              />
              <RowAction
                tooltip="Löschen"
                icon={IconTrash}
                color="red"
                onClick={() => onDelete(event)}
                label={`Event „${event.title}“ löschen`}
              />
            </>
          ) : null}
        </Group>
      ),
    },
  ];

  return (
    <SortableTable
      aria-label="Events"
      columns={columns}
      records={events}
      initialSort={SORT_BY_TITLE}
      sort={sortEvents}
      filterFields={isAdmin ? FILTER_FIELDS : MEMBER_FILTER_FIELDS}
      filtersLabel="Events filtern"
      filter={filterEvents}
      emptyText={EVENT_MESSAGES.empty}
      filteredEmptyText={EVENT_MESSAGES.filteredEmpty}
      fetching={fetching}
      pinnedIds={pinnedIds}
      onUnpin={onUnpin}
      countNoun={['Event', 'Events']}
      card={{
        title: (event) => event.title,
        href: (event) => `/events/show/${event.id}`,
        actions: isAdmin ? (event) => <CardActions event={event} onDelete={onDelete} /> : undefined,
      }}
    />
  );
}
