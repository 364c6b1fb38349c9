import { Badge } from '@mantine/core';
import type { MotionState, ResolutionResult } from '@gremienportal/contracts/resolutions';
import { MOTION_STATE_LABELS, RESULT_COLORS, RESULT_LABELS, STATE_COLORS } from '../resolution-labels';

/** Where a motion stands: "Entwurf", "Abstimmung läuft", … */
export function MotionStateBadge({ state }: { state: MotionState }) {
  return (
    <Badge color={STATE_COLORS[state]} variant="light" component="span" style={{ flexShrink: 0 }}>
      {MOTION_STATE_LABELS[state]}
    </Badge>
  );
}

/** The result of an entry of the Beschlussbuch: "Angenommen", "Abgelehnt", … */
export function ResultBadge({ result }: { result: ResolutionResult }) {
  return (
    <Badge color={RESULT_COLORS[result]} variant="filled" component="span" style={{ flexShrink: 0 }}>
      {RESULT_LABELS[result]}
    </Badge>
  );
}
