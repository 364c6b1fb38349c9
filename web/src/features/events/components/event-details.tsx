import { RoleBadges } from '../../../components/role-badges';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Button, Flex, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconCalendarPlus,
  IconClock,
  IconDownload,
  IconMapPin,
  IconPencil,
  IconTrash,
  IconUsers,
} from '@tabler/icons-react';
import { EVENT_MESSAGES, type PortalEvent } from '@gremienportal/contracts/events';
import { formatDateTime } from '../../../lib/format';
import { downloadEventCalendar, downloadEventFile } from '../events.api';

interface EventDetailsProps {
  event: PortalEvent;
  isAdmin: boolean;
  onDelete: (event: PortalEvent) => void;
}

/** One term of the description list: dl > div > (dt, dd), as HTML allows. */
function Detail({ label, icon, children }: { label: string; icon: ReactNode; children: ReactNode }) {
  return (
    <div>
      <Group component="dt" gap={6} c="dimmed" fz="sm" wrap="nowrap">
        <span aria-hidden style={{ display: 'inline-flex' }}>
          {icon}
        </span>
        {label}
      </Group>
      <Text component="dd" m={0} mt={2} fw={500} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

/** /events/show/{id}: everything about one event, its file and the calendar export. */
export function EventDetails({ event, isAdmin, onDelete }: EventDetailsProps) {
  const [busy, setBusy] = useState<'file' | 'calendar' | null>(null);

  const run = async (kind: 'file' | 'calendar') => {
    setBusy(kind);
    try {
      await (kind === 'file' ? downloadEventFile(event) : downloadEventCalendar(event));
    } catch {
      notifications.show({ color: 'red', message: EVENT_MESSAGES.loadFailed });
    } finally {
      setBusy(null);
    }
  };

  return (
    <Stack gap="lg">
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
        <Stack gap="lg">
          <SimpleGrid component="dl" cols={{ base: 1, sm: 2 }} spacing="lg" m={0}>
            <Detail label="Ort" icon={<IconMapPin size={20} />}>
              {event.location}
            </Detail>
            <Detail label="Beginn" icon={<IconClock size={20} />}>
              {formatDateTime(event.start)} Uhr
            </Detail>
            <Detail label="Ende" icon={<IconClock size={20} />}>
              {formatDateTime(event.end)} Uhr
            </Detail>
            {isAdmin ? (
              <Detail label="Rollen" icon={<IconUsers size={20} />}>
                <RoleBadges roles={event.roles} empty="keine" />
              </Detail>
            ) : null}
          </SimpleGrid>
          <div>
            <Title order={2} size="h4" mb="xs">
              Beschreibung
            </Title>
            <Text style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{event.description}</Text>
          </div>
          <Flex direction={{ base: 'column', xs: 'row' }} gap="sm" align={{ base: 'stretch', xs: 'center' }}>
            {event.external ? (
              <Button
                variant="light"
                leftSection={<IconDownload size={18} aria-hidden />}
                loading={busy === 'file'}
                onClick={() => void run('file')}
              >
                Informationsdatei herunterladen
              </Button>
            ) : (
              <Text size="sm" c="dimmed">
                Keine Informationsdatei angehängt.
              </Text>
            )}
            <Button
              variant="light"
              leftSection={<IconCalendarPlus size={18} aria-hidden />}
              loading={busy === 'calendar'}
              onClick={() => void run('calendar')}
            >
              In Kalender übernehmen
            </Button>
          </Flex>
        </Stack>
      </Paper>
      <Group gap="sm" justify="space-between">
        <Button variant="default" component={Link} to="/events">
          Zurück zur Übersicht
        </Button>
        {isAdmin ? (
          <Group gap="sm">
            <Button
              component={Link}
              to={`/events/update/${event.id}`}
              leftSection={<IconPencil size={18} aria-hidden />}
            >
              Bearbeiten
            </Button>
            <Button
              color="red.9"
              variant="outline"
              leftSection={<IconTrash size={18} aria-hidden />}
              onClick={() => onDelete(event)}
            >
              Löschen
            </Button>
          </Group>
        ) : null}
      </Group>
    </Stack>
  );
}
