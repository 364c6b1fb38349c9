import { EmailText } from '../../../components/email-text';
import { useState } from 'react';
import { Stack, Text } from '@mantine/core';
import { DataTable, type DataTableColumn } from 'mantine-datatable';
import { useQuery } from '@tanstack/react-query';
import { AUDIT_MESSAGES, type VisibleToType, type VisibleUser } from '@gremienportal/contracts/audit';
import {
  dataTableDefaults,
  DEFAULT_PAGE_SIZE,
  paginationDefaults,
} from '../../../components/data-table-defaults';
import { ErrorState } from '../../../components/error-state';
import { LoadingState } from '../../../components/loading-state';
import { RoleBadges } from '../../../components/role-badges';
import { PageSection } from '../../../components/page-section';
import { forCount, plural } from '../../../lib/plural';
import { visibleToQueryOptions } from '../audit.api';

export const NOBODY_MESSAGE = 'Niemand außer der Geschäftsstelle';

const TYPE_TEXT: Record<VisibleToType, string> = {
  file: 'dieses Dokument',
  folder: 'diesen Ordner',
  event: 'dieses Event',
};

const persons = (count: number) => plural(count, 'Person', 'Personen');

const columns: DataTableColumn<VisibleUser>[] = [
  {
    accessor: 'lastname',
    title: 'Person',
    render: (user) => (
      <Stack gap={0}>
        <Text size="sm">
          {user.firstname} {user.lastname}
        </Text>
        <Text size="sm" c="dimmed">
          <EmailText email={user.email} />
        </Text>
      </Stack>
    ),
  },
  {
    accessor: 'roles',
    title: 'Rollen',
    render: (user) => <RoleBadges roles={user.roles} />,
  },
];

interface VisibleToListProps {
  type: VisibleToType;
  id: number;
  /** Heading level inside the embedding page. @default 2 */
  headingOrder?: 2 | 3 | 4;
}

/**
 * "Sichtbar für": the accounts that can see this file, folder or event now, derived from the
 * roles (admins only). Admins and Super-Admins always see everything.
 */
export function VisibleToList({ type, id, headingOrder = 2 }: VisibleToListProps) {
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState(DEFAULT_PAGE_SIZE);
  const readers = useQuery(visibleToQueryOptions(type, id));
  const headingId = `sichtbar-fuer-${type}-${id}`;

  const members = readers.data?.filter((user) => user.reason === 'roles') ?? [];
  const admins = (readers.data?.length ?? 0) - members.length;
  const lastPage = Math.max(1, Math.ceil(members.length / perPage));
  const currentPage = Math.min(page, lastPage);

  return (
    <PageSection id={headingId} title="Sichtbar für" order={headingOrder} gap="sm" framed={false}>
      {readers.isPending ? (
        <LoadingState />
      ) : readers.isError ? (
        <ErrorState
          message={AUDIT_MESSAGES.loadFailed}
          detail={readers.error.message}
          onRetry={() => void readers.refetch()}
        />
      ) : (
        <>
          <Text size="sm">
            {members.length === 0
              ? `${NOBODY_MESSAGE}: Nur Admins und Super-Admins (${persons(admins)}) sehen ${TYPE_TEXT[type]}.`
              : `${persons(members.length)} aus den Gremien ${forCount(members.length, 'sieht', 'sehen')} ${TYPE_TEXT[type]}, dazu ${persons(admins)} mit der Rolle Admin oder Super-Admin.`}
          </Text>
          {members.length > 0 ? (
            <DataTable<VisibleUser>
              {...dataTableDefaults}
              {...paginationDefaults}
              aria-labelledby={headingId}
              records={members.slice((currentPage - 1) * perPage, currentPage * perPage)}
              columns={columns}
              idAccessor="id"
              fetching={readers.isFetching}
              noRecordsText={NOBODY_MESSAGE}
              totalRecords={members.length}
              page={currentPage}
              onPageChange={setPage}
              recordsPerPage={perPage}
              onRecordsPerPageChange={(size: number) => {
                setPerPage(size);
                setPage(1);
              }}
            />
          ) : null}
        </>
      )}
    </PageSection>
  );
}
