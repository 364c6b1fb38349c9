import { useState } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconKey } from '@tabler/icons-react';
import { isSuperAdmin } from '@gremienportal/contracts/rules';
import { PageTitle } from '../../components/page-title';
import type { CreatedApiKey } from '../../features/api-keys/api-keys.api';
import { ApiKeysOverview } from '../../features/api-keys/components/api-keys-overview';
import { CreateApiKeyDrawer } from '../../features/api-keys/components/create-api-key-drawer';
import { NewApiKeyToken } from '../../features/api-keys/components/new-api-key-token';
import { useAuth } from '../../lib/auth';
import NotFoundPage from './not-found';

/**
 * /api-keys: the API-Schlüssel of technical accounts. "Neuer API-Schlüssel" opens the form in a
 * drawer; the new key's token is shown once above the list.
 */
function ApiKeys() {
  const [createOpened, createDrawer] = useDisclosure(false);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  // The close after a create leaves the focus on the token, not on the button that opened the form.
  const [focusToken, setFocusToken] = useState(false);

  return (
    <Stack gap="xl">
      <div>
        <Group justify="space-between" align="flex-start" gap="sm">
          <PageTitle>API-Schlüssel</PageTitle>
          <Button
            leftSection={<IconKey size={18} aria-hidden />}
            onClick={() => {
              setFocusToken(false);
              createDrawer.open();
            }}
          >
            Neuer API-Schlüssel
          </Button>
        </Group>
        {/* Below the button when it wraps under the title on a phone. */}
        <Text maw={760} mt={{ base: 'md', xs: 0 }}>
          Mit einem API-Schlüssel greift ein anderes System, etwa die Mitgliederverwaltung oder ein Archiv,
          über die Schnittstelle auf das Portal zu. Ein Schlüssel handelt mit den Rechten der Person, die ihn
          ausgestellt hat, beschränkt auf seine Berechtigungen. Er gilt bis zu seinem Ablaufdatum oder bis er
          widerrufen wird.
        </Text>
      </div>
      {created ? <NewApiKeyToken apiKey={created} onClose={() => setCreated(null)} /> : null}
      <ApiKeysOverview />
      <CreateApiKeyDrawer
        opened={createOpened}
        onClose={createDrawer.close}
        returnFocus={!focusToken}
        onCreated={(key) => {
          setFocusToken(true);
          setCreated(key);
        }}
      />
    </Stack>
  );
}

/**
 * Super-Admins only; the server refuses everybody else. The router lets admins in (RequireAdmin),
 * this page shows Admins the 404 page as the router does members: checked here rather than by one
 * more guard in the router, whose code is part of what /login loads (decision 024).
 */
export default function ApiKeysPage() {
  const { user } = useAuth();
  return isSuperAdmin(user?.roles ?? []) ? <ApiKeys /> : <NotFoundPage />;
}
