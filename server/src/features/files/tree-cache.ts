import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { TreeNode } from '@gremienportal/contracts/files';
import type { Viewer } from './files.access.ts';

const gzipAsync = promisify(gzip);

export interface SerialisedTree {
  /** `{ "data": tree }` as JSON text. */
  json: string;
  /** The same, gzip-compressed, made on first demand. */
  gzip(): Promise<Buffer>;
}

interface Entry {
  version: string;
  tree: Promise<SerialisedTree>;
}

function serialise(tree: TreeNode): SerialisedTree {
  const json = JSON.stringify({ data: tree });
  let compressed: Promise<Buffer> | undefined;
  return { json, gzip: () => (compressed ??= gzipAsync(json, { level: 6 })) };
}

/**
 * The serialised tree per kind of viewer (Admins, or one set of roles), valid while the
 * database's tree version stays the same. Everyone with the same roles sees the same tree, so a
 * portal with thousands of members keeps a handful of entries; any instance notices another
 * instance's change through the version (decision 111).
 */
export class TreeCache {
  private readonly entries = new Map<string, Entry>();

  async get(viewer: Viewer, version: string, build: () => Promise<TreeNode>): Promise<SerialisedTree> {
    const key = viewer.isAdmin ? 'admin' : [...viewer.roleIds].sort((a, b) => a - b).join(',');
    const cached = this.entries.get(key);
    if (cached?.version === version) return cached.tree;
    // Concurrent requests for the same version share one build.
    const entry: Entry = { version, tree: build().then(serialise) };
    this.entries.set(key, entry);
    try {
      return await entry.tree;
    } catch (error) {
      if (this.entries.get(key) === entry) this.entries.delete(key);
      throw error;
    }
  }
}

/** Whether an Accept-Encoding header takes gzip (listed, and not with `q=0`). */
export function acceptsGzip(header: string | undefined): boolean {
  return (header ?? '').split(',').some((part) => {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    return (
      (name === 'gzip' || name === 'x-gzip') &&
      !params.some((param) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(param))
    );
  });
}
