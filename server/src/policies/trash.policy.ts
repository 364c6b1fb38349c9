import type { Principal } from './principal.ts';

/**
 * The Papierkorb and old versions (decision 125): Admins and Super-Admins see, delete and restore
 * (the routes are `access: 'admin-hidden'`); only a Super-Admin removes anything for good.
 */
export const mayPurgeTrash = (principal: Pick<Principal, 'isSuperAdmin'>) => principal.isSuperAdmin;
