import type { UserDetail } from '@gremienportal/contracts/users';
import { CommitteeMemberships } from '../../../components/committee-memberships';
import { PageSection } from '../../../components/page-section';

export const USER_MEMBERSHIPS_TITLE = 'Gremien';
export const NO_USER_MEMBERSHIPS_MESSAGE = 'Keine Mitgliedschaft in einem Gremium.';

/** The user's committee memberships (decision 189), active ones first, ended ones marked. */
export function UserMembershipsSection({ user }: { user: UserDetail }) {
  return (
    <PageSection title={USER_MEMBERSHIPS_TITLE}>
      <CommitteeMemberships memberships={user.memberships} empty={NO_USER_MEMBERSHIPS_MESSAGE} />
    </PageSection>
  );
}
