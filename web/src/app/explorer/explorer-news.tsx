import { useId, useState } from 'react';
import { Link } from 'react-router';
import { Alert, Anchor, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { NEWS_MESSAGES } from '@gremienportal/contracts/news-messages';
import type { PortalEvent } from '@gremienportal/contracts/events';
import { FileIcon } from '../../components/file-icon';
import { SMALL_SCREEN_QUERY } from '../../components/data-table-defaults';
import { formatDateTime } from '../../lib/format';
import { AttendanceBadge } from '../../features/meetings/components/attendance-badge';
import { formatDay } from '../../features/files/components/acknowledgement-banner';
import { newFilesQueryOptions, type StoredFile } from '../../features/files/files.api';
import { newsQueryOptions } from '../../features/news/news.api';
import { pendingMotionsQueryOptions, type Motion } from '../../features/resolutions/resolutions.api';
import { deadlineText } from '../../features/resolutions/motions.rules';
import { documentLink } from './explorer-grid';
import { RowMenuTrigger } from './explorer-row-menu';
import { MarkReadButton } from './folder-news';
import classes from './explorer-news.module.css';

const EMPTY = { files: [], files_total: 0, acknowledgements: [], events: [] } as const;

/** On a phone the list starts shorter; "alle anzeigen" shows the rest. */
const PHONE_FILES = 3;

/** A document of the lists: its name opens its page, its "⋮" the file dialog (decision 183). */
function DocumentEntry({
  file,
  onShowDialog,
  detail,
}: {
  file: StoredFile;
  onShowDialog: (file: StoredFile) => void;
  detail: string;
}) {
  return (
    <li className={classes.entry}>
      <FileIcon format={file.format} size={20} />
      <div className={classes.entryText}>
        <Anchor component={Link} to={documentLink(file)} className={classes.link}>
          {file.title}.{file.format}
        </Anchor>
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {detail}
        </Text>
      </div>
      <RowMenuTrigger
        item={file}
        popup="dialog"
        onClick={(event) => {
          // Safari does not focus a tapped button; the dialog returns focus to what had it.
          event.currentTarget.focus();
          onShowDialog(file);
        }}
      />
    </li>
  );
}

function NewFiles({
  files,
  total,
  onOpen,
}: {
  files: readonly StoredFile[];
  total: number;
  onOpen: (file: StoredFile) => void;
}) {
  const headingId = useId();
  const small = useMediaQuery(SMALL_SCREEN_QUERY);
  const [all, setAll] = useState(false);
  const everything = useQuery({ ...newFilesQueryOptions(), enabled: all && total > files.length });
  const list = all ? (everything.data ?? files) : files.slice(0, small ? PHONE_FILES : files.length);
  return (
    <section aria-labelledby={headingId} className={classes.group}>
      <Title order={3} size="h5" id={headingId}>
        {NEWS_MESSAGES.newCount(total)}
      </Title>
      <ul className={classes.list}>
        {list.map((file) => (
          <DocumentEntry
            key={file.id}
            file={file}
            onShowDialog={onOpen}
            detail={file.folder?.breadcrumb ?? '/'}
          />
        ))}
      </ul>
      <Group gap="xs">
        {!all && total > list.length ? (
          <Button variant="subtle" size="compact-sm" onClick={() => setAll(true)}>
            {NEWS_MESSAGES.showAll} ({total})
          </Button>
        ) : null}
        {all && everything.isFetching ? (
          <Text size="sm" c="dimmed" role="status">
            Wird geladen …
          </Text>
        ) : null}
        <MarkReadButton />
      </Group>
    </section>
  );
}

function Acknowledgements({
  files,
  onOpen,
}: {
  files: readonly StoredFile[];
  onOpen: (file: StoredFile) => void;
}) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className={classes.group}>
      <Title order={3} size="h5" id={headingId}>
        {NEWS_MESSAGES.pendingAcknowledgements}
      </Title>
      <ul className={classes.list}>
        {files.map((file) => (
          <DocumentEntry
            key={file.id}
            file={file}
            onShowDialog={onOpen}
            detail={file.acknowledgement_due ? `bis ${formatDay(file.acknowledgement_due)}` : 'ohne Frist'}
          />
        ))}
      </ul>
    </section>
  );
}

