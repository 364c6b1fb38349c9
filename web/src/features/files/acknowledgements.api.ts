import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { AcknowledgementList, AcknowledgementResponse } from '@gremienportal/contracts/acknowledgements';
import { api } from '../../lib/api-client';
import { saveBlob } from '../../lib/saved-files';
import { fileKeys } from './files.api';

export type { AcknowledgementList };

export const acknowledgementKeys = {
  list: (fileId: number) => [...fileKeys.all, 'acknowledgements', fileId] as const,
};

/** Admins: everyone who can see the document, confirmed or not, with counts and the reminder's state. */
export const acknowledgementListQueryOptions = (fileId: number) =>
  queryOptions({
    queryKey: acknowledgementKeys.list(fileId),
    queryFn: ({ signal }) =>
      api
        .get<{ data: AcknowledgementList }>(`/files/${fileId}/acknowledgements`, { signal })
        .then((body) => body.data),
    staleTime: 0,
  });

/**
 * "Zur Kenntnis genommen": the member's confirmation. The document, the listings and "Neu für Sie"
 * load again, so the banner shows the confirmation and the start page no longer asks for it.
 */
export function useConfirmAcknowledgement(fileId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<AcknowledgementResponse>(`/files/${fileId}/acknowledgement`),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: fileKeys.all }),
        queryClient.invalidateQueries({ queryKey: ['news'] }),
      ]);
    },
  });
}

/** "Erinnerung senden" to everyone pending (at most once a day per document). */
export function useSendAcknowledgementReminder(fileId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api.post<{ message: string; sent: number }>(`/files/${fileId}/acknowledgements/reminder`),
    // Also after a 409: the list then says from when the next reminder is possible.
    onSettled: () => queryClient.invalidateQueries({ queryKey: acknowledgementKeys.list(fileId) }),
  });
}

/** "Als CSV exportieren": the list as the server writes it (Excel, semicolons). */
export async function exportAcknowledgementsCsv(fileId: number): Promise<void> {
  const file = await api.download(`/files/${fileId}/acknowledgements.csv`);
  saveBlob(file.blob, file.filename);
}
