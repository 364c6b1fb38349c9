import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { calendarFeedCreatedSchema, calendarFeedSchema } from '@gremienportal/contracts/meetings';
import { api } from '../../lib/api-client';

export type CalendarFeed = z.infer<typeof calendarFeedSchema>;
export type CreatedCalendarFeed = z.infer<typeof calendarFeedCreatedSchema>['data'];

export const calendarFeedKeys = {
  feed: ['account', 'calendar-feed'] as const,
};

/** Whether the member has a feed address, since when and when a calendar last fetched it. */
export const calendarFeedQueryOptions = () =>
  queryOptions({
    queryKey: calendarFeedKeys.feed,
    queryFn: ({ signal }) =>
      api.get<{ data: CalendarFeed }>('/account/calendar-feed', { signal }).then((res) => res.data),
  });

/** A new feed address (the old one stops working); the answer is the only time the address is shown. */
export function useCreateCalendarFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api.post<{ data: CreatedCalendarFeed }>('/account/calendar-feed').then((res) => res.data),
    onSuccess: (created) => {
      queryClient.setQueryData<CalendarFeed>(calendarFeedKeys.feed, {
        active: true,
        created_at: created.created_at,
        last_used_at: null,
      });
    },
  });
}

/** "Abonnement beenden": the address stops working. */
export function useRevokeCalendarFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete('/account/calendar-feed'),
    onSuccess: () => {
      queryClient.setQueryData<CalendarFeed>(calendarFeedKeys.feed, {
        active: false,
        created_at: null,
        last_used_at: null,
      });
    },
  });
}

/** The feed's address for a tap: `webcal://` opens the calendar app's "Abonnieren" (iPhone, Mac, Outlook). */
export const webcalUrl = (url: string) => url.replace(/^https?:\/\//, 'webcal://');

/** Google Kalender adds a subscription from its own page, given the address. */
export const googleCalendarUrl = (url: string) =>
  `https://calendar.google.com/calendar/r?cid=${encodeURIComponent(webcalUrl(url))}`;