function NextEvents({ events }: { events: readonly PortalEvent[] }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className={classes.group}>
      <Title order={3} size="h5" id={headingId}>
        {NEWS_MESSAGES.nextEvents}
      </Title>
      <ul className={classes.list}>
        {events.map((event) => (
          <li key={event.id} className={classes.eventEntry}>
            <Anchor component={Link} to={`/events/show/${event.id}`} className={classes.link}>
              {event.title}
            </Anchor>
            <Text size="xs" c="dimmed">
              <time dateTime={event.start}>{formatDateTime(event.start)} Uhr</time>
            </Text>
            <Group gap={6} wrap="nowrap">
              <Text size="xs">Ihre Antwort:</Text>
              <AttendanceBadge status={event.my_attendance?.status} />
            </Group>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** "Ihre Stimme wird erbeten": each running vote that waits for the member, with its deadline. */
function PendingVotes({ motions }: { motions: readonly Motion[] }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className={classes.group}>
      <Title order={3} size="h5" id={headingId}>
        Ihre Stimme wird erbeten
      </Title>
      <ul className={classes.list}>
        {motions.map((motion) => (
          <li key={motion.id} className={classes.eventEntry}>
            <Anchor component={Link} to={`/beschluesse/vorlagen/${motion.id}`} className={classes.link}>
              {motion.title}
            </Anchor>
            <Text size="xs" c="dimmed">
              {motion.committee.name}
              {motion.deadline ? ` · ${deadlineText(motion.deadline)}` : ''}
            </Text>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * "Neu für Sie" above the explorer at / and /files without a chosen folder (decision 134): new
 * documents, those waiting for the member's Kenntnisnahme and the next events with the member's
 * answer, and the running votes that wait for the member's vote (decision 190, a query of its
 * own, so neither waits for the other). Nothing while it loads, and nothing when all are empty.
 * Loaded apart from the page (decision 024).
 */
export default function NewsForYou({ onShowFileDialog }: { onShowFileDialog: (file: StoredFile) => void }) {
  const headingId = useId();
  const news = useQuery(newsQueryOptions());
  // Without the Beschlüsse (or when they fail) the rest stands as it is.
  const votes = useQuery(pendingMotionsQueryOptions()).data ?? [];
  if (news.isError && votes.length === 0) {
    return (
      <Alert color="yellow" variant="light">
        {NEWS_MESSAGES.loadFailed}
      </Alert>
    );
  }
  if (!news.data && votes.length === 0) return null;
  const { files, files_total: total, acknowledgements, events } = news.data ?? EMPTY;
  if (total === 0 && acknowledgements.length === 0 && events.length === 0 && votes.length === 0) return null;
  const groups =
    (votes.length > 0 ? 1 : 0) +
    (total > 0 ? 1 : 0) +
    (acknowledgements.length > 0 ? 1 : 0) +
    (events.length > 0 ? 1 : 0);
  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      component="section"
      aria-labelledby={headingId}
    >
      <Stack gap="sm">
        <Title order={2} size="h4" id={headingId}>
          {NEWS_MESSAGES.title}
        </Title>
        <SimpleGrid cols={{ base: 1, md: groups }} spacing={{ base: 'sm', md: 'lg' }}>
          {votes.length > 0 ? <PendingVotes motions={votes} /> : null}
          {total > 0 ? <NewFiles files={files} total={total} onOpen={onShowFileDialog} /> : null}
          {acknowledgements.length > 0 ? (
            <Acknowledgements files={acknowledgements} onOpen={onShowFileDialog} />
          ) : null}
          {events.length > 0 ? <NextEvents events={events} /> : null}
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}
