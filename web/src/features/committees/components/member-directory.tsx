import { Anchor, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconUserUp, IconPencil, IconTrash } from '@tabler/icons-react';
import { END_REASON_LABELS, type Membership, type Term } from '@gremienportal/contracts/committees';
import { EmailText } from '../../../components/email-text';
import {
  directoryGroups,
  functionLabel,
  memberName,
  periodText,
  type DirectoryGroup,
} from '../committees.rules';

export interface DirectoryActions {
  onEdit: (membership: Membership) => void;
  onDelete: (membership: Membership) => void;
  onConfirmSuccessor: (membership: Membership) => void;
}

interface MemberCardProps {
  membership: Membership;
  group: DirectoryGroup['key'];
  today: string;
  actions?: DirectoryActions;
}

function MemberCard({ membership, group, today, actions }: MemberCardProps) {
  const name = memberName(membership);
  // The group heading names the function already, except for the ranks and those who left.
  const role =
    group === 'left' || membership.function === 'ersatzmitglied' ? functionLabel(membership) : null;
  const successor = membership.proposed_successor;
  return (
    <Paper component="li" withBorder radius="md" p="md">
      <Stack gap={6}>
        <Title order={4} size="h5" style={{ overflowWrap: 'anywhere' }}>
          {name}
        </Title>
        {role ? <Text size="sm">{role}</Text> : null}
        <Text size="sm" c="dimmed">
          {periodText(membership, today)}
          {membership.reason ? ` (${END_REASON_LABELS[membership.reason]})` : null}
        </Text>
        {membership.district ? <Text size="sm">Wahlbezirk: {membership.district}</Text> : null}
        {membership.user.email ? (
          <Text size="sm">
            <Anchor href={`mailto:${membership.user.email}`} inherit>
              <EmailText email={membership.user.email} />
            </Anchor>
          </Text>
        ) : null}
        {successor ? (
          <Text size="sm" fw={600}>
            Zum Nachrücken vorgeschlagen: {successor.name}
          </Text>
        ) : null}
        {actions ? (
          <Group gap="xs" mt={4}>
            {successor ? (
              <Button
                size="compact-sm"
                leftSection={<IconUserUp size={16} aria-hidden />}
                onClick={() => actions.onConfirmSuccessor(membership)}
                aria-label={`Nachrücken bestätigen: ${successor.name} für ${name}`}
              >
                Nachrücken bestätigen
              </Button>
            ) : null}
            <Button
              size="compact-sm"
              variant="default"
              leftSection={<IconPencil size={16} aria-hidden />}
              onClick={() => actions.onEdit(membership)}
              aria-label={`Mitgliedschaft von ${name} bearbeiten`}
            >
              Bearbeiten
            </Button>
            <Button
              size="compact-sm"
              variant="outline"
              color="red.9"
              leftSection={<IconTrash size={16} aria-hidden />}
              onClick={() => actions.onDelete(membership)}
              aria-label={`Mitgliedschaft von ${name} löschen`}
            >
              Löschen
            </Button>
          </Group>
        ) : null}
      </Stack>
    </Paper>
  );
}

interface MemberDirectoryProps {
  memberships: readonly Membership[];
  term: Term;
  today: string;
  /** Admins, while the term may be changed. */
  actions?: DirectoryActions;
}

/** The members of one term, grouped by function (Vorsitz first), Ersatzmitglieder by rank. */
export function MemberDirectory({ memberships, term, today, actions }: MemberDirectoryProps) {
  const groups = directoryGroups(memberships, term, today);
  if (groups.length === 0) {
    return <Text c="dimmed">In dieser Amtsperiode gibt es noch keine Mitglieder.</Text>;
  }
  return (
    <Stack gap="lg">
      {groups.map((group) => {
        const headingId = `directory-${term.id}-${group.key}`;
        return (
          <Stack component="section" key={group.key} gap="xs" aria-labelledby={headingId}>
            <Title order={3} size="h4" id={headingId}>
              {group.heading}
            </Title>
            <SimpleGrid
              component="ul"
              cols={{ base: 1, sm: 2, lg: 3 }}
              spacing="sm"
              p={0}
              m={0}
              style={{ listStyle: 'none' }}
            >
              {group.members.map((membership) => (
                <MemberCard
                  key={membership.id}
                  membership={membership}
                  group={group.key}
                  today={today}
                  actions={actions}
                />
              ))}
            </SimpleGrid>
          </Stack>
        );
      })}
    </Stack>
  );
}
