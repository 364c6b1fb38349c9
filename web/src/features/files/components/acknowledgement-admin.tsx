import { useState } from 'react';
import { Badge, Progress, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { AcknowledgementEntry } from '@gremienportal/contracts/acknowledgements';
import { ACKNOWLEDGEMENT_MESSAGES } from '@gremienportal/contracts/file-messages';
import { MemberListActions } from '../../../components/member-list-actions';
import { ErrorState } from '../../../components/error-state';
import { LoadingState } from '../../../components/loading-state';
import { PeopleList } from '../../../components/people-list';
import { reminderQuestion } from '../../../components/reminder-question';
import { ShownFilter, type ShownOption } from '../../../components/shown-filter';
import { useRefetchAt } from '../../../components/use-refetch-at';
import { PageSection } from '../../../components/page-section';
import {
  acknowledgementListQueryOptions,
  exportAcknowledgementsCsv,
  useSendAcknowledgementReminder,
} from '../acknowledgements.api';
import { formatDay } from './acknowledgement-banner';

type Shown = 'alle' | 'bestaetigt' | 'offen';

const SHOWN_OPTIONS: ShownOption<Shown>[] = [
  { value: 'alle', label: 'Alle' },
  { value: 'bestaetigt', label: ACKNOWLEDGEMENT_MESSAGES.confirmedLabel },
  { value: 'offen', label: ACKNOWLEDGEMENT_MESSAGES.pendingLabel },
];

const matches = (entry: AcknowledgementEntry, shown: Shown) =>
  shown === 'alle' || (shown === 'offen') === (entry.confirmed_at === null);

/**
 * "Kenntnisnahme" on the document page, for admins (decision 131): who confirmed and when, who has not
 * (everyone who can see the document now), the share, CSV export and "Erinnerung senden".
 */
export function AcknowledgementAdmin({ fileId }: { fileId: number }) {
  const list = useQuery(acknowledgementListQueryOptions(fileId));
  const reminder = useSendAcknowledgementReminder(fileId);
  const [shown, setShown] = useState<Shown>('alle');
  useRefetchAt(list.data?.reminder_available_at ?? null, list.refetch);

  return (
    <PageSection
      title={ACKNOWLEDGEMENT_MESSAGES.listTitle}
      description={`Nur für Admins sichtbar${
        list.data?.file.acknowledgement_due
          ? ` · ${ACKNOWLEDGEMENT_MESSAGES.due} ${formatDay(list.data.file.acknowledgement_due)}`
          : ''
      }`}
    >
      {list.isPending ? (
        <LoadingState />
      ) : list.isError ? (
        <ErrorState detail={list.error.message} onRetry={() => void list.refetch()} />
      ) : list.data.counts.total === 0 ? (
        <Text>{ACKNOWLEDGEMENT_MESSAGES.nobody}</Text>
      ) : (
        <>
          <Stack gap={6}>
            <Text fw={600}>
              {ACKNOWLEDGEMENT_MESSAGES.summary(
                list.data.counts.confirmed,
                list.data.counts.total,
                list.data.percent,
              )}
            </Text>
            <Progress value={list.data.percent} aria-hidden size="lg" />
          </Stack>
          <MemberListActions
            list={list.data}
            onExport={() => exportAcknowledgementsCsv(fileId)}
            exportFailure="Die Liste konnte nicht exportiert werden."
            reminder={reminder}
            pending={list.data.counts.pending}
            nobodyNote="Alle haben die Kenntnisnahme bestätigt."
            question={reminderQuestion(list.data.counts.pending, 'Bestätigung', 'Kenntnisnahme')}
          />
          <ShownFilter options={SHOWN_OPTIONS} value={shown} onChange={setShown} />
          <PeopleList
            label="Kenntnisnahme je Person"
            statusTitle="Status"
            atLabel="Bestätigt am"
            rows={list.data.entries
              .filter((entry) => matches(entry, shown))
              .map((entry) => ({
                ...entry.user,
                status: entry.confirmed_at ? (
                  <Badge variant="light" color="brand">
                    {ACKNOWLEDGEMENT_MESSAGES.confirmedLabel}
                  </Badge>
                ) : (
                  <Badge variant="outline" color="gray.7">
                    {ACKNOWLEDGEMENT_MESSAGES.pendingLabel}
                  </Badge>
                ),
                at: entry.confirmed_at,
              }))}
          />
        </>
      )}
    </PageSection>
  );
}
