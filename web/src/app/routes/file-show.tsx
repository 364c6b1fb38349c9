import { useNavigate } from 'react-router';
import { Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ErrorState } from '../../components/error-state';
import { LoadingState } from '../../components/loading-state';
import { PageTitle } from '../../components/page-title';
import { AdminAccessAccordion } from '../explorer/admin-access-accordion';
import { DeleteErrorBanner } from '../explorer/delete-error-banner';
import { AcknowledgementAdmin } from '../../features/files/components/acknowledgement-admin';
import { FileDetails } from '../../features/files/components/file-details';
import { FileVersions } from '../../features/files/components/file-versions';
import { useDeleteWithConfirmation } from '../explorer/use-delete-with-confirmation';
import { fileQueryOptions } from '../../features/files/files.api';
import { folderSearch } from '../../features/folders/folders.rules';
import { isApiError } from '../../lib/api-client';
import { useAuth } from '../../lib/auth';
import { useIdParam } from '../../lib/route-params';
import NotFoundPage from './not-found';

function FileShow({ id }: { id: number }) {
  const { isAdmin } = useAuth();
  const navigate = useNavigate();
  const file = useQuery(fileQueryOptions(id));
  const { confirmDeleteFile, deleting, deleteError, clearDeleteError } = useDeleteWithConfirmation({
    failure: 'banner',
    // product.md P4: after a delete go to /files, here opened at the folder it was in.
    onFileDeleted: (deleted) => navigate(`/files${folderSearch(deleted.folder_id)}`, { replace: true }),
  });

  // Hidden and missing files answer the same 404 (product.md P5): both show the 404 page.
  if (file.isError && isApiError(file.error) && file.error.status === 404) return <NotFoundPage />;
  const title = file.data?.title ?? 'Datei';

  return (
    <Stack gap="lg" maw={1100}>
      <PageTitle documentTitle={title}>{title}</PageTitle>
      <DeleteErrorBanner error={deleteError} onClose={clearDeleteError} />
      {file.isPending ? (
        <LoadingState />
      ) : file.isError ? (
        <ErrorState detail={file.error.message} onRetry={() => void file.refetch()} />
      ) : (
        <>
          <FileDetails
            file={file.data}
            isAdmin={isAdmin}
            onDelete={confirmDeleteFile}
            deleting={deleting}
            editHref={`/files/update/${file.data.id}`}
          />
          {isAdmin && file.data.acknowledgement_required ? (
            <AcknowledgementAdmin fileId={file.data.id} />
          ) : null}
          {isAdmin ? <FileVersions file={file.data} /> : null}
          {/* Decision 124: editing is behind "Bearbeiten" (/files/update), the long access tables folded. */}
          {isAdmin ? <AdminAccessAccordion type="file" id={file.data.id} /> : null}
        </>
      )}
    </Stack>
  );
}

/**
 * /files/show/{id}: the file; admins also get to its edit page, delete it, see and restore its
 * versions and see who opened it.
 */
export default function FileShowPage() {
  const id = useIdParam();
  return id === null ? <NotFoundPage /> : <FileShow key={id} id={id} />;
}
