import type { AppContext } from '../../context.ts';
import type { Principal } from '../../policies/principal.ts';
import type { FileRecord } from '../../db/document-records.ts';
import type { MemberFileFields, MemberNews } from '../explorer/explorer.service.ts';
import { confirmationsOf } from './acknowledgements.repository.ts';

/**
 * Whether the member's confirmation answers the document's current request: one given before a
 * replacement that asked again does not.
 */
export function currentConfirmation(
  file: Pick<FileRecord, 'acknowledgement_required' | 'acknowledgement_since'>,
  confirmedAt: string | undefined,
): string | null {
  if (file.acknowledgement_required !== 1 || confirmedAt === undefined) return null;
  return file.acknowledgement_since && confirmedAt < file.acknowledgement_since ? null : confirmedAt;
}

/** The member's fields of these documents: "neu" and their confirmation (two lookups for all). */
export async function memberFieldsOf(
  ctx: Pick<AppContext, 'db'>,
  news: MemberNews,
  principal: Principal,
  files: readonly FileRecord[],
): Promise<Map<number, MemberFileFields>> {
  const required = files.filter((file) => file.acknowledgement_required === 1).map((file) => file.id);
  const confirmations = await confirmationsOf(ctx.db.kysely, principal.id, required);
  return new Map(
    files.map((file) => [
      file.id,
      {
        new: news.newIds.has(file.id),
        acknowledgedAt: currentConfirmation(file, confirmations.get(file.id)),
      },
    ]),
  );
}
