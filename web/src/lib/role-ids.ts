import type { Role } from '@gremienportal/contracts/common';

/** Role names to the ids the selects hold. */
export const roleIdsOf = (names: readonly string[], roles: readonly Role[]) =>
  roles.filter((role) => names.includes(role.name)).map((role) => String(role.id));

/** The roles as options of a select, which holds their ids. */
export const roleOptionsOf = (roles: readonly Role[]) =>
  roles.map((role) => ({ value: String(role.id), label: role.name }));
