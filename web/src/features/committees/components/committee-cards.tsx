import { Link } from 'react-router';
import { Anchor, Badge, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { COMMITTEE_KIND_LABELS, memberCountLabel, type Committee } from '@gremienportal/contracts/committees';

export const NO_COMMITTEE_MESSAGE = 'Sie gehören zurzeit keinem Gremium an.';
export const NO_COMMITTEE_ADMIN_MESSAGE =
  'Es gibt noch kein Gremium. Legen Sie mit „Gremium anlegen“ das erste an.';

/** One card per committee: name (the way to its page), Art, current term and member count. */
export function CommitteeCards({
  committees,
  isAdmin,
}: {
  committees: readonly Committee[];
  isAdmin: boolean;
}) {
  if (committees.length === 0) {
    return <Text c="dimmed">{isAdmin ? NO_COMMITTEE_ADMIN_MESSAGE : NO_COMMITTEE_MESSAGE}</Text>;
  }
  return (
    <SimpleGrid
      component="ul"
      cols={{ base: 1, sm: 2, lg: 3 }}
      spacing="md"
      p={0}
      m={0}
      style={{ listStyle: 'none' }}
      aria-label="Gremien"
    >
      {committees.map((committee) => (
        <Paper component="li" key={committee.id} withBorder radius="lg" p="md">
          <Stack gap="xs">
            <Title order={2} size="h4" style={{ overflowWrap: 'anywhere' }}>
              <Anchor component={Link} to={`/gremien/${committee.id}`} inherit>
                {committee.name}
              </Anchor>
            </Title>
            <Group gap="xs">
              <Badge>{COMMITTEE_KIND_LABELS[committee.kind]}</Badge>
            </Group>
            <Text size="sm">
              {committee.current_term ? committee.current_term.title : 'Keine laufende Amtsperiode'}
            </Text>
            <Text size="sm" c="dimmed">
              {memberCountLabel(committee.member_count)}
            </Text>
          </Stack>
        </Paper>
      ))}
    </SimpleGrid>
  );
}
