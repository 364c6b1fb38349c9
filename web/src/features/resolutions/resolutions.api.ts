import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Committee, Membership, OwnMembership, Term } from '@gremienportal/contracts/committees';
import type { FollowUpBody, Resolution } from '@gremienportal/contracts/beschlussbuch';
import type { PortalEvent } from '@gremienportal/contracts/events';
import type { AgendaItem } from '@gremienportal/contracts/meetings';
import type { CreateMotionBody, Motion, OpenMotionBody } from '@gremienportal/contracts/resolutions';
import { showSuccessToast } from '../../components/toasts';
import { api } from '../../lib/api-client';
import { ACCOUNT_QUERY_KEY } from '../../lib/query-client';
import { saveBlob } from '../../lib/saved-files';
import { registerQueryString, type RegisterFilters } from './resolutions.rules';
import { pollInterval } from './motions.rules';

// Only types from the contracts: the event page loads this file with its first load (decision 184).
export type { Motion, Resolution };
export type Choice = 'ja' | 'nein' | 'enthaltung';
export type UpdateMotionBody = Partial<Omit<CreateMotionBody, 'committee_id'>>;
export type HandCounts = Record<Choice, number>;

export interface MotionFilter {
  committee_id?: number;
  event_id?: number;
}

export const resolutionKeys = {
  all: ['resolutions'] as const,
  /** Every motion query: a change to one motion may move it in any list. */
  motions: () => [...resolutionKeys.all, 'motions'] as const,
  motionList: (filter: MotionFilter) => [...resolutionKeys.motions(), 'list', filter] as const,
  pending: () => [...resolutionKeys.motions(), 'pending'] as const,
  motion: (id: number) => [...resolutionKeys.motions(), 'detail', id] as const,
  register: () => [...resolutionKeys.all, 'register'] as const,
  registerList: (filters: RegisterFilters) => [...resolutionKeys.register(), 'list', filters] as const,
  resolution: (id: number) => [...resolutionKeys.register(), 'detail', id] as const,
  /** The committees for the filter and the form (GET /committees), their terms and members. */
  committees: () => [...resolutionKeys.all, 'committees'] as const,
  committee: (id: number) => [...resolutionKeys.all, 'committee', id] as const,
  terms: (committeeId: number) => [...resolutionKeys.all, 'terms', committeeId] as const,
  members: (committeeId: number) => [...resolutionKeys.all, 'members', committeeId] as const,
  /** The meeting and agenda item a new motion is written for (the form names them). */
  meeting: (eventId: number) => [...resolutionKeys.all, 'meeting', eventId] as const,
  meetingAgenda: (eventId: number) => [...resolutionKeys.all, 'meeting', eventId, 'agenda'] as const,
};

const query = (params: Record<string, string | number | undefined>) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
};

// ---------------------------------------------------------------------------------------------
// Motions

/** The motions of a committee or a meeting (members: of their committees; admins: all). */
export const motionsQueryOptions = (filter: MotionFilter) =>
  queryOptions({
    queryKey: resolutionKeys.motionList(filter),
    queryFn: ({ signal }) =>
      api.get<{ data: Motion[] }>(`/motions${query({ ...filter })}`, { signal }).then((body) => body.data),
  });

/**
 * A meeting's motions; while a vote runs (or, during the meeting, one may open) they load again
 * every few seconds, so everyone sees the ballot open and the result once it is closed.
 */
export const eventMotionsQueryOptions = (eventId: number, live: boolean) =>
  queryOptions({
    ...motionsQueryOptions({ event_id: eventId }),
    refetchInterval: (current) => pollInterval(current.state.data ?? [], live),
  });

/** "Ihre Stimme wird erbeten": running votes in which the member has yet to vote or object. */
export const pendingMotionsQueryOptions = () =>
  queryOptions({
    queryKey: resolutionKeys.pending(),
    queryFn: ({ signal }) =>
      api.get<{ data: Motion[] }>('/motions?pending=1', { signal }).then((body) => body.data),
  });

/** One motion; a vote in a meeting loads again every few seconds while it runs. */
export const motionQueryOptions = (id: number) =>
  queryOptions({
    queryKey: resolutionKeys.motion(id),
    queryFn: ({ signal }) =>
      api.get<{ data: Motion }>(`/motions/${id}`, { signal }).then((body) => body.data),
    refetchInterval: (current) => {
      const motion = current.state.data;
      return motion ? pollInterval([motion], motion.event_id !== null) : false;
    },
  });

/** A changed motion: its page shows the answer at once, every list of motions loads again. */
async function storeMotion(queryClient: QueryClient, motion: Motion) {
  queryClient.setQueryData(resolutionKeys.motion(motion.id), motion);
  await queryClient.invalidateQueries({ queryKey: resolutionKeys.motions() });
}

