import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconArrowBackUp, IconCalendarEvent, IconFile, IconFolder, IconTrashX } from '@tabler/icons-react';
import { DataTable, type DataTableColumn } from 'mantine-datatable';
import { TRASH_KIND_LABELS } from '@gremienportal/contracts/trash';
import {
  dataTableDefaults,
  paginationDefaults,
  paginationTextFor,
  PAGE_SIZES,
  SMALL_SCREEN_QUERY,
} from '../../../components/data-table-defaults';
import { PathText } from '../../../components/path-text';
import { formatDate, formatDateTime, formatSizeMb } from '../../../lib/format';
import type { TrashItem } from '../trash.api';
import { contentSummary } from '../trash.rules';

const KIND_ICONS = { file: IconFile, folder: IconFolder, event: IconCalendarEvent } as const;

/** "Vorname Nachname <mail>" as name and address. */
function splitPerson(label: string | undefined): { name: string; email?: string } {
  if (!label) return { name: 'unbekannt' };
  const match = /^(.*\S)\s*<([^<>]+)>$/.exec(label.trim());
  return match ? { name: match[1]!, email: match[2]! } : { name: label };
}

/** The name only: the address would squeeze the other columns (the filter names it in full). */
function Deleter({ item }: { item: TrashItem }) {
  return <Text size="sm">{splitPerson(item.deleted_by?.label).name}</Text>;
}

function Kind({ item }: { item: TrashItem }) {
  const Icon = KIND_ICONS[item.type];
  return (
    <Group gap={6} wrap="nowrap">
      <Icon size={18} aria-hidden />
      <Text size="sm">{TRASH_KIND_LABELS[item.type]}</Text>
    </Group>
  );
}

const formerPlace = (item: TrashItem) =>
  item.former_path === null ? '–' : <PathText text={item.former_path} />;

function DeletedAt({ item }: { item: TrashItem }) {
  return (
    <Stack gap={0}>
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
        {formatDateTime(item.deleted_at)}
      </Text>
      <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
        endgültig ab {formatDate(item.expires_at)}
      </Text>
    </Stack>
  );
}

export interface TrashRowActions {
  mayPurge: boolean;
  /** The entry whose restore or purge is running. */
  busyId: number | null;
  onRestore: (item: TrashItem) => void;
  onPurge: (item: TrashItem) => void;
}

function RowButtons({ item, actions }: { item: TrashItem; actions: TrashRowActions }) {
  const busy = actions.busyId === item.id;
  return (
    <Group gap="xs">
      <Button
        size="compact-sm"
        variant="light"
        leftSection={<IconArrowBackUp size={16} aria-hidden />}
        loading={busy}
        aria-label={`„${item.title}“ wiederherstellen`}
        onClick={() => actions.onRestore(item)}
      >
        Wiederherstellen
      </Button>
      {actions.mayPurge ? (
        <Button
          size="compact-sm"
          variant="light"
          color="red"
          leftSection={<IconTrashX size={16} aria-hidden />}
          disabled={busy}
          aria-label={`„${item.title}“ endgültig löschen`}
          onClick={() => actions.onPurge(item)}
        >
          Endgültig löschen
        </Button>
      ) : null}
    </Group>
  );
}

/** Phones: the whole entry in one cell, the buttons below. */
function TrashCard({ item, actions }: { item: TrashItem; actions: TrashRowActions }) {
  const person = splitPerson(item.deleted_by?.label);
  return (
    <Stack gap={4}>
      <Kind item={item} />
      <Title order={2} size="h5" style={{ overflowWrap: 'anywhere' }}>
        {item.title}
      </Title>
      {item.former_path !== null ? (
        <Text size="sm">
          Früherer Ort: <PathText text={item.former_path} />
        </Text>
      ) : null}
      <Text size="sm">
        Gelöscht am {formatDateTime(item.deleted_at)} von {person.name}
      </Text>
      <Text size="sm" c="dimmed">
        {contentSummary(item)} · {formatSizeMb(item.size_bytes, { unit: 'bytes' })} · endgültig ab{' '}
        {formatDate(item.expires_at)}
      </Text>
      <RowButtons item={item} actions={actions} />
    </Stack>
  );
}

function columnsFor(actions: TrashRowActions, small: boolean): DataTableColumn<TrashItem>[] {
  if (small)
    return [
      { accessor: 'card', title: 'Eintrag', render: (item) => <TrashCard item={item} actions={actions} /> },
    ];
  return [
    { accessor: 'type', title: 'Typ', render: (item) => <Kind item={item} /> },
    {
      accessor: 'title',
      title: 'Titel',
      width: '22%',
      render: (item) => (
        <Text size="sm" fw={500} style={{ overflowWrap: 'break-word', hyphens: 'auto' }}>
          {item.title}
        </Text>
      ),
    },
    { accessor: 'former_path', title: 'Früherer Ort', render: formerPlace },
    { accessor: 'deleted_by', title: 'Gelöscht von', render: (item) => <Deleter item={item} /> },
    { accessor: 'deleted_at', title: 'Gelöscht am', render: (item) => <DeletedAt item={item} /> },
    {
      accessor: 'size_bytes',
      title: 'Größe',
      noWrap: true,
      render: (item) => formatSizeMb(item.size_bytes, { unit: 'bytes' }),
    },
    { accessor: 'files', title: 'Inhalt', render: contentSummary },
    {
      accessor: 'actions',
      title: 'Aktionen',
      render: (item) => <RowButtons item={item} actions={actions} />,
    },
  ];
}

interface TrashTableProps {
  items: readonly TrashItem[];
  total: number;
  page: number;
  perPage: number;
  fetching: boolean;
  emptyText: string;
  actions: TrashRowActions;
  onPageChange: (page: number) => void;
  onPerPageChange: (perPage: number) => void;
}

/** The Papierkorb, one page at a time from the server, newest deletion first. */
export function TrashTable(props: TrashTableProps) {
  const small = useMediaQuery(SMALL_SCREEN_QUERY, false, { getInitialValueInEffect: false });
  return (
    <DataTable<TrashItem>
      {...dataTableDefaults}
      {...paginationDefaults}
      paginationText={paginationTextFor(['Eintrag', 'Einträgen'])}
      aria-label="Einträge im Papierkorb"
      noHeader={small}
      records={[...props.items]}
      columns={columnsFor(props.actions, small)}
      idAccessor="id"
      verticalAlign="top"
      fetching={props.fetching}
      noRecordsText={props.emptyText}
      totalRecords={props.total}
      page={props.page}
      onPageChange={props.onPageChange}
      recordsPerPage={props.perPage}
      recordsPerPageOptions={PAGE_SIZES}
      onRecordsPerPageChange={props.onPerPageChange}
    />
  );
}
