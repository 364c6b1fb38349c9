import { Link, useNavigate, useSearchParams } from 'react-router';
import { Anchor, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ErrorState } from '../../components/error-state';
import { LoadingState } from '../../components/loading-state';
import { PageTitle } from '../../components/page-title';
import { DocumentPicker } from '../../features/meetings/components/agenda-editor/document-picker';
import { MotionForm, type DocumentPickerProps } from '../../features/resolutions/components/motion-form';
import { motionPath } from '../../features/resolutions/components/motion-list';
import {
  meetingAgendaQueryOptions,
  meetingQueryOptions,
  motionQueryOptions,
} from '../../features/resolutions/resolutions.api';
import { motionControls } from '../../features/resolutions/motions.rules';
import { isApiError } from '../../lib/api-client';
import { formatDateTime } from '../../lib/format';
import { parseId, useIdParam } from '../../lib/route-params';
import type { MotionPageState } from './motion-show';
import NotFoundPage from './not-found';

// The agenda editor's picker: the file area's folders and its search (web features do not import
// each other, so the page wires it in).
const renderPicker = (props: DocumentPickerProps) => <DocumentPicker {...props} />;

/** "Für die Sitzung „…“ am … · TOP 3 „…“": where a new motion started. */
function MeetingContext({ eventId, agendaItemId }: { eventId: number; agendaItemId?: number | undefined }) {
  const event = useQuery(meetingQueryOptions(eventId));
  const agenda = useQuery({ ...meetingAgendaQueryOptions(eventId), enabled: agendaItemId !== undefined });
  const item = agenda.data?.find((entry) => entry.id === agendaItemId);
  if (!event.data) return null;
  return (
    <>
      Für die Sitzung{' '}
      <Anchor component={Link} to={`/events/show/${eventId}`}>
        {event.data.title}
      </Anchor>{' '}
      am {formatDateTime(event.data.start)} Uhr
      {item ? ` · TOP ${item.number} „${item.title}“` : ''}
    </>
  );
}

function CreateMotion() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const committeeId = parseId(params.get('gremium') ?? undefined) ?? undefined;
  const eventId = parseId(params.get('sitzung') ?? undefined) ?? undefined;
  const agendaItemId =
    eventId === undefined ? undefined : (parseId(params.get('top') ?? undefined) ?? undefined);
  const back = () =>
    void navigate(
      eventId !== undefined
        ? `/events/show/${eventId}`
        : committeeId !== undefined
          ? `/gremien/${committeeId}`
          : '/beschluesse',
    );
  return (
    <Stack gap="md">
      <PageTitle>Beschlussvorlage anlegen</PageTitle>
      <MotionForm
        defaults={{ committeeId, eventId, agendaItemId }}
        context={
          eventId !== undefined ? <MeetingContext eventId={eventId} agendaItemId={agendaItemId} /> : undefined
        }
        renderDocumentPicker={renderPicker}
        onCancel={back}
        onDone={(motion) => void navigate(motionPath(motion.id))}
      />
    </Stack>
  );
}

function EditMotion({ id }: { id: number }) {
  const navigate = useNavigate();
  // Edited from what the server has now (a running vote may have moved on).
  const motion = useQuery({ ...motionQueryOptions(id), staleTime: 0, refetchInterval: false });
  if (motion.isError && isApiError(motion.error) && motion.error.status === 404) return <NotFoundPage />;
  return (
    <Stack gap="md">
      <PageTitle>Beschlussvorlage bearbeiten</PageTitle>
      {motion.isPending ? (
        <LoadingState />
      ) : motion.isError ? (
        <ErrorState detail={motion.error.message} onRetry={() => void motion.refetch()} />
      ) : motionControls(motion.data).edit ? (
        <MotionForm
          motion={motion.data}
          context={
            motion.data.event_id !== null ? (
              <MeetingContext
                eventId={motion.data.event_id}
                agendaItemId={motion.data.agenda_item_id ?? undefined}
              />
            ) : undefined
          }
          renderDocumentPicker={renderPicker}
          onCancel={() => void navigate(motionPath(id))}
          onDone={(saved, notice) =>
            void navigate(motionPath(saved.id), {
              state: notice ? ({ notice } satisfies MotionPageState) : null,
            })
          }
        />
      ) : (
        <Text>
          Diese Beschlussvorlage kann nicht mehr geändert werden.{' '}
          <Anchor component={Link} to={motionPath(id)}>
            Zur Beschlussvorlage
          </Anchor>
        </Text>
      )}
    </Stack>
  );
}

/** /beschluesse/vorlagen/neu (`?gremium=`, `?sitzung=&top=`) and /beschluesse/vorlagen/{id}/bearbeiten. */
export default function MotionEditPage() {
  const id = useIdParam();
  return id === null ? <CreateMotion /> : <EditMotion key={id} id={id} />;
}
