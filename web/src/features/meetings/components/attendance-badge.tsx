import { Badge } from '@mantine/core';
import { ATTENDANCE_LABELS, type AttendanceStatus } from '@gremienportal/contracts/meetings';

/**
 * One colour per answer for the pressed button: shade 9 red and shade 7 gray keep white text
 * above 4.5:1, as the brand green does; yellow would not.
 */
export const ATTENDANCE_COLORS: Record<AttendanceStatus, string> = {
  zugesagt: 'brand',
  abgesagt: 'red.9',
  vielleicht: 'gray.7',
};

/** The badges' light variant takes the colour names (with a fixed shade it would fill the badge). */
const BADGE_COLORS: Record<AttendanceStatus, string> = {
  zugesagt: 'brand',
  abgesagt: 'red',
  vielleicht: 'gray',
};

/** "Zusage speichern?" – what the page asks after a mail link chose an answer. */
export function saveQuestion(status: AttendanceStatus): string {
  return status === 'vielleicht'
    ? 'Antwort „Vielleicht“ speichern?'
    : `${ATTENDANCE_LABELS[status]} speichern?`;
}

/** The answer as a small label; no answer reads "Keine Antwort". */
export function AttendanceBadge({ status }: { status: AttendanceStatus | null | undefined }) {
  if (!status) {
    return (
      <Badge variant="outline" color="gray.7">
        Keine Antwort
      </Badge>
    );
  }
  return (
    <Badge variant="light" color={BADGE_COLORS[status]}>
      {ATTENDANCE_LABELS[status]}
    </Badge>
  );
}
