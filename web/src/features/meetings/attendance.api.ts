import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { PortalEvent } from '@gremienportal/contracts/events';
import type { AttendanceList, MyAttendance, PutAttendanceBody } from '@gremienportal/contracts/meetings';
import { api } from '../../lib/api-client';
import { saveBlob } from '../../lib/saved-files';
import { eventKeys } from '../../lib/query-client';

/** The reminder's answer (`reminderResponseSchema`): the German message and how many got it. */
interface ReminderResponse {
  message: string;
  sent: number;
}

export const attendanceKeys = {
  list: (eventId: number) => [...eventKeys.all, 'attendance', eventId] as const,
};

/** Admins: everyone in the event's roles with their answer, the counts and the reminder times. */
export const attendanceListQueryOptions = (eventId: number) =>
  queryOptions({
    queryKey: attendanceKeys.list(eventId),
    queryFn: ({ signal }) =>
      api.get<{ data: AttendanceList }>(`/events/${eventId}/attendance`, { signal }).then((res) => res.data),
  });

/**
 * Saves the signed-in member's own answer. The event in the list and on its page carries it at
 * once; the admins' list loads again, as it counts the answer too.
 */
export function useSaveAttendance(eventId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PutAttendanceBody) =>
      api.put<{ data: MyAttendance }>(`/events/${eventId}/attendance`, body).then((res) => res.data),
    onSuccess: async (answer) => {
      const withAnswer = (event: PortalEvent): PortalEvent =>
        event.id === eventId ? { ...event, my_attendance: answer } : event;
      queryClient.setQueryData(eventKeys.detail(eventId), (current: PortalEvent | undefined) =>
        current ? withAnswer(current) : current,
      );
      queryClient.setQueryData(eventKeys.list(), (current: PortalEvent[] | undefined) =>
        current?.map(withAnswer),
      );
      await queryClient.invalidateQueries({ queryKey: attendanceKeys.list(eventId) });
    },
  });
}

/** "Erinnerung senden": mails everyone in the event's roles without an answer (at most hourly). */
export function useSendReminder(eventId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<ReminderResponse>(`/events/${eventId}/attendance/reminder`),
    // A refusal (409) also moves the time of the next possible reminder: load it either way.
    onSettled: () => queryClient.invalidateQueries({ queryKey: attendanceKeys.list(eventId) }),
  });
}

/** Saves the attendance list as CSV, fetched with the bearer header like every download. */
export async function exportAttendanceCsv(eventId: number): Promise<void> {
  const file = await api.download(`/events/${eventId}/attendance.csv`);
  saveBlob(file.blob, file.filename);
}
