import type { TreeNode } from '@gremienportal/contracts/files';

/**
 * A folder of the tree as the explorer keeps it. `GET /tree` lists every visible document of
 * every folder as well, megabytes of JSON on a large portal; the explorer shows the documents of
 * one folder from its own listing and needs only how many each folder holds (decision 114).
 */
export interface FolderNode {
  id: number;
  title: string;
  breadcrumb: string;
  roles: string[];
  children: FolderNode[];
  /** Visible documents directly in this folder. */
  fileCount: number;
  /** Documents below this folder (recursively) that are new for the signed-in member. */
  new_count: number;
  /** Read-only: an ended Amtsperiode's folder or below it (decision 189). */
  archived: boolean;
}

/** The folders of a `GET /tree` answer, without the documents. Type imports only: the worker uses it. */
export function toFolderTree(node: TreeNode): FolderNode {
  return {
    id: node.id,
    title: node.title,
    breadcrumb: node.breadcrumb,
    roles: node.roles,
    children: node.children.map(toFolderTree),
    fileCount: node.files.length,
    new_count: node.new_count,
    archived: node.archived === true,
  };
}
