import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  Committee,
  CreateCommitteeBody,
  CreateMembershipBody,
  CreateTermBody,
  ImportResult,
  Membership,
  Term,
  UpdateCommitteeBody,
  UpdateMembershipBody,
  UpdateTermBody,
} from '@gremienportal/contracts/committees';
import type { FolderRefListResponse } from '@gremienportal/contracts/folders';
import type { UserListResponse } from '@gremienportal/contracts/users';
import { api, type UploadProgress } from '../../lib/api-client';

export type { Committee, Membership, Term };

export const committeeKeys = {
  all: ['committees'] as const,
  list: () => [...committeeKeys.all, 'list'] as const,
  detail: (id: number) => [...committeeKeys.all, 'detail', id] as const,
  terms: (id: number) => [...committeeKeys.all, 'terms', id] as const,
  /** Every term's directory of one committee, for refreshing them together. */
  allMembers: (id: number) => [...committeeKeys.all, 'members', id] as const,
  members: (id: number, termId: number) => [...committeeKeys.allMembers(id), termId] as const,
  /** The people an admin may add (GET /user), for the person select. */
  people: () => [...committeeKeys.all, 'people'] as const,
  /** The folders a committee's folder may be (GET /file-breadcrumbs). */
  folders: () => [...committeeKeys.all, 'folders'] as const,
};

// ---------------------------------------------------------------------------------------------
// Reads

/** Members: the committees they belong to; admins: all. */
export const committeesQueryOptions = () =>
  queryOptions({
    queryKey: committeeKeys.list(),
    queryFn: ({ signal }) =>
      api.get<{ data: Committee[] }>('/committees', { signal }).then((body) => body.data),
  });

export const committeeQueryOptions = (id: number) =>
  queryOptions({
    queryKey: committeeKeys.detail(id),
    queryFn: ({ signal }) =>
      api.get<{ data: Committee }>(`/committees/${id}`, { signal }).then((body) => body.data),
  });

export const termsQueryOptions = (committeeId: number) =>
  queryOptions({
    queryKey: committeeKeys.terms(committeeId),
    queryFn: ({ signal }) =>
      api.get<{ data: Term[] }>(`/committees/${committeeId}/terms`, { signal }).then((body) => body.data),
  });

export const membersQueryOptions = (committeeId: number, termId: number) =>
  queryOptions({
    queryKey: committeeKeys.members(committeeId, termId),
    queryFn: ({ signal }) =>
      api
        .get<{ data: Membership[] }>(`/committees/${committeeId}/members?term_id=${termId}`, { signal })
        .then((body) => body.data),
  });

export const peopleQueryOptions = () =>
  queryOptions({
    queryKey: committeeKeys.people(),
    queryFn: ({ signal }) => api.get<UserListResponse>('/user', { signal }).then((body) => body.data),
  });

export const folderChoicesQueryOptions = () =>
  queryOptions({
    queryKey: committeeKeys.folders(),
    queryFn: ({ signal }) =>
      api.get<FolderRefListResponse>('/file-breadcrumbs', { signal }).then((body) => body.data),
  });

// ---------------------------------------------------------------------------------------------
// Changes

/** A committee changed: its page and the list (name, member count, current term) load again. */
function useRefreshCommittee() {
  const queryClient = useQueryClient();
  return (committeeId: number) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: committeeKeys.detail(committeeId) }),
      queryClient.invalidateQueries({ queryKey: committeeKeys.list() }),
    ]);
}

/** A term or a membership changed: the committee, its terms and every directory load again. */
function useRefreshDirectory(committeeId: number) {
  const queryClient = useQueryClient();
  const refreshCommittee = useRefreshCommittee();
  return () =>
    Promise.all([
      refreshCommittee(committeeId),
      queryClient.invalidateQueries({ queryKey: committeeKeys.terms(committeeId) }),
      queryClient.invalidateQueries({ queryKey: committeeKeys.allMembers(committeeId) }),
    ]);
}

