import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { VERSION_MESSAGES } from '@gremienportal/contracts/versions';
import { openConfirmDialog } from '../../../components/confirm-dialog';
import { ErrorState } from '../../../components/error-state';
import { LoadingState } from '../../../components/loading-state';
import { showFailureToast, showSuccessToast } from '../../../components/toasts';
import { PageSection } from '../../../components/page-section';
import {
  downloadFileVersion,
  fileVersionsQueryOptions,
  useRestoreVersion,
  viewFileVersion,
  type FileVersion,
  type StoredFile,
} from '../files.api';
import { VersionTable, type VersionActions } from './version-table';

/** The question before a restore: which version comes back, and that nothing is lost. */
export function restoreQuestion(restored: number, current: number | undefined): string {
  const kept = current === undefined ? '' : ` Die bisherige aktuelle Version ${current} bleibt erhalten.`;
  return `Der Inhalt von Version ${restored} wird als neue aktuelle Version gespeichert.${kept}`;
}

/**
 * "Versionen" on a file's page, for admins (decision 125): every stored content with who stored and
 * replaced it, to download or view, and older ones to restore as a new current version.
 */
export function FileVersions({ file }: { file: StoredFile }) {
  const versions = useQuery(fileVersionsQueryOptions(file.id));
  const restore = useRestoreVersion(file.id);
  const [busy, setBusy] = useState<VersionActions['busy']>(null);
  const headingId = `versionen-${file.id}`;

  const open = async (version: FileVersion, kind: 'view' | 'download') => {
    setBusy({ version: version.version, kind });
    try {
      await (kind === 'view' ? viewFileVersion(file.id, version) : downloadFileVersion(file, version));
    } catch {
      // product.md P12: a failed download shows no message.
    } finally {
      setBusy(null);
    }
  };

  const confirmRestore = (version: FileVersion) =>
    openConfirmDialog({
      title: `Version ${version.version} wiederherstellen`,
      message: restoreQuestion(version.version, versions.data?.find((entry) => entry.current)?.version),
      confirmLabel: 'Wiederherstellen',
      danger: false,
      onConfirm: () =>
        restore.mutate(version.version, {
          onSuccess: () => showSuccessToast(VERSION_MESSAGES.restored),
          onError: (error) => showFailureToast(VERSION_MESSAGES.restoreFailed, error),
        }),
    });

  const actions: VersionActions = {
    busy,
    onView: (version) => void open(version, 'view'),
    onDownload: (version) => void open(version, 'download'),
    // An archived document keeps its content (decision 189): its versions can only be read.
    ...(file.archived ? {} : { onRestore: confirmRestore }),
    restoring: restore.isPending,
  };

  return (
    <PageSection
      id={headingId}
      title={VERSION_MESSAGES.title}
      gap="sm"
      description="Nur für Admins sichtbar. Ein Austausch der Datei behält die bisherige Version; jede Version lässt sich wiederherstellen."
    >
      {versions.isPending ? (
        <LoadingState />
      ) : versions.isError ? (
        <ErrorState
          message={VERSION_MESSAGES.loadFailed}
          detail={versions.error.message}
          onRetry={() => void versions.refetch()}
        />
      ) : (
        <VersionTable
          versions={versions.data}
          actions={actions}
          fetching={versions.isFetching || restore.isPending}
          labelledBy={headingId}
        />
      )}
    </PageSection>
  );
}
