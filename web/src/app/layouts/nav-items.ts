export interface NavItem {
  label: string;
  to: string;
  /** Whether the current path belongs to this area (for aria-current). */
  matches: (pathname: string) => boolean;
  adminOnly?: boolean;
  /** Only for Super-Admins (API-Schlüssel); Admins do not see it either. */
  superAdminOnly?: boolean;
}

const startsWithAny =
  (...prefixes: string[]) =>
  (pathname: string) =>
    prefixes.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));

export const NAV_ITEMS: readonly NavItem[] = [
  {
    label: 'Dateien',
    to: '/files',
    matches: (pathname) => pathname === '/' || startsWithAny('/files', '/folders', '/old')(pathname),
  },
  { label: 'Events', to: '/events', matches: startsWithAny('/events') },
  { label: 'Gremien', to: '/gremien', matches: startsWithAny('/gremien') },
  { label: 'Beschlüsse', to: '/beschluesse', matches: startsWithAny('/beschluesse') },
  { label: 'Nutzerverwaltung', to: '/user', matches: startsWithAny('/user'), adminOnly: true },
  { label: 'Aktivitäten', to: '/audit', matches: startsWithAny('/audit'), adminOnly: true },
  { label: 'Papierkorb', to: '/trash', matches: startsWithAny('/trash'), adminOnly: true },
  { label: 'API-Schlüssel', to: '/api-keys', matches: startsWithAny('/api-keys'), superAdminOnly: true },
  { label: 'Accountverwaltung', to: '/account', matches: startsWithAny('/account') },
];

export const navItemsFor = (isAdmin: boolean, isSuperAdmin = false) =>
  NAV_ITEMS.filter((item) => (isAdmin || !item.adminOnly) && (isSuperAdmin || !item.superAdminOnly));
