import { Badge, Group, Stack, Text } from '@mantine/core';
import { germanDate, MEMBER_FUNCTION_LABELS, type OwnMembership } from '@gremienportal/contracts/committees';
import { TIME_ZONE } from '../lib/format';

/** Today in Europe/Berlin as `YYYY-MM-DD`, the day the server's `active` is about. */
const berlinToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE }).format(new Date());

/** „Mitglied“, „Ersatzmitglied (Rang 1)“. */
export function functionLabel(membership: Pick<OwnMembership, 'function' | 'rank'>): string {
  const label = MEMBER_FUNCTION_LABELS[membership.function];
  return membership.function === 'ersatzmitglied' && membership.rank !== null
    ? `${label} (Rang ${membership.rank})`
    : label;
}

/** „seit 01.07.2026, bis 30.06.2030“; one that has not begun „ab …“, one that ended „vom … bis …“. */
export function periodLabel(
  membership: Pick<OwnMembership, 'from' | 'until' | 'active'>,
  today = berlinToday(),
) {
  const from = germanDate(membership.from);
  const until = germanDate(membership.until);
  if (membership.active) return `seit ${from}, bis ${until}`;
  return membership.from > today ? `ab ${from}, bis ${until}` : `vom ${from} bis ${until}`;
}

/**
 * A person's committee memberships (decision 189), as the account page and the admins' user pages
 * show them: committee, Funktion, Amtsperiode and dates; ended ones are marked „beendet“. The list
 * comes sorted from the server (active ones first).
 */
export function CommitteeMemberships({
  memberships,
  empty,
}: {
  memberships: readonly OwnMembership[];
  /** Said when there are none. */
  empty: string;
}) {
  if (memberships.length === 0) {
    return (
      <Text c="dimmed" size="sm">
        {empty}
      </Text>
    );
  }
  const today = berlinToday();
  return (
    <Stack component="ul" gap="sm" m={0} p={0} style={{ listStyle: 'none' }}>
      {memberships.map((membership) => {
        const ended = !membership.active && membership.from <= today;
        return (
          <li key={membership.id}>
            <Group gap="xs" wrap="wrap" align="baseline">
              <Text fw={600} c={ended ? 'dimmed' : undefined} style={{ overflowWrap: 'anywhere' }}>
                {membership.committee.name}
              </Text>
              {ended ? (
                <Badge color="gray" variant="light" component="span">
                  beendet
                </Badge>
              ) : null}
            </Group>
            <Text size="sm">
              {functionLabel(membership)} · {membership.term_title}
            </Text>
            <Text size="sm" c="dimmed">
              {periodLabel(membership, today)}
            </Text>
          </li>
        );
      })}
    </Stack>
  );
}
