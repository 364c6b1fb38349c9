import { useState } from 'react';
import { Alert, Button, Checkbox, Group, Stack } from '@mantine/core';
import { IconDeviceFloppy } from '@tabler/icons-react';
import {
  ACCOUNT_UPDATED_MESSAGE,
  EMAIL_VISIBLE_TO_COMMITTEES_HINT,
  EMAIL_VISIBLE_TO_COMMITTEES_LABEL,
  MY_COMMITTEES_TITLE,
  NO_COMMITTEES_MESSAGE,
} from '@gremienportal/contracts/account';
import { CommitteeMemberships } from '../../../components/committee-memberships';
import { PageSection } from '../../../components/page-section';
import { errorMessage } from '../../../lib/api-client';
import { useUpdateAccount, type Account } from '../account.api';

export const EMAIL_VISIBILITY_FAILED_MESSAGE = 'Die Einstellung konnte nicht gespeichert werden.';

/**
 * The e-mail visibility (decision 189), saved like the page's other settings: a choice, then
 * „Speichern“; what is chosen stays when saving fails, and a change clears the last message.
 */
function EmailVisibilityForm({ saved }: { saved: boolean }) {
  const [visible, setVisible] = useState(saved);
  const update = useUpdateAccount();
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);

  return (
    <form
      noValidate
      aria-label={EMAIL_VISIBLE_TO_COMMITTEES_LABEL}
      onSubmit={(event) => {
        event.preventDefault();
        setMessage(null);
        update.mutate(
          { email_visible_to_committees: visible },
          {
            onSuccess: () => setMessage({ ok: true, text: ACCOUNT_UPDATED_MESSAGE }),
            onError: (error) =>
              setMessage({ ok: false, text: errorMessage(error, EMAIL_VISIBILITY_FAILED_MESSAGE) }),
          },
        );
      }}
    >
      <Stack gap="md">
        <Checkbox
          label={EMAIL_VISIBLE_TO_COMMITTEES_LABEL}
          // The label element also holds the description; the name is the label alone.
          aria-label={EMAIL_VISIBLE_TO_COMMITTEES_LABEL}
          description={EMAIL_VISIBLE_TO_COMMITTEES_HINT}
          checked={visible}
          disabled={update.isPending}
          onChange={(event) => {
            setVisible(event.currentTarget.checked);
            setMessage(null);
          }}
        />
        {message ? (
          <Alert color={message.ok ? 'green' : 'red'} variant="light" role={message.ok ? 'status' : 'alert'}>
            {message.text}
          </Alert>
        ) : null}
        <Group>
          <Button
            type="submit"
            leftSection={<IconDeviceFloppy size={18} aria-hidden />}
            loading={update.isPending}
            disabled={visible === saved && !update.isError}
          >
            Speichern
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * „Meine Gremien“ on /account (decision 189): the member's committee memberships, which come with
 * the account (so the section appears whole, nothing loads inside it), and whether fellow members
 * may see the e-mail address.
 */
export function MyCommitteesSection({ account }: { account: Account }) {
  return (
    <PageSection title={MY_COMMITTEES_TITLE} framed={false}>
      <CommitteeMemberships memberships={account.memberships ?? []} empty={NO_COMMITTEES_MESSAGE} />
      <EmailVisibilityForm saved={account.email_visible_to_committees} />
    </PageSection>
  );
}
