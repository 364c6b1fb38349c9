import { PageTitle } from '../../components/page-title';
import { AuditOverview } from '../../features/audit/components/audit-overview';

/** /audit: the audit trail for Admins and Super-Admins (the router guards the route). */
export default function AuditPage() {
  return (
    <>
      <PageTitle>Aktivitäten</PageTitle>
      <AuditOverview />
    </>
  );
}