export function useCreateMotion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateMotionBody) =>
      api.post<{ data: Motion }>('/motions', body).then((res) => res.data),
    onSuccess: (motion) => storeMotion(queryClient, motion),
  });
}

/** `message` is set when the change voided a running vote. */
export function useUpdateMotion(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateMotionBody) =>
      api.put<{ data: Motion; message: string | null }>(`/motions/${id}`, body),
    onSuccess: (res) => storeMotion(queryClient, res.data),
  });
}

export function useDeleteMotion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<{ message: string }>(`/motions/${id}`),
    onSuccess: (_res, id) => {
      queryClient.removeQueries({ queryKey: resolutionKeys.motion(id) });
      return queryClient.invalidateQueries({ queryKey: resolutionKeys.motions() });
    },
  });
}

type MotionAnswer = { data: Motion; message?: string | null };

/**
 * A POST to one of the motion's actions, answered with the motion (and sometimes a message).
 * `confirm` names the success toast: shown here, before the answer replaces the motion, since the
 * form or button that asked usually disappears with the new state, and with it its own `onSuccess`.
 */
function useMotionAction<TBody>(
  id: number,
  path: string,
  confirm?: (answer: MotionAnswer, body: TBody) => string | null,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TBody) => api.post<MotionAnswer>(`/motions/${id}/${path}`, body ?? {}),
    onSuccess: (res, body) => {
      const message = confirm?.(res, body);
      if (message) showSuccessToast(message);
      return storeMotion(queryClient, res.data);
    },
  });
}

/** The toasts of the actions whose buttons go away with the new state. */
export const MOTION_TOASTS = {
  umlaufOpened: 'Das Umlaufverfahren läuft; die Stimmberechtigten wurden per E-Mail gebeten abzustimmen.',
  opened: 'Die Abstimmung ist geöffnet.',
  objected: 'Ihr Widerspruch wurde festgehalten.',
  ownConflict: 'Ihre Befangenheit ist festgehalten; Sie nehmen an dieser Abstimmung nicht teil.',
  conflictNoted: (name: string | undefined) =>
    name ? `Die Befangenheit von ${name} ist vermerkt.` : 'Die Befangenheit ist vermerkt.',
  closed: 'Die Abstimmung ist geschlossen.',
  withdrawn: 'Die Beschlussvorlage wurde zurückgezogen.',
} as const;

export const useOpenMotion = (id: number) =>
  useMotionAction<OpenMotionBody>(id, 'open', (_res, body) =>
    body.procedure === 'umlauf' ? MOTION_TOASTS.umlaufOpened : MOTION_TOASTS.opened,
  );
export const useVote = (id: number) => useMotionAction<{ choice: Choice }>(id, 'votes');
/** The server's message says what the objection did (e.g. that it ended the procedure). */
export const useObject = (id: number) =>
  useMotionAction<{ reason?: string }>(id, 'objection', (res) => res.message ?? MOTION_TOASTS.objected);
/** Without `user_id` the member's own; with it the Vorsitz's note for another elector. */
export const useDeclareConflict = (id: number) =>
  useMotionAction<{ user_id?: number }>(id, 'conflict', (res, body) =>
    body.user_id === undefined
      ? MOTION_TOASTS.ownConflict
      : MOTION_TOASTS.conflictNoted(
          res.data.electorate?.find((entry) => entry.user_id === body.user_id)?.name,
        ),
  );
export const useHandCount = (id: number) => useMotionAction<HandCounts>(id, 'hand-count');
export const useCloseMotion = (id: number) =>
  useMotionAction<undefined>(id, 'close', () => MOTION_TOASTS.closed);
export const useWithdrawMotion = (id: number) =>
  useMotionAction<undefined>(id, 'withdraw', () => MOTION_TOASTS.withdrawn);

/** "Erinnerung senden" (Umlaufverfahren): the server says how many members were reminded. */
export function useRemindElectors(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<{ message: string }>(`/motions/${id}/reminders`, {}),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: resolutionKeys.motion(id) }),
  });
}

/** "Ergebnis feststellen" with the Vorsitz's second factor: the entry of the Beschlussbuch. */
export function useEstablish(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) =>
      api.post<{ data: Resolution }>(`/motions/${id}/establish`, { code }).then((res) => res.data),
    onSuccess: async (resolution) => {
      queryClient.setQueryData(resolutionKeys.resolution(resolution.id), resolution);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: resolutionKeys.motions() }),
        queryClient.invalidateQueries({ queryKey: resolutionKeys.register() }),
      ]);
    },
  });
}

// ---------------------------------------------------------------------------------------------
// The Beschlussbuch

