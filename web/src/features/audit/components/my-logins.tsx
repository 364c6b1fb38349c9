import { Group, List, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconAlertTriangle, IconLogin } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { AUDIT_MESSAGES } from '@gremienportal/contracts/audit';
import { ErrorState } from '../../../components/error-state';
import { LoadingState } from '../../../components/loading-state';
import { PageSection } from '../../../components/page-section';
import { formatDateTime } from '../../../lib/format';
import { myLoginsQueryOptions } from '../audit.api';

export const NO_LOGINS_MESSAGE = 'Noch keine Anmeldungen aufgezeichnet.';
export const MY_LOGINS_HINT =
  'Erkennen Sie eine Anmeldung nicht wieder? Dann ändern Sie bitte Ihr Passwort und informieren Sie die Geschäftsstelle.';

/** "Letzte Anmeldungen": the signed-in user's own last 10 sign-ins and failed attempts. */
export function MyLogins({ headingOrder = 2 }: { headingOrder?: 2 | 3 | 4 }) {
  const logins = useQuery(myLoginsQueryOptions());

  return (
    <PageSection
      id="letzte-anmeldungen"
      title="Letzte Anmeldungen"
      order={headingOrder}
      gap="sm"
      framed={false}
    >
      {logins.isPending ? (
        <LoadingState />
      ) : logins.isError ? (
        <ErrorState
          message={AUDIT_MESSAGES.loadFailed}
          detail={logins.error.message}
          onRetry={() => void logins.refetch()}
        />
      ) : logins.data.length === 0 ? (
        <Text>{NO_LOGINS_MESSAGE}</Text>
      ) : (
        <>
          <List spacing="xs" listStyleType="none" aria-label="Letzte Anmeldungen">
            {logins.data.map((login) => {
              const failed = login.action === 'auth.login_failed';
              return (
                <List.Item key={login.id}>
                  <Group gap="sm" wrap="nowrap" align="flex-start">
                    <ThemeIcon
                      size="md"
                      radius="xl"
                      variant="light"
                      color={failed ? 'red' : 'brand'}
                      aria-hidden
                    >
                      {failed ? <IconAlertTriangle size={16} /> : <IconLogin size={16} />}
                    </ThemeIcon>
                    <Stack gap={0}>
                      <Text fw={failed ? 600 : 500} c={failed ? 'red.9' : undefined}>
                        {login.action_label}
                      </Text>
                      <Text size="sm" c="dimmed">
                        {formatDateTime(login.at)}
                        {login.ip ? ` · Adresse ${login.ip}` : ''}
                      </Text>
                    </Stack>
                  </Group>
                </List.Item>
              );
            })}
          </List>
          <Text size="sm" c="dimmed">
            {MY_LOGINS_HINT}
          </Text>
        </>
      )}
    </PageSection>
  );
}
