import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { NotificationSettings } from '@gremienportal/contracts/notifications';
import { api } from '../../lib/api-client';
import { accountKeys } from './account.api';

export type { NotificationSettings };

export const notificationKeys = {
  settings: () => [...accountKeys.all, 'notifications'] as const,
};

/** How often the member is mailed about new documents and new or changed events (decision 131). */
export const notificationSettingsQueryOptions = () =>
  queryOptions({
    queryKey: notificationKeys.settings(),
    queryFn: ({ signal }) =>
      api.get<{ data: NotificationSettings }>('/account/notifications', { signal }).then((body) => body.data),
  });

export function useSaveNotificationSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NotificationSettings) =>
      api.put<{ message: string; data: NotificationSettings }>('/account/notifications', body),
    onSuccess: (response) => queryClient.setQueryData(notificationKeys.settings(), response.data),
  });
}
