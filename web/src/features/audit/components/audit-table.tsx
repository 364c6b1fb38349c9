import { Stack, Text, type MantineTheme } from '@mantine/core';
import { DataTable, type DataTableColumn } from 'mantine-datatable';
import { auditObjectTypeLabel, type AuditEntry } from '@gremienportal/contracts/audit';
import { formatAuditDetails } from '@gremienportal/contracts/audit-details';
import { dataTableDefaults, paginationDefaults, PAGE_SIZES } from '../../../components/data-table-defaults';
import { formatDateTime } from '../../../lib/format';
import { PathText } from '../../../components/path-text';

/** Failed sign-ins stand out: they are what an admin looks for first. */
const ALERT_ACTIONS = new Set(['auth.login_failed']);

export function ActionLabel({ entry }: { entry: Pick<AuditEntry, 'action' | 'action_label'> }) {
  const alert = ALERT_ACTIONS.has(entry.action);
  return (
    <Text size="sm" fw={alert ? 600 : undefined} c={alert ? 'red.9' : undefined}>
      {entry.action_label}
    </Text>
  );
}

/** "Vorname Nachname <mail>" as name and address; other labels as they are. */
export function splitLabel(label: string | null): { name: string; email?: string } {
  if (!label) return { name: '–' };
  const match = /^(.*\S)\s*<([^<>]+)>$/.exec(label.trim());
  return match ? { name: match[1]!, email: match[2]! } : { name: label };
}

function PersonLabel({ label, size = 'sm' }: { label: string | null; size?: 'sm' | 'xs' }) {
  const { name, email } = splitLabel(label);
  return (
    <Stack gap={0}>
      <Text size={size}>
        <PathText text={name} />
      </Text>
      {email ? (
        // An address is no word: it may break anywhere rather than widen the table.
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {email}
        </Text>
      ) : null}
    </Stack>
  );
}

const objectKind = (entry: AuditEntry) =>
  `${auditObjectTypeLabel(entry.object_type)}${entry.object_id !== null ? ` · ID ${entry.object_id}` : ''}`;

function ObjectCell({ entry }: { entry: AuditEntry }) {
  if (!entry.object_type && !entry.object_label) return <Text size="sm">–</Text>;
  return (
    <Stack gap={0}>
      <PersonLabel label={entry.object_label} />
      <Text size="xs" c="dimmed">
        {objectKind(entry)}
      </Text>
    </Stack>
  );
}

/** Small screens get one column per entry instead of a table wider than the screen. */
const smallScreen = (theme: MantineTheme) => `(max-width: ${theme.breakpoints.sm})`;
const largeScreen = (theme: MantineTheme) => `(min-width: ${theme.breakpoints.sm})`;

function EntryCard({ entry, withObject = true }: { entry: AuditEntry; withObject?: boolean }) {
  const details = formatAuditDetails(entry.details);
  const actor = splitLabel(entry.actor_label);
  return (
    <Stack gap={2}>
      <ActionLabel entry={entry} />
      <Text size="xs" c="dimmed">
        {formatDateTime(entry.at)}
        {entry.ip ? ` · ${entry.ip}` : ''}
      </Text>
      {entry.actor_label ? (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {actor.email ? `${actor.name} (${actor.email})` : actor.name}
        </Text>
      ) : null}
      {withObject && (entry.object_label || entry.object_type) ? (
        <Text size="sm" c="dimmed">
          {objectKind(entry)}: <PathText text={entry.object_label ?? '–'} />
        </Text>
      ) : null}
      {details ? (
        <Text size="xs" c="dimmed" lineClamp={3}>
          <PathText text={details} />
        </Text>
      ) : null}
    </Stack>
  );
}

export const timeColumn: DataTableColumn<AuditEntry> = {
  accessor: 'at',
  title: 'Zeitpunkt',
  noWrap: true,
  render: (entry) => formatDateTime(entry.at),
};

export const personColumn: DataTableColumn<AuditEntry> = {
  accessor: 'actor_label',
  title: 'Person',
  width: 220,
  render: (entry) => <PersonLabel label={entry.actor_label} />,
};

export const actionColumn: DataTableColumn<AuditEntry> = {
  accessor: 'action_label',
  title: 'Aktion',
  width: 170,
  render: (entry) => <ActionLabel entry={entry} />,
};

export const addressColumn: DataTableColumn<AuditEntry> = {
  accessor: 'ip',
  title: 'Adresse',
  noWrap: true,
  render: (entry) => entry.ip ?? '–',
};

const detailsColumn: DataTableColumn<AuditEntry> = {
  accessor: 'details',
  title: 'Details',
  render: (entry) => {
    const text = formatAuditDetails(entry.details);
    return (
      <Text size="sm" lineClamp={3} title={text || undefined}>
        <PathText text={text || '–'} />
      </Text>
    );
  },
};

/** One column for small screens: the whole entry (without the object when it is known anyway). */
export const entryCardColumn = (withObject = true): DataTableColumn<AuditEntry> => ({
  accessor: 'entry',
  title: 'Eintrag',
  visibleMediaQuery: smallScreen,
  render: (entry) => <EntryCard entry={entry} withObject={withObject} />,
});

export const onLargeScreens = (column: DataTableColumn<AuditEntry>): DataTableColumn<AuditEntry> => ({
  ...column,
  visibleMediaQuery: largeScreen,
});

const columns: DataTableColumn<AuditEntry>[] = [
  entryCardColumn(),
  ...[
    timeColumn,
    personColumn,
    actionColumn,
    {
      accessor: 'object_label',
      title: 'Objekt',
      width: 220,
      render: (entry: AuditEntry) => <ObjectCell entry={entry} />,
    },
    detailsColumn,
    addressColumn,
  ].map(onLargeScreens),
];

interface AuditTableProps {
  entries: readonly AuditEntry[];
  total: number;
  page: number;
  perPage: number;
  fetching: boolean;
  emptyText: string;
  onPageChange: (page: number) => void;
  onPerPageChange: (perPage: number) => void;
}

/** The log, one page at a time from the server, newest first. */
export function AuditTable(props: AuditTableProps) {
  return (
    <DataTable<AuditEntry>
      {...dataTableDefaults}
      {...paginationDefaults}
      aria-label="Einträge der Aktivitäten"
      records={[...props.entries]}
      columns={columns}
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
