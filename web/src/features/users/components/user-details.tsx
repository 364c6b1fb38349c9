import { Box, Text } from '@mantine/core';
import type { User } from '@gremienportal/contracts/users';
import { formatDateTime } from '../../../lib/format';
import { EmailText } from '../../../components/email-text';
import { EffectiveRoles } from './effective-roles';

function Entry({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Text component="dt" size="sm" c="dimmed" fw={500}>
        {label}
      </Text>
      <Text component="dd" m={0} style={{ overflowWrap: 'break-word' }}>
        {children}
      </Text>
    </div>
  );
}

/**
 * The user's data as the view page shows it (product.md P3: Anrede, Vorname, Nachname, E-Mail,
 * Rollen); the roles are all the user holds, each with where it comes from (decision 189).
 */
export function UserDetails({ user }: { user: User }) {
  return (
    <Box
      component="dl"
      m={0}
      style={{
        display: 'grid',
        gridTemplateColumns: 'repeat(auto-fill, minmax(15rem, 1fr))',
        gap: 'var(--mantine-spacing-md) var(--mantine-spacing-lg)',
      }}
    >
      <Entry label="Anrede">{user.title}</Entry>
      <Entry label="Vorname">{user.firstname}</Entry>
      <Entry label="Nachname">{user.lastname}</Entry>
      <Entry label="E-Mail">
        <EmailText email={user.email} />
      </Entry>
      <Entry label="Rollen">
        <EffectiveRoles roles={user.effective_roles} />
      </Entry>
      <Entry label="Status">
        {user.status === 'eingeladen' ? 'Eingeladen – Passwort noch nicht festgelegt' : 'Aktiv'}
      </Entry>
      <Entry label="Zwei-Faktor-Anmeldung">{user.two_factor ? 'Eingerichtet' : 'Nicht eingerichtet'}</Entry>
      <Entry label="Angelegt am">{formatDateTime(user.created_at)}</Entry>
    </Box>
  );
}
