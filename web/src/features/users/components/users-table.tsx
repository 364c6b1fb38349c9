import { Badge, Group, Text } from '@mantine/core';
import { IconEye, IconMailForward, IconPencil, IconTrash } from '@tabler/icons-react';
import type { User } from '@gremienportal/contracts/users';
import {
  compareText,
  SortableTable,
  type SortableColumn,
  type SortStatus,
} from '../../../components/sortable-table';
import { RowAction } from '../../../components/row-action';
import { filterRows, type FilterField } from '../../../components/table-filters';
import { canDeleteUser, canManageUser } from '../users.permissions';

export const NO_USERS_MESSAGE = 'Kein Nutzer vorhanden';
export const NO_MATCHING_USERS_MESSAGE = 'Keine Nutzer passt zu deinen Filtern!';

type FilterKey = 'title' | 'firstname' | 'lastname' | 'email' | 'roles_string';
type Filters = Record<FilterKey, string>;

const FILTER_FIELDS: FilterField<FilterKey>[] = [
  { key: 'title', label: 'Titel enthält' },
  { key: 'firstname', label: 'Vorname enthält' },
  { key: 'lastname', label: 'Nachname enthält' },
  { key: 'email', label: 'E-Mail enthält' },
  { key: 'roles_string', label: 'Rollen enthalten' },
];
const INITIAL_SORT: SortStatus<User> = { columnAccessor: 'lastname', direction: 'asc' };

const fullName = (user: Pick<User, 'firstname' | 'lastname'>) => `${user.firstname} ${user.lastname}`;

export const filterUsers = (users: readonly User[], filters: Filters) =>
  filterRows(users, filters, (user, key) => String(user[key] ?? ''));

export function sortUsers(users: readonly User[], sort: SortStatus<User>): User[] {
  const key = sort.columnAccessor as FilterKey;
  const sign = sort.direction === 'asc' ? 1 : -1;
  return [...users].sort(
    (a, b) =>
      sign * compareText(String(a[key] ?? ''), String(b[key] ?? '')) ||
      compareText(a.lastname, b.lastname) ||
      compareText(a.firstname, b.firstname) ||
      a.id - b.id,
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
  pinnedIds,
  onUnpin,
  fetching,
  onDelete,
  onResendInvitation,
}: UsersTableProps) {
  const columns: SortableColumn<User>[] = [
    // No wrapping: on narrow screens the table scrolls sideways instead of breaking addresses apart.
    { accessor: 'title', title: 'Titel', sortable: true, noWrap: true },
    { accessor: 'firstname', title: 'Vorname', sortable: true, noWrap: true },
    { accessor: 'lastname', title: 'Nachname', sortable: true, noWrap: true },
    {
      accessor: 'email',
      title: 'E-Mail',
      sortable: true,
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
    { accessor: 'roles_string', title: 'Rollen', sortable: true, noWrap: true },
    {
      accessor: 'actions',
      title: 'Aktionen',
      textAlign: 'right',
      render: (user) => {
        const name = fullName(user);
        const manage = canManageUser(actor, user);
        return (
          <Group gap={4} justify="flex-end" wrap="nowrap">
            <RowAction
              tooltip="Anzeigen"
              icon={IconEye}
              to={`/user/show/${user.id}`}
              label={`${name} anzeigen`}
            />
            {manage ? (
              <RowAction
                tooltip="Bearbeiten"
                icon={IconPencil}
                to={`/user/update/${user.id}`}
                label={`${name} bearbeiten`}
              />
            ) : null}
            {manage && user.status === 'eingeladen' ? (
              <RowAction
                tooltip="Einladung erneut senden"
                icon={IconMailForward}
                label={`Einladung erneut senden an ${name}`}
                onClick={() => onResendInvitation(user)}
              />
            ) : null}
            {canDeleteUser(actor, user) ? (
              <RowAction
                tooltip="Löschen"
                icon={IconTrash}
                color="red"
                label={`${name} löschen`}
                onClick={() => onDelete(user)}
              />
            ) : null}
          </Group>
        );
      },
    },
  ];

  return (
    <SortableTable
      aria-label="Übersicht Benutzerkonten"
      columns={columns}
      records={users}
      initialSort={INITIAL_SORT}
      sort={sortUsers}
      filterFields={FILTER_FIELDS}
      filtersLabel="Nutzer filtern"
      filter={filterUsers}
      emptyText={NO_USERS_MESSAGE}
      filteredEmptyText={NO_MATCHING_USERS_MESSAGE}
      fetching={fetching}
      pinnedIds={pinnedIds}
      onUnpin={onUnpin}
    />
  );
}
