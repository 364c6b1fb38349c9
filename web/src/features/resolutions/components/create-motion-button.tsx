import { Link } from 'react-router';
import { Button } from '@mantine/core';
import { IconGavel } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useAuth } from '../../../lib/auth';
import { ownMembershipsQueryOptions } from '../resolutions.api';
import { mayWriteMotions } from '../resolutions.rules';

/** The form's address for a new motion, with the committee or the meeting and item it starts from. */
export function motionCreatePath(from: { committeeId?: number; eventId?: number; agendaItemId?: number }) {
  const params = new URLSearchParams();
  if (from.committeeId !== undefined) params.set('gremium', String(from.committeeId));
  if (from.eventId !== undefined) params.set('sitzung', String(from.eventId));
  if (from.agendaItemId !== undefined) params.set('top', String(from.agendaItemId));
  const query = params.toString();
  return `/beschluesse/vorlagen/neu${query ? `?${query}` : ''}`;
}

/**
 * "Beschlussvorlage anlegen" on a committee's page, for admins and the committee's Vorsitz and
 * Schriftführung (by the own memberships; the server decides in the end).
 */
export function CreateMotionButton({ committeeId }: { committeeId: number }) {
  const { isAdmin } = useAuth();
  const memberships = useQuery({ ...ownMembershipsQueryOptions(), enabled: !isAdmin });
  if (!mayWriteMotions(isAdmin, memberships.data ?? [], committeeId)) return null;
  return (
    <Button
      component={Link}
      to={motionCreatePath({ committeeId })}
      leftSection={<IconGavel size={18} aria-hidden />}
    >
      Beschlussvorlage anlegen
    </Button>
  );
}
