import { useState } from 'react';
import { Paper, Stack, Text, Title } from '@mantine/core';
import { PageTitle } from '../../components/page-title';
import { CreateUserForm } from '../../features/users/components/create-user-form';
import { UsersOverview } from '../../features/users/components/users-overview';

/** /user: create form "Nutzer anlegen" above the table "Übersicht Benutzerkonten" (product.md P3). */
export default function UsersPage() {
  // Users created on this page stay at the top of the table until the sort or a filter changes.
  const [pinnedIds, setPinnedIds] = useState<number[]>([]);

  return (
    <Stack gap="xl">
      <PageTitle>Nutzerverwaltung</PageTitle>
      <Paper
        withBorder
        radius="lg"
        p={{ base: 'md', sm: 'xl' }}
        component="section"
        aria-labelledby="create-user"
      >
        <Stack gap="md">
          <div>
            <Title order={2} size="h3" id="create-user">
              Nutzer anlegen
            </Title>
            <Text size="sm" c="dimmed" mt={4}>
              Der neue Nutzer erhält eine Einladung per E-Mail und legt sein Passwort selbst fest.
            </Text>
          </div>
          <CreateUserForm onCreated={(user) => setPinnedIds((ids) => [user.id, ...ids])} />
        </Stack>
      </Paper>
      <section aria-labelledby="users-overview-heading">
        <UsersOverview pinnedIds={pinnedIds} onUnpin={() => setPinnedIds([])} />
      </section>
    </Stack>
  );
}
