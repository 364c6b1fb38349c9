import { EVENT_MESSAGES } from '@gremienportal/contracts/events';
import { DismissibleError } from '../../../components/dismissible-error';

/** product.md P12: "Fehler beim Löschen eines Events", with the server's reason when there is one. */
export function DeleteErrorBanner(props: { error: string | null; onClose: () => void }) {
  return <DismissibleError title={EVENT_MESSAGES.deleteFailed} {...props} />;
}
