import { Divider, Paper, Stack } from '@mantine/core';
import { AccessList } from './access-list';
import { VisibleToList } from './visible-to-list';

/** Under a file's or an event's details: who opened it and who may see it, for admins only. */
export function AdminAccessSection({ type, id }: { type: 'file' | 'event'; id: number }) {
  return (
    <>
      <Divider my="xs" label="Nur für Admins sichtbar" labelPosition="left" />
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
        <Stack gap="xl">
          <AccessList type={type} id={id} />
          <VisibleToList type={type} id={id} />
        </Stack>
      </Paper>
    </>
  );
}
