import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  CreateEventBody,
  EventWriteResponse,
  PortalEvent,
  UpdateEventBody,
} from '@gremienportal/contracts/events';
import { api, type UploadProgress } from '../../lib/api-client';
import { eventKeys } from '../../lib/query-client';
import { saveBlob } from '../../lib/saved-files';

export const eventsQueryOptions = () =>
  queryOptions({
    queryKey: eventKeys.list(),
    queryFn: ({ signal }) => api.get<{ data: PortalEvent[] }>('/events', { signal }).then((res) => res.data),
  });

export const eventQueryOptions = (id: number) =>
  queryOptions({
    queryKey: eventKeys.detail(id),
    queryFn: ({ signal }) =>
      api.get<{ data: PortalEvent }>(`/events/${id}`, { signal }).then((res) => res.data),
  });

/**
 * The web app uploads multipart (product.md P6.6): the JSON field names, lists as repeated fields, the
 * information file as part `file`. Times go as the ISO UTC instants the contract schema made.
 */
export function eventFormData(body: CreateEventBody | UpdateEventBody, file: File | null): FormData {
  const data = new FormData();
  data.append('title', body.title);
  data.append('start', body.start);
  data.append('end', body.end);
  data.append('location', body.location);
  data.append('description', body.description);
  for (const role of body.roles ?? []) data.append('roles', String(role));
  if ('notifications' in body) {
    for (const role of body.notifications ?? []) data.append('notifications', String(role));
  }
  if ('notify' in body && body.notify) data.append('notify', 'true');
  if (file) data.append('file', file, file.name);
  return data;
}

interface SaveVariables<TBody> {
  body: TBody;
  file: File | null;
  onProgress?: (progress: UploadProgress) => void;
}

export function useCreateEvent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, file, onProgress }: SaveVariables<CreateEventBody>) =>
      api
        .upload<{ event: PortalEvent }>('POST', '/events', eventFormData(body, file), onProgress)
        .then((res) => res.event),
    onSuccess: (event) => {
      // product.md P4: the new event appears at the top of the list.
      queryClient.setQueryData(eventKeys.list(), (current: PortalEvent[] | undefined) =>
        current ? [event, ...current.filter((e) => e.id !== event.id)] : current,
      );
      queryClient.setQueryData(eventKeys.detail(event.id), event);
    },
  });
}

export function useUpdateEvent(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, file, onProgress }: SaveVariables<UpdateEventBody>) =>
      api.upload<EventWriteResponse>('PUT', `/events/${id}`, eventFormData(body, file), onProgress),
    onSuccess: async ({ event }) => {
      queryClient.setQueryData(eventKeys.detail(id), event);
      await queryClient.invalidateQueries({ queryKey: eventKeys.list() });
    },
  });
}

export function useDeleteEvent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/events/${id}`),
    onSuccess: async (_result, id) => {
      queryClient.removeQueries({ queryKey: eventKeys.detail(id) });
      // product.md P4: after a delete the list reloads.
      await queryClient.invalidateQueries({ queryKey: eventKeys.list() });
    },
  });
}

/** Saves the information file, fetched with the bearer header (product.md P6.7). */
export async function downloadEventFile(event: Pick<PortalEvent, 'external'>): Promise<void> {
  if (!event.external) return;
  const file = await api.download(`/info/${encodeURIComponent(event.external)}`);
  saveBlob(file.blob, file.filename);
}

/** Saves the event as an .ics file for the user's calendar. */
export async function downloadEventCalendar(event: Pick<PortalEvent, 'id'>): Promise<void> {
  const file = await api.download(`/events/${event.id}/ics`);
  saveBlob(file.blob, file.filename);
}
