import { Badge, Group, Stack, Text } from '@mantine/core';
import type { UserEffectiveRole } from '@gremienportal/contracts/users';

/** „direkt vergeben“, „über Gremium Aufsichtsrat“, or both joined by „und“. */
export function roleSourceLabel(role: Pick<UserEffectiveRole, 'sources' | 'committee'>): string {
  const parts: string[] = [];
  if (role.sources.includes('direct')) parts.push('direkt vergeben');
  if (role.sources.includes('committee')) {
    parts.push(role.committee ? `über Gremium ${role.committee.name}` : 'über ein Gremium');
  }
  return parts.join(' und ');
}

/**
 * Every role the user holds with where it comes from (decision 189), read-only: a role a committee
 * gives is changed through the membership, not on the user form.
 */
export function EffectiveRoles({ roles }: { roles: readonly UserEffectiveRole[] }) {
  if (roles.length === 0) return <Text span>Keine Rolle</Text>;
  return (
    <Stack component="ul" gap={6} m={0} p={0} style={{ listStyle: 'none' }}>
      {roles.map((role) => (
        <li key={role.id}>
          <Group gap={6} wrap="wrap" align="baseline">
            <Badge component="span">{role.name}</Badge>{' '}
            <Text span size="sm" c="dimmed">
              — {roleSourceLabel(role)}
            </Text>
          </Group>
        </li>
      ))}
    </Stack>
  );
}
