import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { PortalEvent } from '@gremienportal/contracts/events';
import { ROOT_FOLDER_ID } from '@gremienportal/contracts/rules';
import type { ExplorerListResponse } from '@gremienportal/contracts/files';
import type { AgendaCheckResponse, AgendaItem, PutAgendaInput } from '@gremienportal/contracts/meetings';
import type { SearchResponse } from '@gremienportal/contracts/search';
import type { AgendaPublication, AgendaPublishResponse } from '@gremienportal/contracts/meeting-notices';
import type { CircularAnnouncement } from '@gremienportal/contracts/beschlussbuch';
import { api } from '../../lib/api-client';
import { eventKeys } from '../../lib/query-client';

export type { AgendaItem };
export type VisibilityCheck = AgendaCheckResponse['data'];

export const agendaKeys = {
  agenda: (eventId: number) => [...eventKeys.all, 'agenda', eventId] as const,
  /** The picker's own reads of the file area (features do not share queries). */
  folder: (folderId: number) => [...eventKeys.all, 'picker', 'folder', folderId] as const,
  search: (q: string) => [...eventKeys.all, 'picker', 'search', q] as const,
};

/**
 * The Tagesordnung in reading order (1, 2, 2.1, 3), each item with the documents the signed-in
 * member may see; admins also learn per document which of the event's roles cannot see it.
 */
export const agendaQueryOptions = (eventId: number) =>
  queryOptions({
    queryKey: agendaKeys.agenda(eventId),
    queryFn: ({ signal }) =>
      api.get<{ data: AgendaItem[] }>(`/events/${eventId}/agenda`, { signal }).then((res) => res.data),
  });

/**
 * Replaces the whole agenda in one request (admins). The answer is the new agenda; the event
 * carries the number of items (the Sitzungsmappe is offered only with an agenda), so it loads again.
 */
export function useSaveAgenda(eventId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PutAgendaInput) =>
      api.put<{ data: AgendaItem[] }>(`/events/${eventId}/agenda`, body).then((res) => res.data),
    onSuccess: async (agenda) => {
      queryClient.setQueryData(agendaKeys.agenda(eventId), agenda);
      queryClient.setQueryData(eventKeys.detail(eventId), (current: PortalEvent | undefined) =>
        current ? { ...current, agenda_count: agenda.length } : current,
      );
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: eventKeys.detail(eventId) }),
        queryClient.invalidateQueries({ queryKey: eventKeys.list() }),
      ]);
    },
  });
}

/** "Bekanntgabe der Umlaufbeschlüsse seit der letzten Sitzung": an item ready to insert (admins). */
export function fetchCircularAnnouncement(eventId: number) {
  return api
    .get<{ data: CircularAnnouncement }>(`/events/${eventId}/agenda/circular-announcement`)
    .then((res) => res.data);
}

/** Which of the event's roles would not see these documents (the form's warning; admins). */
export function checkAgendaFiles(eventId: number, fileIds: readonly number[], signal?: AbortSignal) {
  return api
    .post<{ data: VisibilityCheck }>(`/events/${eventId}/agenda/check`, { file_ids: fileIds }, { signal })
    .then((res) => res.data);
}

/** Subfolders first, then documents, of one folder, for the picker's folder tree. */
export const pickerFolderQueryOptions = (folderId: number) =>
  queryOptions({
    queryKey: agendaKeys.folder(folderId),
    queryFn: ({ signal }) =>
      api
        .get<ExplorerListResponse>(
          folderId === ROOT_FOLDER_ID ? '/root/files' : `/folders/${folderId}/files`,
          {
            signal,
          },
        )
        .then((res) => res.data),
    staleTime: 60_000,
  });

/** Documents whose title or text matches, for the picker's search (at most 20). */
export const pickerSearchQueryOptions = (q: string) =>
  queryOptions({
    queryKey: agendaKeys.search(q),
    queryFn: ({ signal }) =>
      api
        .get<SearchResponse>(
          `/search?${new URLSearchParams({ q, type: 'file', per_page: '20' }).toString()}`,
          {
            signal,
          },
        )
        .then((res) => res.data),
    staleTime: 30_000,
  });

/** What "Tagesordnung veröffentlichen" would send now (admins; decision 181). */
export const agendaPublicationQueryOptions = (eventId: number) =>
  queryOptions({
    queryKey: [...agendaKeys.agenda(eventId), 'publication'] as const,
    queryFn: ({ signal }) =>
      api
        .get<{ data: AgendaPublication }>(`/events/${eventId}/agenda/publish`, { signal })
        .then((res) => res.data),
    staleTime: 0,
  });

/** Mails the agenda, or what changed since it was mailed; the event then carries the date. */
export function usePublishAgenda(eventId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<AgendaPublishResponse>(`/events/${eventId}/agenda/publish`, {}),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: eventKeys.detail(eventId) }),
        queryClient.invalidateQueries({ queryKey: agendaKeys.agenda(eventId) }),
      ]);
    },
  });
}
