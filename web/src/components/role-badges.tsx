import { Badge, Group } from '@mantine/core';

/**
 * Role names as pills, the same everywhere (issue 16): the theme's Badge (14 px, normal case,
 * wrapping instead of cut off), one colour, next to each other and onto the next line when the
 * space runs out.
 */
export function RoleBadges({ roles, empty = 'keine Rolle' }: { roles: readonly string[]; empty?: string }) {
  if (roles.length === 0) return <>{empty}</>;
  return (
    <Group gap={6} component="span" wrap="wrap">
      {roles.map((role) => (
        <Badge key={role} component="span">
          {role}
        </Badge>
      ))}
    </Group>
  );
}
