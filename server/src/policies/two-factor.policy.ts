/**
 * TWO_FACTOR_REQUIRED_ROLES (decision 126): a member holding one of these roles must use a second
 * factor. The roles are read on every request, so granting such a role applies at the next one.
 */
export const requiresSecondFactor = (
  config: { TWO_FACTOR_REQUIRED_ROLES: readonly string[] },
  roles: readonly string[],
): boolean => roles.some((role) => config.TWO_FACTOR_REQUIRED_ROLES.includes(role));
