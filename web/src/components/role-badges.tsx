import { Fragment } from 'react';
import { Badge, Group, VisuallyHidden } from '@mantine/core';

/**
 * Role names as pills, the same everywhere (decision 124): the theme's Badge (14 px, normal case,
 * wrapping instead of cut off), one colour, next to each other and onto the next line when the
 * space runs out.
 */
export function RoleBadges({ roles, empty = 'keine Rolle' }: { roles: readonly string[]; empty?: string }) {
  if (roles.length === 0) return <>{empty}</>;
  return (
    <Group gap={6} component="span" wrap="wrap">
      {roles.map((role, index) => (
        <Fragment key={role}>
          {/* Read out and copied as "Aufsichtsrat, Vertreter", not run together. */}
          {index > 0 ? <VisuallyHidden component="span">, </VisuallyHidden> : null}
          <Badge component="span">{role}</Badge>
        </Fragment>
      ))}
    </Group>
  );
}
