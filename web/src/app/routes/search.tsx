import { PageTitle } from '../../components/page-title';
import { SearchOverview } from '../../features/search/components/search-overview';

/** /search: the portal's search for every signed-in member (decision 129); what it finds is only what they may see. */
export default function SearchPage() {
  return (
    <>
      <PageTitle>Suche</PageTitle>
      <SearchOverview />
    </>
  );
}
