import { FILE_MESSAGES } from '@gremienportal/contracts/file-messages';
import { DismissibleError } from '../../components/dismissible-error';

/** product.md P12: "Fehler beim Löschen einer Datei" (file and folder pages), with the server's reason. */
export function DeleteErrorBanner(props: { error: string | null; onClose: () => void }) {
  return <DismissibleError title={FILE_MESSAGES.deleteFailedPage} {...props} />;
}
