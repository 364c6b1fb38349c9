import { lazy, Suspense, useEffect } from 'react';
import { Paper, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ErrorState } from '../../components/error-state';
import { LoadingState } from '../../components/loading-state';
import { PageTitle } from '../../components/page-title';
import { accountQueryOptions } from '../../features/account/account.api';
import { AccountForm } from '../../features/account/components/account-form';
import { CalendarFeedSection } from '../../features/account/components/calendar-feed-section';
import { NotificationSettingsSection } from '../../features/account/components/notification-settings-section';
import { TwoFactorSection } from '../../features/two-factor/components/two-factor-section';
import { MyLogins } from '../../features/audit/components/my-logins';
import { useAuth } from '../../lib/auth';

// „Meine Gremien“ (decision 189) and the committees' labels stay out of the page's first load
// (decision 024): the chunk loads while the account does, and the sections below the form wait for
// both, so none of them moves when it arrives.
const loadMyCommittees = () => import('../../features/account/components/my-committees-section');
const MyCommitteesSection = lazy(() =>
  loadMyCommittees().then((module) => ({ default: module.MyCommitteesSection })),
);

/**
 * Own account: heading with the user's name, the form, the second factor, the own committees, the
 * notifications, the calendar feed, then the user's recent sign-ins.
 */
export default function AccountPage() {
  const { user } = useAuth();
  const account = useQuery(accountQueryOptions());
  useEffect(() => {
    void loadMyCommittees();
  }, []);
  const twoFactor = account.data?.two_factor;
  // Until a required second factor is set up the server refuses the sign-in list (decision 126): it
  // would only show an error, and stay in it after the set-up. Mounted afterwards, it loads anew.
  const setupPending = twoFactor ? twoFactor.required && !twoFactor.totp && twoFactor.webauthn === 0 : false;
  const name = account.data
    ? `${account.data.firstname} ${account.data.lastname}`
    : (user?.name ?? 'Accountverwaltung');

  return (
    <Stack gap="lg" maw={760}>
      <div>
        <PageTitle documentTitle="Accountverwaltung">{name}</PageTitle>
        {/* The line is there while the account loads, so the sections below do not move (decision 184). */}
        <Text c="dimmed" mt={-12}>
          {account.data?.roles_string ? `Rollen: ${account.data.roles_string}` : '\u00a0'}
        </Text>
      </div>
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
        {account.data ? (
          <AccountForm key={account.data.id} account={account.data} />
        ) : account.isError ? (
          <ErrorState detail={account.error.message} onRetry={() => void account.refetch()} />
        ) : (
          <LoadingState />
        )}
      </Paper>
      {/* The sections below wait for the account: appearing under the form moves nothing, while
          sections shown beside its loading state were pushed down by the form (decision 184). */}
      {account.data?.two_factor ? (
        <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
          <TwoFactorSection status={account.data.two_factor} />
        </Paper>
      ) : null}
      {/* Decisions 189, 131 and 130: the own committees (they come with the account), how often
          notification mails come, the personal calendar feed and the recent sign-ins; not during a
          required 2FA setup. */}
      {account.data && !setupPending ? (
        <Suspense fallback={null}>
          <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
            <MyCommitteesSection account={account.data} />
          </Paper>
          <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
            <NotificationSettingsSection />
          </Paper>
          <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
            <CalendarFeedSection />
          </Paper>
          <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
            <MyLogins />
          </Paper>
        </Suspense>
      ) : null}
    </Stack>
  );
}
