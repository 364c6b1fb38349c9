import { PageTitle } from '../../components/page-title';
import { TrashOverview } from '../../features/trash/components/trash-overview';
import { TRASH_MESSAGES } from '@gremienportal/contracts/trash';

/** /trash: the Papierkorb for Admins and Super-Admins (the router guards the route). */
export default function TrashPage() {
  return (
    <>
      <PageTitle>{TRASH_MESSAGES.title}</PageTitle>
      <TrashOverview />
    </>
  );
}
