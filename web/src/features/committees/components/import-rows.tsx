import { List, Paper, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IMPORT_ACTION_LABELS, type ImportRow } from '@gremienportal/contracts/committees';
import { SMALL_SCREEN_QUERY } from '../../../components/data-table-defaults';
import { EmailText } from '../../../components/email-text';
import classes from './import-rows.module.css';

const ERROR_COLOR = 'var(--mantine-color-error)';

function Messages({ row }: { row: ImportRow }) {
  if (row.messages.length === 0) return null;
  const color = row.action === 'error' ? ERROR_COLOR : undefined;
  if (row.messages.length === 1) {
    return (
      <Text size="sm" c={color}>
        {row.messages[0]}
      </Text>
    );
  }
  return (
    <List size="sm" spacing={2} c={color}>
      {row.messages.map((message) => (
        <List.Item key={message}>{message}</List.Item>
      ))}
    </List>
  );
}

function Action({ row }: { row: ImportRow }) {
  return (
    <Text
      size="sm"
      fw={row.action === 'error' ? 600 : undefined}
      c={row.action === 'error' ? ERROR_COLOR : undefined}
    >
      {IMPORT_ACTION_LABELS[row.action]}
    </Text>
  );
}

/** The rows of an import's preview or result: a table on a desktop, one card per row on a phone. */
export function ImportRows({ rows, label }: { rows: readonly ImportRow[]; label: string }) {
  const small = useMediaQuery(SMALL_SCREEN_QUERY);
  if (small) {
    return (
      <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} aria-label={label}>
        {rows.map((row) => (
          <Paper component="li" key={row.row} withBorder radius="md" p="sm">
            <Stack gap={4}>
              <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                Zeile {row.row}: {row.name || '–'}
              </Text>
              {row.email ? (
                <Text size="sm">
                  <EmailText email={row.email} />
                </Text>
              ) : null}
              <Action row={row} />
              <Messages row={row} />
            </Stack>
          </Paper>
        ))}
      </Stack>
    );
  }
  return (
    <table className={classes.table} aria-label={label}>
      <thead>
        <tr>
          <th scope="col">Zeile</th>
          <th scope="col">Name</th>
          <th scope="col">E-Mail</th>
          <th scope="col">Aktion</th>
          <th scope="col">Hinweise</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.row}>
            <td className={classes.number}>{row.row}</td>
            <th scope="row">{row.name || '–'}</th>
            <td>{row.email ? <EmailText email={row.email} /> : '–'}</td>
            <td>
              <Action row={row} />
            </td>
            <td>
              <Messages row={row} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