export const resolutionsQueryOptions = (filters: RegisterFilters) =>
  queryOptions({
    queryKey: resolutionKeys.registerList(filters),
    queryFn: ({ signal }) =>
      api
        .get<{ data: Resolution[] }>(`/resolutions${registerQueryString(filters)}`, { signal })
        .then((body) => body.data),
  });

export const resolutionQueryOptions = (id: number) =>
  queryOptions({
    queryKey: resolutionKeys.resolution(id),
    queryFn: ({ signal }) =>
      api.get<{ data: Resolution }>(`/resolutions/${id}`, { signal }).then((body) => body.data),
  });

function useResolutionChange() {
  const queryClient = useQueryClient();
  return async (resolution: Resolution) => {
    queryClient.setQueryData(resolutionKeys.resolution(resolution.id), resolution);
    await queryClient.invalidateQueries({ queryKey: resolutionKeys.register() });
  };
}

export function useUpdateFollowUp(id: number) {
  const changed = useResolutionChange();
  return useMutation({
    mutationFn: (body: FollowUpBody) =>
      api.put<{ data: Resolution }>(`/resolutions/${id}/follow-up`, body).then((res) => res.data),
    onSuccess: changed,
  });
}

/** "Berichtigung" (Vorsitz): a new entry that names the corrected one; that one stays as it was. */
export function useCorrectResolution(id: number) {
  const changed = useResolutionChange();
  return useMutation({
    mutationFn: (body: { text: string; reason: string }) =>
      api.post<{ data: Resolution }>(`/resolutions/${id}/correction`, body).then((res) => res.data),
    onSuccess: changed,
  });
}

/** The Beschlussbuch with the list's filters as PDF or CSV, fetched with the bearer header and saved. */
export async function downloadRegister(format: 'pdf' | 'csv', filters: RegisterFilters): Promise<void> {
  const file = await api.download(`/resolutions.${format}${registerQueryString(filters)}`);
  saveBlob(file.blob, file.filename);
}

// ---------------------------------------------------------------------------------------------
// What the pages need of the committees and of the own account

export const committeeChoicesQueryOptions = () =>
  queryOptions({
    queryKey: resolutionKeys.committees(),
    queryFn: ({ signal }) =>
      api.get<{ data: Committee[] }>('/committees', { signal }).then((body) => body.data),
    staleTime: 5 * 60_000,
  });

/** The committee of a motion, for its rules (whether it decides by Umlaufverfahren). */
export const motionCommitteeQueryOptions = (id: number) =>
  queryOptions({
    queryKey: resolutionKeys.committee(id),
    queryFn: ({ signal }) =>
      api.get<{ data: Committee }>(`/committees/${id}`, { signal }).then((body) => body.data),
    staleTime: 5 * 60_000,
  });

export const committeeTermsQueryOptions = (committeeId: number) =>
  queryOptions({
    queryKey: resolutionKeys.terms(committeeId),
    queryFn: ({ signal }) =>
      api.get<{ data: Term[] }>(`/committees/${committeeId}/terms`, { signal }).then((body) => body.data),
    staleTime: 5 * 60_000,
  });

/** The current term's members: who may be responsible for a follow-up. */
export const committeeMembersQueryOptions = (committeeId: number) =>
  queryOptions({
    queryKey: resolutionKeys.members(committeeId),
    queryFn: ({ signal }) =>
      api
        .get<{ data: Membership[] }>(`/committees/${committeeId}/members`, { signal })
        .then((body) => body.data),
    staleTime: 5 * 60_000,
  });

/**
 * The own memberships (GET /account, decision 189): which committees the member chairs or keeps the
 * minutes of, so the pages offer only what the server allows. The account's own query key: one
 * request for the account page and these pages.
 */
export const ownMembershipsQueryOptions = () =>
  queryOptions({
    queryKey: ACCOUNT_QUERY_KEY,
    queryFn: ({ signal }) =>
      api.get<{ data: { memberships?: OwnMembership[] } }>('/account', { signal }).then((body) => body.data),
    select: (account): OwnMembership[] => account.memberships ?? [],
    staleTime: 5 * 60_000,
  });

/** The meeting a motion belongs to: its title and start, for the form's note. */
export const meetingQueryOptions = (eventId: number) =>
  queryOptions({
    queryKey: resolutionKeys.meeting(eventId),
    queryFn: ({ signal }) =>
      api.get<{ data: PortalEvent }>(`/events/${eventId}`, { signal }).then((body) => body.data),
    staleTime: 5 * 60_000,
  });

export const meetingAgendaQueryOptions = (eventId: number) =>
  queryOptions({
    queryKey: resolutionKeys.meetingAgenda(eventId),
    queryFn: ({ signal }) =>
      api.get<{ data: AgendaItem[] }>(`/events/${eventId}/agenda`, { signal }).then((body) => body.data),
    staleTime: 5 * 60_000,
  });
