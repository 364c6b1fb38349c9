import { PasswordLinkPage } from './reset-password';

/**
 * The invitation's page (`/willkommen?id=…&token=…`, decision 176): the new member sets a first
 * password and is signed in at once; resets keep the page the specification names.
 */
export default function InvitationPage() {
  return (
    <PasswordLinkPage
      title="Willkommen im Gremienportal – Passwort festlegen"
      documentTitle="Willkommen"
      purpose="invitation"
    />
  );
}