export function useCreateCommittee() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateCommitteeBody) =>
      api.post<{ data: Committee }>('/committees', body).then((res) => res.data),
    onSuccess: (committee) => {
      queryClient.setQueryData(committeeKeys.detail(committee.id), committee);
      return queryClient.invalidateQueries({ queryKey: committeeKeys.list() });
    },
  });
}

export function useUpdateCommittee(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateCommitteeBody) =>
      api.put<{ data: Committee }>(`/committees/${id}`, body).then((res) => res.data),
    onSuccess: (committee) => {
      queryClient.setQueryData(committeeKeys.detail(id), committee);
      return queryClient.invalidateQueries({ queryKey: committeeKeys.list() });
    },
  });
}

export function useDeleteCommittee() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/committees/${id}`),
    onSuccess: (_result, id) => {
      queryClient.removeQueries({ queryKey: committeeKeys.detail(id) });
      return queryClient.invalidateQueries({ queryKey: committeeKeys.list() });
    },
  });
}

export function useCreateTerm(committeeId: number) {
  const refresh = useRefreshDirectory(committeeId);
  return useMutation({
    mutationFn: (body: CreateTermBody) =>
      api.post<{ data: Term }>(`/committees/${committeeId}/terms`, body).then((res) => res.data),
    onSuccess: refresh,
  });
}

export function useUpdateTerm(committeeId: number) {
  const refresh = useRefreshDirectory(committeeId);
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: UpdateTermBody }) =>
      api.put<{ data: Term }>(`/terms/${id}`, body).then((res) => res.data),
    onSuccess: refresh,
  });
}

export function useDeleteTerm(committeeId: number) {
  const refresh = useRefreshDirectory(committeeId);
  return useMutation({
    mutationFn: (id: number) => api.delete(`/terms/${id}`),
    onSuccess: refresh,
  });
}

export function useCreateMembership(committeeId: number) {
  const refresh = useRefreshDirectory(committeeId);
  return useMutation({
    mutationFn: (body: CreateMembershipBody) =>
      api.post<{ data: Membership }>(`/committees/${committeeId}/members`, body).then((res) => res.data),
    onSuccess: refresh,
  });
}

export function useUpdateMembership(committeeId: number) {
  const refresh = useRefreshDirectory(committeeId);
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: UpdateMembershipBody }) =>
      api.put<{ data: Membership }>(`/memberships/${id}`, body).then((res) => res.data),
    onSuccess: refresh,
  });
}

export function useDeleteMembership(committeeId: number) {
  const refresh = useRefreshDirectory(committeeId);
  return useMutation({
    mutationFn: (id: number) => api.delete(`/memberships/${id}`),
    onSuccess: refresh,
  });
}

/** "Nachrücken bestätigen": the proposed Ersatzmitglied takes the seat of an ended membership. */
export function useConfirmSuccessor(committeeId: number) {
  const refresh = useRefreshDirectory(committeeId);
  return useMutation({
    mutationFn: (membershipId: number) =>
      api.post<{ data: Membership }>(`/memberships/${membershipId}/successor`).then((res) => res.data),
    onSuccess: refresh,
  });
}

interface ImportVariables {
  termId: number;
  file: File;
  /** true: only the preview; false: the import itself. */
  dryRun: boolean;
  onProgress?: (progress: UploadProgress) => void;
}

/** "Mitglieder importieren": the CSV file as the request body, with the upload's progress. */
export function useImportMembers(committeeId: number) {
  const refresh = useRefreshDirectory(committeeId);
  return useMutation({
    mutationFn: ({ termId, file, dryRun, onProgress }: ImportVariables) =>
      // The one answer without `data`: the result itself (importResultSchema).
      api.upload<ImportResult>(
        'POST',
        `/committees/${committeeId}/members/import?term_id=${termId}&dry_run=${dryRun}`,
        file,
        onProgress,
        { contentType: 'text/csv' },
      ),
    onSuccess: (result) => (result.dry_run ? undefined : refresh()),
  });
}
