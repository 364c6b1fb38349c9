import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Alert, Button, Group, SimpleGrid, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconInfoCircle } from '@tabler/icons-react';
import type { PortalEvent } from '@gremienportal/contracts/events';
import {
  ATTENDANCE_COMMENT_MAX,
  ATTENDANCE_LABELS,
  ATTENDANCE_STATUSES,
  MEETING_MESSAGES,
  putAttendanceBodySchema,
  type AttendanceStatus,
} from '@gremienportal/contracts/meetings';
import { errorMessage, isApiError } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { useSaveAttendance } from '../attendance.api';
import { ATTENDANCE_COLORS, AttendanceBadge, saveQuestion } from './attendance-badge';
import { PageSection } from '../../../components/page-section';

/** The query parameter of the mail links: `/events/show/{id}?antwort=zugesagt`. */
export const ANSWER_PARAM = 'antwort';

/** The answer a mail link chose, or null for none or anything else. */
export function answerFromLink(value: string | null): AttendanceStatus | null {
  return ATTENDANCE_STATUSES.find((status) => status === value) ?? null;
}

/**
 * "Ihre Antwort" on the event page: Zusage, Absage or Vielleicht with an optional comment. A mail
 * link preselects its answer and asks to save it; nothing is saved without the click (decision
 * 130: no action on a GET).
 */
export function AttendanceAnswer({ event }: { event: PortalEvent }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const saved = event.my_attendance;
  const linkAnswer = answerFromLink(searchParams.get(ANSWER_PARAM));
  const [status, setStatus] = useState<AttendanceStatus | null>(linkAnswer ?? saved?.status ?? null);
  const [comment, setComment] = useState(saved?.comment ?? '');
  // The mail link's question stands until the member saves or picks another answer.
  const [asking, setAsking] = useState(linkAnswer !== null && linkAnswer !== saved?.status);
  const [errors, setErrors] = useState<{ status?: string; comment?: string; general?: string }>({});
  const save = useSaveAttendance(event.id);
  const over = new Date(event.end).getTime() < Date.now();
  const changed = status !== null && (status !== saved?.status || comment.trim() !== (saved?.comment ?? ''));

  const choose = (next: AttendanceStatus) => {
    setStatus(next);
    setAsking(asking && next === linkAnswer);
    setErrors((current) => ({ ...current, status: undefined }));
  };

  const handleSave = () => {
    const parsed = putAttendanceBodySchema.safeParse({ status: status ?? undefined, comment });
    if (!parsed.success) {
      const first = (field: string) => parsed.error.issues.find((issue) => issue.path[0] === field)?.message;
      setErrors({ status: first('status'), comment: first('comment') });
      return;
    }
    setErrors({});
    save.mutate(parsed.data, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: MEETING_MESSAGES.attendanceSaved });
        setAsking(false);
        if (searchParams.has(ANSWER_PARAM)) {
          // Reloading the page must not ask again.
          setSearchParams(
            (current) => {
              const next = new URLSearchParams(current);
              next.delete(ANSWER_PARAM);
              return next;
            },
            { replace: true },
          );
        }
      },
      onError: (error) => {
        const fieldErrors = isApiError(error) ? error.errors : undefined;
        setErrors({
          status: fieldErrors?.status?.[0],
          comment: fieldErrors?.comment?.[0],
          general:
            fieldErrors?.status || fieldErrors?.comment
              ? undefined
              : errorMessage(error, 'Die Antwort konnte nicht gespeichert werden.'),
        });
      },
    });
  };

  const saveLabel = asking && status ? saveQuestion(status).replace(/\?$/, '') : 'Antwort speichern';

  return (
    <PageSection title="Ihre Antwort">
      {over ? (
        <Text size="sm" c="dimmed">
          Die Sitzung ist bereits vorbei. Sie können Ihre Antwort trotzdem noch speichern oder ändern.
        </Text>
      ) : null}
      {saved ? (
        <Stack gap={4}>
          <Group gap="xs">
            <Text>Gespeichert:</Text>
            <AttendanceBadge status={saved.status} />
            <Text size="sm" c="dimmed">
              am {formatDateTime(saved.answered_at)} Uhr
            </Text>
          </Group>
          {saved.comment ? (
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              Ihr Kommentar: {saved.comment}
            </Text>
          ) : null}
        </Stack>
      ) : (
        <Text>Sie haben noch nicht geantwortet.</Text>
      )}
      {asking && linkAnswer ? (
        <Alert
          color="blue"
          variant="light"
          icon={<IconInfoCircle aria-hidden />}
          title={saveQuestion(linkAnswer)}
        >
          Sie haben in der E-Mail „{ATTENDANCE_LABELS[linkAnswer]}“ gewählt. Gespeichert wird erst mit einem
          Klick auf „{saveLabel}“.
        </Alert>
      ) : null}
      <Stack gap={4}>
        <SimpleGrid cols={3} spacing="xs" maw={420} role="group" aria-label="Antwort wählen">
          {ATTENDANCE_STATUSES.map((option) => (
            <Button
              key={option}
              variant={status === option ? 'filled' : 'default'}
              color={ATTENDANCE_COLORS[option]}
              aria-pressed={status === option}
              onClick={() => choose(option)}
              disabled={save.isPending}
              px={8}
            >
              {ATTENDANCE_LABELS[option]}
            </Button>
          ))}
        </SimpleGrid>
        {errors.status ? (
          <Text size="sm" c="red.8" role="alert">
            {errors.status}
          </Text>
        ) : null}
      </Stack>
      <Textarea
        label="Kommentar"
        description={`Optional, höchstens ${ATTENDANCE_COMMENT_MAX} Zeichen`}
        minRows={2}
        resize="vertical"
        value={comment}
        onChange={(e) => setComment(e.currentTarget.value)}
        error={errors.comment}
        disabled={save.isPending}
      />
      {errors.general ? (
        <Alert color="red" variant="light" role="alert">
          {errors.general}
        </Alert>
      ) : null}
      <Group>
        <Button
          onClick={handleSave}
          loading={save.isPending}
          variant={changed || asking ? 'filled' : 'light'}
        >
          {saveLabel}
        </Button>
      </Group>
    </PageSection>
  );
}
