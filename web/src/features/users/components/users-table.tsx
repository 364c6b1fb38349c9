import { Link } from 'react-router';
import { Anchor, Badge, Button, Group } from '@mantine/core';
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
import { EmailText } from '../../../components/email-text';

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

/** A phone card's buttons; the card itself opens the user's page. */
function CardActions({
  user,
  actor,
  onDelete,
  onResendInvitation,
}: Pick<UsersTableProps, 'actor' | 'onDelete' | 'onResendInvitation'> & { user: User }) {
  const name = fullName(user);
  const manage = canManageUser(actor, user);
  if (!manage && !canDeleteUser(actor, user)) return null;
  return (
    <>
      {manage ? (
        <Button
          variant="default"
          component={Link}
          to={`/user/update/${user.id}`}
          leftSection={<IconPencil size={18} aria-hidden />}
          aria-label={`${name} bearbeiten`}
        >
          Bearbeiten
        </Button>
      ) : null}
      {manage && user.status === 'eingeladen' ? (
        <Button
          variant="default"
          leftSection={<IconMailForward size={18} aria-hidden />}
          aria-label={`Einladung erneut senden an ${name}`}
          onClick={() => onResendInvitation(user)}
        >
          Einladung erneut senden
        </Button>
      ) : null}
      {canDeleteUser(actor, user) ? (
        <Button
          variant="outline"
          color="red.9"
          leftSection={<IconTrash size={18} aria-hidden />}
          aria-label={`${name} löschen`}
          onClick={() => onDelete(user)}
        >
          Löschen
        </Button>
      ) : null}
    </>
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
  const nameLink = (user: User, text: string) => (
    <Anchor component={Link} to={`/user/show/${user.id}`} size="sm">
      {text}
    </Anchor>
  );
  const invitedBadge = (user: User) =>
    user.status === 'eingeladen' ? (
      <Badge size="sm" variant="outline" color="gray.8">
        eingeladen
      </Badge>
    ) : null;

  // The phone card is headed by the full name; first and last name are not repeated in it.
  // Long names and addresses wrap (addresses after the "@" and before dots): the table fits the screen.
  const columns: SortableColumn<User>[] = [
    { accessor: 'title', title: 'Titel', sortable: true, noWrap: true },
    {
      accessor: 'firstname',
      title: 'Vorname',
      sortable: true,
      hiddenInCard: true,
      render: (user) => nameLink(user, user.firstname),
    },
    {
      accessor: 'lastname',
      title: 'Nachname',
      sortable: true,
      hiddenInCard: true,
      render: (user) => nameLink(user, user.lastname),
    },
    {
      accessor: 'email',
      title: 'E-Mail',
      sortable: true,
      render: (user) => (
        <>
          <EmailText email={user.email} anywhere={false} /> {invitedBadge(user)}
        </>
      ),
      renderInCard: (user) => (
        <>
          <EmailText email={user.email} /> {invitedBadge(user)}
        </>
      ),
    },
    { accessor: 'roles_string', title: 'Rollen', sortable: true },
    {
      accessor: 'actions',
      title: 'Aktionen',
      textAlign: 'right',
      hiddenInCard: true,
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
      countNoun={['Nutzer', 'Nutzern']}
      card={{
        title: fullName,
        href: (user) => `/user/show/${user.id}`,
        actions: (user) => (
          <CardActions
            user={user}
            actor={actor}
            onDelete={onDelete}
            onResendInvitation={onResendInvitation}
          />
        ),
      }}
    />
  );
}
