import type { ReactNode } from 'react';
import { Badge, Button, Group, List, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconKeyOff } from '@tabler/icons-react';
import { DataTable, type DataTableColumn } from 'mantine-datatable';
import { API_KEY_SCOPE_LABELS } from '@gremienportal/contracts/api-keys';
import { dataTableDefaults, SMALL_SCREEN_QUERY } from '../../../components/data-table-defaults';
import { EmailText } from '../../../components/email-text';
import { formatDateTime } from '../../../lib/format';
import type { ApiKey } from '../api-keys.api';
import { isExpired } from '../api-keys.rules';

export const NO_KEYS_MESSAGE = 'Es gibt noch keine API-Schlüssel.';
export const NEVER_USED_TEXT = 'noch nie';

/** "Vorname Nachname <mail>" as name and address. */
function splitPerson(label: string): { name: string; email?: string } {
  const match = /^(.*\S)\s*<([^<>]+)>$/.exec(label.trim());
  return match ? { name: match[1]!, email: match[2]! } : { name: label };
}

function Issuer({ apiKey }: { apiKey: ApiKey }) {
  const person = splitPerson(apiKey.issued_by);
  return (
    <Stack gap={0}>
      <Text size="sm">{person.name}</Text>
      {person.email ? (
        <Text size="sm" c="dimmed">
          <EmailText email={person.email} anywhere={false} />
        </Text>
      ) : null}
    </Stack>
  );
}

function Scopes({ apiKey }: { apiKey: ApiKey }) {
  return (
    <List size="sm" spacing={2}>
      {apiKey.scopes.map((scope) => (
        <List.Item key={scope}>{API_KEY_SCOPE_LABELS[scope]}</List.Item>
      ))}
    </List>
  );
}

/** The date, and "abgelaufen" once it is past: such a key opens nothing any more. */
function ValidUntil({ apiKey, now }: { apiKey: ApiKey; now: number }) {
  return (
    <Group gap={6} wrap="wrap">
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
        {formatDateTime(apiKey.expires_at)}
      </Text>
      {isExpired(apiKey, now) ? (
        <Badge color="red.9" variant="outline" size="md">
          abgelaufen
        </Badge>
      ) : null}
    </Group>
  );
}

const lastUsed = (apiKey: ApiKey) =>
  apiKey.last_used_at === null ? NEVER_USED_TEXT : formatDateTime(apiKey.last_used_at);

export interface ApiKeyRowActions {
  /** The key whose revocation is running. */
  busyId: number | null;
  onRevoke: (apiKey: ApiKey) => void;
}

function RevokeButton({ apiKey, actions }: { apiKey: ApiKey; actions: ApiKeyRowActions }) {
  return (
    <Button
      size="compact-sm"
      variant="outline"
      color="red.9"
      leftSection={<IconKeyOff size={16} aria-hidden />}
      loading={actions.busyId === apiKey.id}
      aria-label={`API-Schlüssel „${apiKey.name}“ widerrufen`}
      onClick={() => actions.onRevoke(apiKey)}
    >
      Widerrufen
    </Button>
  );
}

/** Phones: the whole key in one cell, label and value in turn, the button below. */
function ApiKeyCard({ apiKey, actions, now }: { apiKey: ApiKey; actions: ApiKeyRowActions; now: number }) {
  const field = (label: string, value: ReactNode) => (
    <div>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <div>{value}</div>
    </div>
  );
  return (
    <Stack gap={6}>
      <Title order={3} size="h4" style={{ overflowWrap: 'anywhere' }}>
        {apiKey.name}
      </Title>
      {field('Berechtigungen', <Scopes apiKey={apiKey} />)}
      {field('Ausgestellt von', <Issuer apiKey={apiKey} />)}
      {field('Angelegt am', <Text size="sm">{formatDateTime(apiKey.created_at)}</Text>)}
      {field('Gültig bis', <ValidUntil apiKey={apiKey} now={now} />)}
      {field('Zuletzt benutzt', <Text size="sm">{lastUsed(apiKey)}</Text>)}
      <Group mt={4}>
        <RevokeButton apiKey={apiKey} actions={actions} />
      </Group>
    </Stack>
  );
}

function columnsFor(actions: ApiKeyRowActions, small: boolean, now: number): DataTableColumn<ApiKey>[] {
  if (small)
    return [
      {
        accessor: 'card',
        title: 'API-Schlüssel',
        render: (apiKey) => <ApiKeyCard apiKey={apiKey} actions={actions} now={now} />,
      },
    ];
  return [
    {
      accessor: 'name',
      title: 'Name',
      width: '16%',
      render: (apiKey) => (
        <Text size="sm" fw={600} style={{ overflowWrap: 'break-word', hyphens: 'auto' }}>
          {apiKey.name}
        </Text>
      ),
    },
    { accessor: 'scopes', title: 'Berechtigungen', render: (apiKey) => <Scopes apiKey={apiKey} /> },
    { accessor: 'issued_by', title: 'Ausgestellt von', render: (apiKey) => <Issuer apiKey={apiKey} /> },
    {
      accessor: 'created_at',
      title: 'Angelegt am',
      noWrap: true,
      render: (apiKey) => formatDateTime(apiKey.created_at),
    },
    {
      accessor: 'expires_at',
      title: 'Gültig bis',
      render: (apiKey) => <ValidUntil apiKey={apiKey} now={now} />,
    },
    { accessor: 'last_used_at', title: 'Zuletzt benutzt', noWrap: true, render: lastUsed },
    {
      accessor: 'actions',
      title: 'Aktionen',
      render: (apiKey) => <RevokeButton apiKey={apiKey} actions={actions} />,
    },
  ];
}

interface ApiKeysTableProps {
  apiKeys: readonly ApiKey[];
  fetching: boolean;
  actions: ApiKeyRowActions;
}

/** Every key, newest first, as the server sends them; a Super-Admin has a handful, so no pages. */
export function ApiKeysTable({ apiKeys, fetching, actions }: ApiKeysTableProps) {
  const small = useMediaQuery(SMALL_SCREEN_QUERY, false, { getInitialValueInEffect: false });
  const now = Date.now();
  return (
    <DataTable<ApiKey>
      {...dataTableDefaults}
      aria-label="API-Schlüssel"
      noHeader={small}
      records={[...apiKeys]}
      columns={columnsFor(actions, small, now)}
      idAccessor="id"
      verticalAlign="top"
      fetching={fetching}
      noRecordsText={NO_KEYS_MESSAGE}
    />
  );
}
