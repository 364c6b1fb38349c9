import type { PortalEvent } from '@gremienportal/contracts/events';
import type { AttendanceEntry } from '@gremienportal/contracts/meetings';

const DAY_MS = 86_400_000;

/** An ISO instant `days` from now (negative: in the past), so "upcoming" never goes stale. */
export const daysFromNow = (days: number, hours = 0) =>
  new Date(Date.now() + days * DAY_MS + hours * 3_600_000).toISOString();

/** An event as the API answers it, a week ahead unless told otherwise. */
export function makeMeeting(overrides: Partial<PortalEvent> = {}): PortalEvent {
  const roles = overrides.roles ?? ['Vertreter'];
  return {
    id: 5,
    title: 'Vertreterversammlung',
    start: daysFromNow(7),
    end: daysFromNow(7, 2),
    location: 'Stadthalle',
    description: 'Ordentliche Versammlung',
    external: null,
    file_format: null,
    default_start: '2026-12-02T18:00',
    default_end: '2026-12-02T20:00',
    created_at: '2026-11-01T10:00:00.000Z',
    updated_at: '2026-11-01T10:00:00.000Z',
    my_attendance: null,
    minutes: null,
    agenda_count: 0,
    agenda_published_at: null,
    ...overrides,
    roles,
    roles_string: roles.join(', '),
  };
}

/** One row of the admins' attendance list. */
export function makeEntry(
  id: number,
  firstname: string,
  lastname: string,
  answer: Partial<Pick<AttendanceEntry, 'status' | 'comment' | 'answered_at'>> = {},
): AttendanceEntry {
  return {
    user: {
      id,
      title: 'Frau',
      firstname,
      lastname,
      email: `${firstname.toLowerCase()}@example.org`,
      roles: ['Vertreter'],
    },
    status: null,
    comment: '',
    answered_at: null,
    ...answer,
  };
}
