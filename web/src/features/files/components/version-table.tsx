import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconDownload, IconEye, IconHistory } from '@tabler/icons-react';
import { DataTable, type DataTableColumn } from 'mantine-datatable';
import { VERSION_MESSAGES } from '@gremienportal/contracts/versions';
import { dataTableDefaults, SMALL_SCREEN_QUERY } from '../../../components/data-table-defaults';
import { fileKindOf } from '../../../components/file-icon';
import { canOpenInline } from '../../../lib/saved-files';
import { formatDateTime, formatSizeMb } from '../../../lib/format';
import type { FileVersion } from '../files.api';

/** "Vorname Nachname <mail>" as the name only; the address would widen the table. */
export const personName = (label: string | null) =>
  label ? label.replace(/\s*<[^<>]*>\s*$/, '').trim() || label : 'unbekannt';

/** "21.11.2026, 14:30 von Anna Admin"; "–" when nothing is known. */
const when = (date: string | null, by: string | null) =>
  date ? `${formatDateTime(date)} von ${personName(by)}` : '–';

export interface VersionActions {
  busy: { version: number; kind: 'view' | 'download' } | null;
  onView: (version: FileVersion) => void;
  onDownload: (version: FileVersion) => void;
  /** Left out when nothing may be restored (an archived document, decision 189). */
  onRestore?: (version: FileVersion) => void;
  restoring: boolean;
}

function VersionLabel({ version }: { version: FileVersion }) {
  return (
    <Stack gap={2}>
      <Group gap={6} wrap="nowrap">
        <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
          Version {version.version}
        </Text>
        {version.current ? <Badge component="span">aktuell</Badge> : null}
      </Group>
      {version.restored_from !== null ? (
        <Text size="xs" c="dimmed">
          wiederhergestellt aus Version {version.restored_from}
        </Text>
      ) : null}
    </Stack>
  );
}

function ActionButtons({ version, actions }: { version: FileVersion; actions: VersionActions }) {
  const busy = actions.busy?.version === version.version ? actions.busy.kind : null;
  return (
    <Group gap="xs">
      {canOpenInline(version.mime_type) ? (
        <Button
          size="compact-sm"
          variant="default"
          leftSection={<IconEye size={16} aria-hidden />}
          loading={busy === 'view'}
          aria-label={`Version ${version.version} ansehen`}
          onClick={() => actions.onView(version)}
        >
          Ansehen
        </Button>
      ) : null}
      <Button
        size="compact-sm"
        variant="default"
        leftSection={<IconDownload size={16} aria-hidden />}
        loading={busy === 'download'}
        aria-label={`Version ${version.version} herunterladen`}
        onClick={() => actions.onDownload(version)}
      >
        Herunterladen
      </Button>
      {version.current || !actions.onRestore ? null : (
        <Button
          size="compact-sm"
          variant="light"
          leftSection={<IconHistory size={16} aria-hidden />}
          disabled={actions.restoring}
          aria-label={`${VERSION_MESSAGES.restore}: Version ${version.version}`}
          onClick={() => actions.onRestore?.(version)}
        >
          {VERSION_MESSAGES.restore}
        </Button>
      )}
    </Group>
  );
}

const formatOf = (version: FileVersion) => fileKindOf(version.format).label;
const sizeOf = (version: FileVersion) => formatSizeMb(version.size_bytes, { unit: 'bytes' });

/** Phones: the whole version in one cell, the buttons below. */
function VersionCard({ version, actions }: { version: FileVersion; actions: VersionActions }) {
  return (
    <Stack gap={4}>
      <VersionLabel version={version} />
      <Text size="sm">Gespeichert {when(version.date, version.stored_by)}</Text>
      {version.replaced_at ? (
        <Text size="sm">Ersetzt {when(version.replaced_at, version.replaced_by)}</Text>
      ) : null}
      <Text size="sm" c="dimmed">
        {formatOf(version)} · {sizeOf(version)}
      </Text>
      <ActionButtons version={version} actions={actions} />
    </Stack>
  );
}

function columnsFor(actions: VersionActions, small: boolean): DataTableColumn<FileVersion>[] {
  if (small)
    return [
      {
        accessor: 'card',
        title: 'Version',
        render: (version) => <VersionCard version={version} actions={actions} />,
      },
    ];
  return [
    { accessor: 'version', title: 'Version', render: (version) => <VersionLabel version={version} /> },
    {
      accessor: 'date',
      title: 'Gespeichert',
      render: (version) => (
        <Stack gap={0}>
          <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
            {formatDateTime(version.date)}
          </Text>
          <Text size="xs" c="dimmed">
            von {personName(version.stored_by)}
          </Text>
        </Stack>
      ),
    },
    {
      accessor: 'replaced_at',
      title: 'Ersetzt',
      render: (version) =>
        version.replaced_at ? (
          <Stack gap={0}>
            <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
              {formatDateTime(version.replaced_at)}
            </Text>
            <Text size="xs" c="dimmed">
              von {personName(version.replaced_by)}
            </Text>
          </Stack>
        ) : (
          '–'
        ),
    },
    { accessor: 'size_bytes', title: 'Größe', noWrap: true, render: sizeOf },
    { accessor: 'format', title: 'Format', render: formatOf },
    {
      accessor: 'actions',
      title: 'Aktionen',
      render: (version) => <ActionButtons version={version} actions={actions} />,
    },
  ];
}

interface VersionTableProps {
  versions: readonly FileVersion[];
  actions: VersionActions;
  fetching: boolean;
  labelledBy: string;
}

/** Every stored version, newest first; the first is the current one. */
export function VersionTable({ versions, actions, fetching, labelledBy }: VersionTableProps) {
  const small = useMediaQuery(SMALL_SCREEN_QUERY, false, { getInitialValueInEffect: false });
  return (
    <DataTable<FileVersion>
      {...dataTableDefaults}
      minHeight={versions.length === 0 ? 120 : undefined}
      aria-labelledby={labelledBy}
      records={[...versions]}
      columns={columnsFor(actions, small)}
      noHeader={small}
      idAccessor="version"
      verticalAlign="top"
      fetching={fetching}
      noRecordsText="Keine Versionen vorhanden"
    />
  );
}
