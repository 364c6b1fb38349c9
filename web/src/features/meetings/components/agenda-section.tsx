import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconListNumbers, IconPencil } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { PortalEvent } from '@gremienportal/contracts/events';
import type { AgendaItem } from '@gremienportal/contracts/meetings';
import { ErrorState } from '../../../components/error-state';
import { LoadingState } from '../../../components/loading-state';
import { PageSection } from '../../../components/page-section';
import { plural } from '../../../lib/plural';
import { agendaQueryOptions } from '../agenda.api';
import { agendaBranches, documentCount } from '../agenda.rules';
import { AgendaDocument } from './agenda-document';
import { AgendaPublish } from './agenda-publish';
import { formatDateTime } from '../../../lib/format';
import classes from './agenda-section.module.css';

/** The editor's address (admins). */
export const agendaEditorPath = (eventId: number) => `/events/agenda/${eventId}`;

/** What the page shows under an item besides its documents (the Beschlussvorlagen, wired in by the page). */
export type AgendaItemExtra = (item: AgendaItem) => ReactNode;

function AgendaEntry({
  item,
  sub = false,
  extra,
}: {
  item: AgendaItem;
  sub?: boolean;
  extra?: AgendaItemExtra;
}) {
  return (
    <div className={classes.entry}>
      <Text component="span" className={classes.number} fw={700} aria-hidden>
        {item.number}
      </Text>
      <Stack gap={6} className={classes.body}>
        <Title order={sub ? 4 : 3} size={sub ? 'h5' : 'h4'} className={classes.title}>
          {/* The number is read with the title; the column beside it is only for the eye. */}
          <span className={classes.srNumber}>{item.number} </span>
          {item.title}
        </Title>
        {item.presenter ? (
          <Text size="sm" c="dimmed">
            Vortragende Person: <b>{item.presenter}</b>
          </Text>
        ) : null}
        {item.description ? <Text className={classes.description}>{item.description}</Text> : null}
      </Stack>
      {item.files.length > 0 ? (
        <ul className={classes.documents} aria-label={`Dokumente zu ${item.number}`}>
          {item.files.map((file) => (
            <AgendaDocument key={file.id} file={file} />
          ))}
        </ul>
      ) : null}
      {extra ? <div className={classes.extra}>{extra(item)}</div> : null}
    </div>
  );
}

function AgendaList({ items, extra }: { items: readonly AgendaItem[]; extra?: AgendaItemExtra }) {
  return (
    // role="list": a list without bullets stays a list for Safari's screen reader.
    <ol className={classes.list} role="list">
      {agendaBranches(items).map(({ item, children }) => (
        <li key={item.id} className={classes.item}>
          <AgendaEntry item={item} extra={extra} />
          {children.length > 0 ? (
            <ol className={classes.subList} role="list">
              {children.map((child) => (
                <li key={child.id}>
                  <AgendaEntry item={child} sub extra={extra} />
                </li>
              ))}
            </ol>
          ) : null}
        </li>
      ))}
    </ol>
  );
}

/**
 * "Tagesordnung" on the event page: the numbered items with their documents, as far as the member
 * may see them (hidden documents are simply not there). Members see nothing while the event has no
 * agenda; admins get the way to create one.
 */
export function AgendaSection({
  event,
  isAdmin,
  itemExtra,
  footer,
}: {
  event: Pick<PortalEvent, 'id' | 'agenda_count' | 'agenda_published_at'>;
  isAdmin: boolean;
  /** Under each item, after its documents. */
  itemExtra?: AgendaItemExtra;
  /** After the items, e.g. what belongs to the meeting but to none of them. */
  footer?: ReactNode;
}) {
  const hasAgenda = event.agenda_count > 0;
  const agenda = useQuery({ ...agendaQueryOptions(event.id), enabled: hasAgenda });
  if (!hasAgenda && !isAdmin) return null;
  const items = agenda.data ?? [];

  return (
    <PageSection
      title="Tagesordnung"
      description={
        hasAgenda && agenda.isSuccess ? (
          <>
            {plural(items.length, 'Punkt', 'Punkte')} ·{' '}
            {plural(documentCount(items), 'Dokument', 'Dokumente')}
            {isAdmin
              ? event.agenda_published_at
                ? ` · an die Mitglieder gesendet am ${formatDateTime(event.agenda_published_at)} Uhr`
                : ' · noch nicht an die Mitglieder gesendet'
              : null}
          </>
        ) : undefined
      }
      action={
        isAdmin ? (
          <Group gap="sm">
            {hasAgenda && agenda.isSuccess ? <AgendaPublish event={event} items={items} /> : null}
            <Button
              component={Link}
              to={agendaEditorPath(event.id)}
              variant={hasAgenda ? 'default' : 'filled'}
              leftSection={
                hasAgenda ? <IconPencil size={18} aria-hidden /> : <IconListNumbers size={18} aria-hidden />
              }
            >
              {hasAgenda ? 'Tagesordnung bearbeiten' : 'Tagesordnung anlegen'}
            </Button>
          </Group>
        ) : undefined
      }
    >
      {!hasAgenda ? (
        <Text size="sm" c="dimmed">
          Noch keine Tagesordnung. Mitglieder sehen diesen Abschnitt, sobald sie Punkte hat.
        </Text>
      ) : agenda.isPending ? (
        <LoadingState label="Tagesordnung wird geladen …" />
      ) : agenda.isError ? (
        <ErrorState detail={agenda.error.message} onRetry={() => void agenda.refetch()} />
      ) : (
        <AgendaList items={items} extra={itemExtra} />
      )}
      {footer}
    </PageSection>
  );
}
