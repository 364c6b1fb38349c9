import type { AppContext } from '../../context.ts';
import type { foldersService } from '../folders/folders.service.ts';
import { committeesService } from './committees.service.ts';
import { membershipsService, membershipWrites } from './memberships.service.ts';
import { membersImportService } from './members-import.service.ts';
import { termsService } from './terms.service.ts';

/** The committees feature's services, wired once: terms and members ask the committees for visibility. */
export function committeesFeature(ctx: AppContext, folders: ReturnType<typeof foldersService>) {
  const committees = committeesService(ctx, folders);
  return {
    committees,
    terms: termsService(ctx, folders, committees.visibleCommittee),
    memberships: membershipsService(ctx, committees.visibleCommittee),
    imports: membersImportService(ctx, membershipWrites(ctx)),
  };
}
export type CommitteesFeature = ReturnType<typeof committeesFeature>;
