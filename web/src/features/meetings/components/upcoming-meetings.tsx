import { useId, useMemo } from 'react';
import { Link } from 'react-router';
import { Anchor, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { PortalEvent } from '@gremienportal/contracts/events';
import {
  ATTENDANCE_LABELS,
  MEETING_MESSAGES,
  type AttendanceStatus,
} from '@gremienportal/contracts/meetings';
import { errorMessage } from '../../../lib/api-client';
import { TIME_ZONE } from '../../../lib/format';
import { useSaveAttendance } from '../attendance.api';
import { ATTENDANCE_COLORS, AttendanceBadge } from './attendance-badge';
import { PageSection } from '../../../components/page-section';

/** How many meetings the section lists at most. */
export const UPCOMING_LIMIT = 5;

/**
 * The next meetings by start: those not over yet (one running now still counts), earliest first,
 * at most `limit`.
 */
export function upcomingEvents(
  events: readonly PortalEvent[],
  now = Date.now(),
  limit = UPCOMING_LIMIT,
): PortalEvent[] {
  return events
    .filter((event) => new Date(event.end).getTime() > now)
    .sort((a, b) => a.start.localeCompare(b.start) || a.id - b.id)
    .slice(0, limit);
}

let whenFormat: Intl.DateTimeFormat | undefined;
/** "Mi., 26.11.2026, 18:00": with the weekday, which a date alone does not tell at a glance. */
const formatWhen = (iso: string) =>
  (whenFormat ??= new Intl.DateTimeFormat('de-DE', {
    timeZone: TIME_ZONE,
    weekday: 'short',
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  })).format(new Date(iso));

const QUICK_ANSWERS: readonly AttendanceStatus[] = ['zugesagt', 'abgesagt'];

function UpcomingMeeting({ event }: { event: PortalEvent }) {
  const save = useSaveAttendance(event.id);
  const current = event.my_attendance?.status ?? null;

  const answer = (status: AttendanceStatus) =>
    save.mutate(
      // The comment stays as the member wrote it on the event page.
      { status, comment: event.my_attendance?.comment ?? '' },
      {
        onSuccess: () => notifications.show({ color: 'green', message: MEETING_MESSAGES.attendanceSaved }),
        onError: (error) =>
          notifications.show({
            color: 'red',
            message: errorMessage(error, 'Die Antwort konnte nicht gespeichert werden.'),
          }),
      },
    );

  return (
    <Paper component="li" withBorder radius="md" px="md" py="sm">
      <Group justify="space-between" gap="sm" align="center">
        <Stack gap={2} style={{ minWidth: 0, flex: '1 1 16rem' }}>
          <Text size="sm" c="dimmed">
            <time dateTime={event.start}>{formatWhen(event.start)} Uhr</time>
          </Text>
          <Anchor
            component={Link}
            to={`/events/show/${event.id}`}
            fw={600}
            style={{ overflowWrap: 'anywhere' }}
          >
            {event.title}
          </Anchor>
        </Stack>
        <Group gap="xs" wrap="wrap">
          <Group gap={6} wrap="nowrap">
            <Text size="sm">Ihre Antwort:</Text>
            <AttendanceBadge status={current} />
          </Group>
          <Group gap={6} wrap="nowrap">
            {QUICK_ANSWERS.map((status) => (
              <Button
                key={status}
                size="compact-md"
                variant={current === status ? 'filled' : 'default'}
                color={ATTENDANCE_COLORS[status]}
                aria-pressed={current === status}
                aria-label={`${ATTENDANCE_LABELS[status]} für „${event.title}“`}
                loading={save.isPending && save.variables?.status === status}
                disabled={save.isPending}
                onClick={() => answer(status)}
              >
                {ATTENDANCE_LABELS[status]}
              </Button>
            ))}
          </Group>
        </Group>
      </Group>
    </Paper>
  );
}

/**
 * "Kommende Sitzungen" above the events table: the next meetings with the member's own answer and
 * a direct Zusage or Absage. Nothing when none is coming.
 */
export function UpcomingMeetings({ events }: { events: readonly PortalEvent[] }) {
  const headingId = useId();
  const upcoming = useMemo(() => upcomingEvents(events), [events]);
  if (upcoming.length === 0) return null;
  return (
    <PageSection id={headingId} title="Kommende Sitzungen" gap="sm" framed={false}>
      <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
        {upcoming.map((event) => (
          <UpcomingMeeting key={event.id} event={event} />
        ))}
      </Stack>
    </PageSection>
  );
}
