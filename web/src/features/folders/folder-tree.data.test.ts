import { describe, expect, it } from 'vitest';
import type { StoredFile, TreeNode } from '@gremienportal/contracts/files';
import { toFolderTree } from './folder-tree.data';

const file = (id: number) => ({ id, title: `Dokument ${id}` }) as StoredFile;

describe('toFolderTree', () => {
  it('keeps every folder, its archive flag and only the number of documents of each', () => {
    const tree: TreeNode = {
      id: 1,
      title: '/',
      breadcrumb: '/',
      roles: [],
      new_count: 0,
      archived: false,
      files: [],
      children: [
        {
          id: 3,
          title: 'Mitgliedervertreter',
          breadcrumb: '/Mitgliedervertreter',
          roles: ['Vertreter'],
          new_count: 0,
          archived: false,
          files: [file(10), file(11)],
          children: [
            {
              id: 7,
              title: 'Satzung',
              breadcrumb: '/Mitgliedervertreter/Satzung',
              roles: ['Vertreter'],
              new_count: 0,
              archived: true,
              files: [file(12)],
              children: [],
            },
          ],
        },
      ],
    };

    expect(toFolderTree(tree)).toEqual({
      id: 1,
      title: '/',
      breadcrumb: '/',
      roles: [],
      new_count: 0,
      archived: false,
      fileCount: 0,
      children: [
        {
          id: 3,
          title: 'Mitgliedervertreter',
          breadcrumb: '/Mitgliedervertreter',
          roles: ['Vertreter'],
          new_count: 0,
          archived: false,
          fileCount: 2,
          children: [
            {
              id: 7,
              title: 'Satzung',
              breadcrumb: '/Mitgliedervertreter/Satzung',
              roles: ['Vertreter'],
              new_count: 0,
              archived: true,
              fileCount: 1,
              children: [],
            },
          ],
        },
      ],
    });
  });
});
