import { describe, expect, it } from 'vitest';
import type { User } from '@gremienportal/contracts/users';
import { filterUsers, sortUsers } from './components/users-table';
import { canDeleteUser, canManageUser, roleIdsOf, roleOptions } from './users.permissions';

const user = (id: number, firstname: string, lastname: string, roles: string[] = ['Vertreter']): User => ({
  id,
  title: id % 2 ? 'Herr' : 'Frau',
  firstname,
  lastname,
  email: `${firstname}.${lastname}@example.org`.toLowerCase(),
  roles,
  roles_string: roles.join(', '),
  effective_roles: roles.map((name, index) => ({
    id: index + 1,
    name,
    sources: ['direct'],
    committee: null,
  })),
  status: 'aktiv',
  two_factor: false,
  created_at: '2026-11-21T10:00:00.000Z',
});

const USERS = [
  user(1, 'Zora', 'Öztürk'),
  user(2, 'Anna', 'Albrecht', ['Aufsichtsrat']),
  user(3, 'Bernd', 'albrecht'),
  user(4, 'Clara', 'Zander', ['Admin']),
];

describe('user table logic', () => {
  it('sorts German names by last name, then first name, case and umlauts ignored', () => {
    const sorted = sortUsers(USERS, { columnAccessor: 'lastname', direction: 'asc' });
    expect(sorted.map((u) => u.id)).toEqual([2, 3, 1, 4]);
    const desc = sortUsers(USERS, { columnAccessor: 'firstname', direction: 'desc' });
    expect(desc.map((u) => u.firstname)).toEqual(['Zora', 'Clara', 'Bernd', 'Anna']);
  });

  it('filters every column by case-insensitive text, all filters together', () => {
    const none = { title: '', firstname: '', lastname: '', email: '', roles_string: '' };
    expect(filterUsers(USERS, { ...none, lastname: 'ALB' }).map((u) => u.id)).toEqual([2, 3]);
    expect(
      filterUsers(USERS, { ...none, lastname: 'alb', roles_string: 'aufsicht' }).map((u) => u.id),
    ).toEqual([2]);
    expect(filterUsers(USERS, { ...none, email: 'zander@' }).map((u) => u.id)).toEqual([4]);
    expect(filterUsers(USERS, { ...none, title: 'frau' }).map((u) => u.id)).toEqual([2, 4]);
    expect(filterUsers(USERS, { ...none, firstname: 'nobody' })).toEqual([]);
    expect(filterUsers(USERS, none)).toHaveLength(4);
  });
});

describe('permissions (product.md P1.3)', () => {
  const superAdmin = { id: 10, roles: ['Super-Admin'] };
  const admin = { id: 11, roles: ['Admin'] };

  it('lets a plain Admin manage only users without admin roles, and nobody delete themselves', () => {
    expect(canManageUser(admin, { roles: ['Vertreter'] })).toBe(true);
    expect(canManageUser(admin, { roles: ['Admin'] })).toBe(false);
    expect(canManageUser(admin, { roles: ['Vertreter', 'Super-Admin'] })).toBe(false);
    expect(canManageUser(superAdmin, { roles: ['Super-Admin'] })).toBe(true);
    expect(canDeleteUser(superAdmin, { id: 10, roles: ['Super-Admin'] })).toBe(false);
    expect(canDeleteUser(superAdmin, { id: 12, roles: ['Super-Admin'] })).toBe(true);
    expect(canDeleteUser(admin, { id: 13, roles: ['Vertreter'] })).toBe(true);
  });

  it('disables the admin roles in the select for a plain Admin', () => {
    const roles = [
      { id: 1, name: 'Admin' },
      { id: 2, name: 'Super-Admin' },
      { id: 4, name: 'Vertreter' },
    ];
    expect(roleOptions(roles, ['Admin']).map((o) => o.disabled)).toEqual([true, true, false]);
    expect(roleOptions(roles, ['Super-Admin']).map((o) => o.disabled)).toEqual([false, false, false]);
    expect(roleIdsOf(['Vertreter', 'Admin'], roles)).toEqual(['1', '4']);
  });
});
