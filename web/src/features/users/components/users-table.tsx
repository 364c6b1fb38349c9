import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import {
  ActionIcon,
  Badge,
  Button,
  Group,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Tooltip,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  IconArrowDown,
  IconArrowUp,
  IconEye,
  IconFilter,
  IconFilterOff,
  IconMailForward,
  IconPencil,
  IconSelector,
  IconTrash,
} from '@tabler/icons-react';
import { DataTable, type DataTableColumn, type DataTableSortStatus } from 'mantine-datatable';
import type { User } from '@gremienportal/contracts/users';
import {
  DEFAULT_PAGE_SIZE,
  dataTableDefaults,
  paginationDefaults,
} from '../../../components/data-table-defaults';
import { canDeleteUser, canManageUser } from '../users.permissions';

export const NO_USERS_MESSAGE = 'Kein Nutzer vorhanden';
export const NO_MATCHING_USERS_MESSAGE = 'Keine Nutzer passt zu deinen Filtern!';

type FilterKey = 'title' | 'firstname' | 'lastname' | 'email' | 'roles_string';
type Filters = Record<FilterKey, string>;

const FILTER_FIELDS: { key: FilterKey; label: string }[] = [
  { key: 'title', label: 'Titel enthält' },
  { key: 'firstname', label: 'Vorname enthält' },
  { key: 'lastname', label: 'Nachname enthält' },
  { key: 'email', label: 'E-Mail enthält' },
  { key: 'roles_string', label: 'Rollen enthalten' },
];
const NO_FILTERS: Filters = { title: '', firstname: '', lastname: '', email: '', roles_string: '' };
const NO_PINS: readonly number[] = [];
const INITIAL_SORT: DataTableSortStatus<User> = { columnAccessor: 'lastname', direction: 'asc' };

const collator = new Intl.Collator('de', { sensitivity: 'base', numeric: true });
const fullName = (user: Pick<User, 'firstname' | 'lastname'>) => `${user.firstname} ${user.lastname}`;

export function filterUsers(users: readonly User[], filters: Filters): User[] {
  const active = (Object.entries(filters) as [FilterKey, string][])
    .map(([key, value]) => [key, value.trim().toLocaleLowerCase('de')] as const)
    .filter(([, value]) => value !== '');
  if (active.length === 0) return [...users];
  return users.filter((user) =>
    active.every(([key, value]) =>
      String(user[key] ?? '')
        .toLocaleLowerCase('de')
        .includes(value),
    ),
  );
}

export function sortUsers(users: readonly User[], sort: DataTableSortStatus<User>): User[] {
  const key = sort.columnAccessor as FilterKey;
  const sign = sort.direction === 'asc' ? 1 : -1;
  return [...users].sort(
    (a, b) =>
      sign * collator.compare(String(a[key] ?? ''), String(b[key] ?? '')) ||
      collator.compare(a.lastname, b.lastname) ||
      collator.compare(a.firstname, b.firstname) ||
      a.id - b.id,
  );
}

type SortStatus = DataTableSortStatus<User>;

/**
 * A sortable column title. The table's own sort header announces its state in English and turns
 * the header cell into a button; this one keeps the column header and speaks German.
 */
function SortableTitle({
  label,
  accessor,
  sortStatus,
  onSort,
}: {
  label: string;
  accessor: FilterKey;
  sortStatus: SortStatus;
  onSort: (accessor: FilterKey) => void;
}) {
  const direction = sortStatus.columnAccessor === accessor ? sortStatus.direction : undefined;
  const Icon = direction === 'asc' ? IconArrowUp : direction === 'desc' ? IconArrowDown : IconSelector;
  const state =
    direction === 'asc'
      ? 'aufsteigend sortiert'
      : direction === 'desc'
        ? 'absteigend sortiert'
        : 'nicht sortiert';
  return (
    <UnstyledButton onClick={() => onSort(accessor)} w="100%" fw="inherit" fz="inherit">
      <Group gap={6} wrap="nowrap" justify="space-between">
        <span>{label}</span>
        <Icon size={14} aria-hidden style={{ opacity: direction ? 1 : 0.45, flexShrink: 0 }} />
      </Group>
      <VisuallyHidden>({state})</VisuallyHidden>
    </UnstyledButton>
  );
}

