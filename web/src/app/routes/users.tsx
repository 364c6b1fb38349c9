import { useState } from 'react';
import { Stack } from '@mantine/core';
import { FormSection } from '../../components/form-section';
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
      <FormSection
        id="create-user"
        title="Nutzer anlegen"
        description="Der neue Nutzer erhält eine Einladung per E-Mail und legt sein Passwort selbst fest."
      >
        <CreateUserForm onCreated={(user) => setPinnedIds((ids) => [user.id, ...ids])} />
      </FormSection>
      <section aria-labelledby="users-overview-heading">
        <UsersOverview pinnedIds={pinnedIds} onUnpin={() => setPinnedIds([])} />
      </section>
    </Stack>
  );
}
