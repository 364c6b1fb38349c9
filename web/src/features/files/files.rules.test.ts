import { describe, expect, it } from 'vitest';
import { roleIdsOf } from '../../lib/role-ids';
import { defaultUploadRoleIds, notificationOptionsFor } from './files.rules';

const ROLES = [
  { id: 1, name: 'Admin' },
  { id: 2, name: 'Super-Admin' },
  { id: 3, name: 'Aufsichtsrat' },
  { id: 4, name: 'Vertreter' },
];

describe('default upload roles by path (product.md P4, product.md P6.2)', () => {
  it('preselects Aufsichtsrat anywhere under /Aufsichtsrat', () => {
    expect(defaultUploadRoleIds('/Aufsichtsrat', ['Aufsichtsrat'], ROLES)).toEqual(['3']);
    expect(defaultUploadRoleIds('/Aufsichtsrat/2026/März', ['Aufsichtsrat', 'Vertreter'], ROLES)).toEqual([
      '3',
    ]);
  });

  it('preselects Vertreter anywhere under /Mitgliedervertreter', () => {
    expect(defaultUploadRoleIds('/Mitgliedervertreter/Versammlung', ['Aufsichtsrat'], ROLES)).toEqual(['4']);
  });

  it("otherwise takes the folder's own roles", () => {
    expect(defaultUploadRoleIds('/Allgemein/Satzung', ['Aufsichtsrat', 'Vertreter'], ROLES)).toEqual([
      '3',
      '4',
    ]);
    expect(defaultUploadRoleIds('/Aufsichtsrat-Archiv', ['Vertreter'], ROLES)).toEqual(['4']);
  });

  it('leaves out role names the server does not know', () => {
    expect(defaultUploadRoleIds('/Projekte', ['Vertreter', 'Gast'], ROLES)).toEqual(['4']);
  });
});

describe('notification options', () => {
  it('offers only the chosen roles', () => {
    expect(notificationOptionsFor(['4'], ROLES)).toEqual([{ value: '4', label: 'Vertreter' }]);
    expect(notificationOptionsFor([], ROLES)).toEqual([]);
  });

  it('maps role names to the ids the selects hold', () => {
    expect(roleIdsOf(['Vertreter', 'Aufsichtsrat'], ROLES)).toEqual(['3', '4']);
  });
});