interface UsersTableProps {
  users: readonly User[];
  /** The signed-in user: decides which row actions are offered. */
  actor: { id: number; roles: readonly string[] };
  /** Users created just now: shown first, whatever the sort, until the sort or a filter changes. */
  pinnedIds?: readonly number[];
  onUnpin?: () => void;
  fetching?: boolean;
  onDelete: (user: User) => void;
  onResendInvitation: (user: User) => void;
}

/** "Übersicht Benutzerkonten": filter, sort and page the users on the client. */
export function UsersTable({
  users,
  actor,
  pinnedIds = NO_PINS,
  onUnpin,
  fetching,
  onDelete,
  onResendInvitation,
}: UsersTableProps) {
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [sortStatus, setSortStatus] = useState<SortStatus>(INITIAL_SORT);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(DEFAULT_PAGE_SIZE);
  const activeFilters = Object.values(filters).filter((value) => value.trim() !== '').length;
  const filtered = activeFilters > 0;
  // On small screens the five filter fields fold away behind a button.
  const smallScreen = useMediaQuery('(max-width: 47.99em)');
  const [filtersOpen, setFiltersOpen] = useState(false);
  const showFilters = !smallScreen || filtersOpen || filtered;

  const rows = useMemo(() => {
    const pinned = pinnedIds
      .map((id) => users.find((user) => user.id === id))
      .filter((user): user is User => user !== undefined);
    const rest = users.filter((user) => !pinnedIds.includes(user.id));
    return [...pinned, ...sortUsers(filterUsers(rest, filters), sortStatus)];
  }, [users, pinnedIds, filters, sortStatus]);

  // A new user is shown on the first page; after a delete the page may have become empty.
  const pinnedKey = pinnedIds.join(',');
  useEffect(() => {
    if (pinnedKey !== '') setPage(1);
  }, [pinnedKey]);
  const lastPage = Math.max(1, Math.ceil(rows.length / pageSize));
  const currentPage = Math.min(page, lastPage);
  const pageRows = rows.slice((currentPage - 1) * pageSize, currentPage * pageSize);

  const handleSort = (accessor: FilterKey) => {
    setSortStatus((current) => ({
      columnAccessor: accessor,
      direction: current.columnAccessor === accessor && current.direction === 'asc' ? 'desc' : 'asc',
    }));
    setPage(1);
    onUnpin?.();
  };
  const sortableTitle = (label: string, accessor: FilterKey) => (
    <SortableTitle label={label} accessor={accessor} sortStatus={sortStatus} onSort={handleSort} />
  );

  const changeFilter = (key: FilterKey, value: string) => {
    setFilters((current) => ({ ...current, [key]: value }));
    setPage(1);
    onUnpin?.();
  };

  const columns: DataTableColumn<User>[] = [
    // No wrapping: on narrow screens the table scrolls sideways instead of breaking addresses apart.
    { accessor: 'title', title: sortableTitle('Titel', 'title'), noWrap: true },
    { accessor: 'firstname', title: sortableTitle('Vorname', 'firstname'), noWrap: true },
    { accessor: 'lastname', title: sortableTitle('Nachname', 'lastname'), noWrap: true },
    {
      accessor: 'email',
      title: sortableTitle('E-Mail', 'email'),
      noWrap: true,
      render: (user) => (
        <Group gap={6} wrap="nowrap">
          <Text size="sm">{user.email}</Text>
          {user.status === 'eingeladen' ? (
            <Badge size="sm" variant="outline" color="gray.8">
              eingeladen
            </Badge>
          ) : null}
        </Group>
      ),
    },
    { accessor: 'roles_string', title: sortableTitle('Rollen', 'roles_string'), noWrap: true },
    {
      accessor: 'actions',
      title: 'Aktionen',
      textAlign: 'right',
      render: (user) => {
        const name = fullName(user);
        const manage = canManageUser(actor, user);
        return (
          <Group gap={4} justify="flex-end" wrap="nowrap">
            <Tooltip label="Anzeigen">
              <ActionIcon
                component={Link}
                to={`/user/show/${user.id}`}
                variant="subtle"
                aria-label={`${name} anzeigen`}
              >
                <IconEye size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
            {manage ? (
              <Tooltip label="Bearbeiten">
                <ActionIcon
                  component={Link}
                  to={`/user/update/${user.id}`}
                  variant="subtle"
                  aria-label={`${name} bearbeiten`}
                >
                  <IconPencil size={18} aria-hidden />
                </ActionIcon>
              </Tooltip>
            ) : null}
            {manage && user.status === 'eingeladen' ? (
              <Tooltip label="Einladung erneut senden">
                <ActionIcon
                  variant="subtle"
                  aria-label={`Einladung erneut senden an ${name}`}
                  onClick={() => onResendInvitation(user)}
                >
                  <IconMailForward size={18} aria-hidden />
                </ActionIcon>
              </Tooltip>
            ) : null}
            {canDeleteUser(actor, user) ? (
              <Tooltip label="Löschen">
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={`${name} löschen`}
                  onClick={() => onDelete(user)}
                >
                  <IconTrash size={18} aria-hidden />
                </ActionIcon>
              </Tooltip>
            ) : null}
          </Group>
        );
      },
    },
  ];

  return (
    <Stack gap="sm">
      {smallScreen ? (
        <Button
          variant="default"
          size="xs"
          leftSection={<IconFilter size={16} aria-hidden />}
          aria-expanded={showFilters}
          aria-controls="users-filters"
          onClick={() => setFiltersOpen((open) => !open)}
          style={{ alignSelf: 'flex-start' }}
        >
          {showFilters ? 'Filter ausblenden' : 'Filter anzeigen'}
          {filtered ? ` (${activeFilters} aktiv)` : ''}
        </Button>
      ) : null}
      {showFilters ? (
        <SimpleGrid
          id="users-filters"
          cols={{ base: 1, xs: 2, md: 5 }}
          spacing="sm"
          role="search"
          aria-label="Nutzer filtern"
        >
          {FILTER_FIELDS.map(({ key, label }) => (
            <TextInput
              key={key}
              size="xs"
              label={label}
              value={filters[key]}
              onChange={(event) => changeFilter(key, event.currentTarget.value)}
            />
          ))}
        </SimpleGrid>
      ) : null}
      {filtered ? (
        <Group justify="flex-end">
          <Button
            size="xs"
            variant="subtle"
            leftSection={<IconFilterOff size={16} aria-hidden />}
            onClick={() => {
              setFilters(NO_FILTERS);
              setPage(1);
            }}
          >
            Filter zurücksetzen
          </Button>
        </Group>
      ) : null}
      <DataTable<User>
        {...dataTableDefaults}
        {...paginationDefaults}
        aria-label="Übersicht Benutzerkonten"
        columns={columns}
        records={pageRows}
        fetching={fetching}
        totalRecords={rows.length}
        recordsPerPage={pageSize}
        onRecordsPerPageChange={(size: number) => {
          setPageSize(size);
          setPage(1);
        }}
        page={currentPage}
        onPageChange={setPage}
        noRecordsText={users.length > 0 && filtered ? NO_MATCHING_USERS_MESSAGE : NO_USERS_MESSAGE}
        rowStyle={(user) =>
          pinnedIds.includes(user.id) ? { backgroundColor: 'var(--mantine-color-brand-0)' } : undefined
        }
      />
    </Stack>
  );
}
