import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { canSeeFile, fileFilter } from '../../policies/files.policy.ts';
import type { FolderNode, FolderTree } from '../../policies/folders.policy.ts';
import type { FileRecord } from '../../db/document-records.ts';
import { findFile } from './files.repository.ts';

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * The guard for documents ("find it, check it, or 404"): the file the viewer of `tree` may see,
 * found by id or download key. Hidden and missing are the same 404 after the same work: the query
 * that finds the file checks its roles and its folder against the viewer's tree, so a file hidden
 * by a folder above it returns no row either (decision 150); `canSeeFile` is the second check.
 * In a transaction, `tree` is built from the folders read (and locked) there.
 */
export async function visibleFile(
  executor: Executor,
  tree: FolderTree<FolderNode>,
  by: { id: number } | { downloadKey: string },
): Promise<FileRecord> {
  const file = await findFile(executor, by, fileFilter(tree));
  if (!file || !canSeeFile(tree, file)) throw notFound();
  return file;
}
