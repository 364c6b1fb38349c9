import { useState } from 'react';
import { DataTable, type DataTableColumn } from 'mantine-datatable';
import { useQuery } from '@tanstack/react-query';
import { AUDIT_MESSAGES, type AccessObjectType, type AuditEntry } from '@gremienportal/contracts/audit';
import {
  dataTableDefaults,
  DEFAULT_PAGE_SIZE,
  paginationDefaults,
} from '../../../components/data-table-defaults';
import { ErrorState } from '../../../components/error-state';
import { LoadingState } from '../../../components/loading-state';
import { PageSection } from '../../../components/page-section';
import { accessesQueryOptions } from '../audit.api';
import {
  actionColumn,
  addressColumn,
  entryCardColumn,
  onLargeScreens,
  personColumn,
  timeColumn,
} from './audit-table';

export const NO_ACCESSES_MESSAGE = 'Noch keine Zugriffe';

const columns: DataTableColumn<AuditEntry>[] = [
  entryCardColumn(false),
  ...[timeColumn, personColumn, actionColumn, addressColumn].map(onLargeScreens),
];

interface AccessListProps {
  /** `file` (views and downloads) or `event` (downloads of its information file). */
  type: AccessObjectType;
  id: number;
  /** Heading level inside the embedding page. @default 2 */
  headingOrder?: 2 | 3 | 4;
}

/** "Zugriffe": who opened or downloaded this file or event file, newest first (admins only). */
export function AccessList({ type, id, headingOrder = 2 }: AccessListProps) {
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState(DEFAULT_PAGE_SIZE);
  const accesses = useQuery(accessesQueryOptions(type, id, { page, perPage }));
  const headingId = `zugriffe-${type}-${id}`;

  return (
    <PageSection id={headingId} title="Zugriffe" order={headingOrder} gap="sm" framed={false}>
      {accesses.isPending ? (
        <LoadingState />
      ) : accesses.isError ? (
        <ErrorState
          message={AUDIT_MESSAGES.loadFailed}
          detail={accesses.error.message}
          onRetry={() => void accesses.refetch()}
        />
      ) : (
        <DataTable<AuditEntry>
          {...dataTableDefaults}
          {...paginationDefaults}
          aria-labelledby={headingId}
          records={accesses.data.data}
          columns={columns}
          idAccessor="id"
          fetching={accesses.isFetching}
          noRecordsText={NO_ACCESSES_MESSAGE}
          totalRecords={accesses.data.meta.total}
          page={page}
          onPageChange={setPage}
          recordsPerPage={perPage}
          onRecordsPerPageChange={(size: number) => {
            setPerPage(size);
            setPage(1);
          }}
        />
      )}
    </PageSection>
  );
}
