import type { Role } from '@gremienportal/contracts/common';

/** Role names to the ids the selects hold. */
export const roleIdsOf = (names: readonly string[], roles: readonly Role[]) =>
  roles.filter((role) => names.includes(role.name)).map((role) => String(role.id));
