import type { Transaction } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { canSeeFile } from '../../policies/files.policy.ts';
import { treesByViewer } from '../../policies/folders.policy.ts';
import { viewerOfRoles } from '../../policies/principal.ts';
import type { FilesTree } from '../explorer/explorer.service.ts';
import { deliverNotifications } from '../notifications/notifications.service.ts';
import { usersWithAnyRole } from '../users/users.service.ts';
import { fileNotificationMail } from './files.mails.ts';
import { addNotices } from './upload-batches.repository.ts';

/**
 * "Benachrichtigung an" (product.md P7.3): every user who holds one of the chosen roles and may see
 * the file (its folder chain and the file itself share a role with them, or they are an admin) is
 * told, each as they chose (decision 131: one mail now, a digest row, or nothing). In the caller's
 * transaction. A document of a batch (decision 182) records the mail it owes to each member told at
 * once; the batch's completion sends one mail per member for all its documents.
 */
export async function queueNotifications(
  ctx: AppContext,
  trx: Transaction<Database>,
  tree: FilesTree,
  file: {
    id: number;
    title: string;
    format: string;
    size_bytes: number;
    folder_id: number;
    roleIds: number[];
  },
  notifyRoleIds: readonly number[],
  kind: 'created' | 'updated',
  batchId?: string,
): Promise<void> {
  if (notifyRoleIds.length === 0) return;
  const folder = tree.byId.get(file.folder_id)!;
  const treeOf = treesByViewer([...tree.byId.values()]);
  const fileRoles = file.roleIds.map((id) => ({ id }));
  const recipients = (await usersWithAnyRole(trx, notifyRoleIds)).filter((user) =>
    canSeeFile(treeOf(viewerOfRoles(user.roles)), { folder_id: file.folder_id, roles: fileRoles }),
  );
  await deliverNotifications(
    ctx,
    trx,
    { kind: 'file', objectId: file.id, action: kind },
    recipients,
    (user) =>
      fileNotificationMail(
        user,
        {
          id: file.id,
          title: file.title,
          format: file.format,
          sizeBytes: file.size_bytes,
          folder: folder.breadcrumb,
        },
        kind,
        ctx.config.PUBLIC_URL,
      ),
    batchId === undefined
      ? undefined
      : (members) =>
          addNotices(
            trx,
            members.map((member) => ({ batch_id: batchId, user_id: member.id, file_id: file.id })),
          ),
  );
}
