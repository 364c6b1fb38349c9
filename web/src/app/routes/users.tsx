import { useState } from 'react';
import { Button, Group, Stack } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconUserPlus } from '@tabler/icons-react';
import { PageTitle } from '../../components/page-title';
import { CreateUserDrawer } from '../../features/users/components/create-user-drawer';
import { UsersOverview } from '../../features/users/components/users-overview';

/**
 * /user: the table "Übersicht Benutzerkonten" first; "Nutzer anlegen" opens the create form in a
 * drawer (product.md P3.11).
 */
export default function UsersPage() {
  // Users created on this page stay at the top of the table until the sort or a filter changes.
  const [pinnedIds, setPinnedIds] = useState<number[]>([]);
  const [createOpened, createDrawer] = useDisclosure(false);

  return (
    <Stack gap="xl">
      <Group justify="space-between" align="flex-start" gap="sm">
        <PageTitle>Nutzerverwaltung</PageTitle>
        <Button leftSection={<IconUserPlus size={18} aria-hidden />} onClick={createDrawer.open}>
          Nutzer anlegen
        </Button>
      </Group>
      <section aria-labelledby="users-overview-heading">
        <UsersOverview pinnedIds={pinnedIds} onUnpin={() => setPinnedIds([])} />
      </section>
      <CreateUserDrawer
        opened={createOpened}
        onClose={createDrawer.close}
        onCreated={(user) => setPinnedIds((ids) => [user.id, ...ids])}
      />
    </Stack>
  );
}
