import { lazy, Suspense, useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import {
  Alert,
  Anchor,
  Box,
  Button,
  Drawer,
  Group,
  Paper,
  Stack,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconAlertTriangle, IconClockHour4, IconFolders } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { ROOT_FOLDER_ID } from '@gremienportal/contracts/rules';
import { FOLDER_MESSAGES } from '@gremienportal/contracts/file-messages';
import { ErrorState } from '../../components/error-state';
import { PageTitle } from '../../components/page-title';
import { useAuth } from '../../lib/auth';
import { folderItemsQueryOptions, treeQueryOptions, type Folder } from '../../features/folders/folders.api';
import type { StoredFile } from '../../features/files/files.api';
import {
  folderIdFromParam,
  folderSearch,
  holdsArchived,
  indexTree,
} from '../../features/folders/folders.rules';
import { ContactBox } from './contact-box';
import { EXPLORER_PAGE_SIZE, ExplorerGrid, ExplorerGridSkeleton } from './explorer-grid';
import type { ActiveFolder, ExplorerModalState } from './explorer-modal.types';
import { ExplorerModals } from './explorer-modals';
import { ContentSkeleton, TreeSkeleton } from './explorer-skeletons';
import { ExplorerToolbar, type ToolbarAction } from './explorer-toolbar';
import { FolderTree, type FolderTreeItem } from '../../features/folders/components/folder-tree';
import { PathBar } from '../../features/folders/components/path-bar';
import { showFailureToast } from '../../components/toasts';
import { useDeleteWithConfirmation } from './use-delete-with-confirmation';
import type { RowActionHandler } from './explorer-row-menu';
import { FolderNews } from './folder-news';
import touch from './touch.module.css';

// The file dialog (loaded once the grid has its rows) and "Neu für Sie" (decision 131) stay out of the
// page's first load (decision 024); a folder's new-documents bar is part of it, so the grid's rows
// never move when it arrives.
const loadFileDialog = () => import('../../features/files/components/file-dialog');
const FileDialog = lazy(() => loadFileDialog().then((module) => ({ default: module.FileDialog })));
const ExplorerNews = lazy(() => import('./explorer-news'));

/** The explorer's address parameter: `/files?folder=12` (decision 070). */
export const FOLDER_PARAM = 'folder';

/** Longest wait for the first paint; a tab in the background paints no frames at all. */
const FIRST_PAINT_TIMEOUT_MS = 200;

/**
 * False until the browser has painted the explorer once (heading, tree and grid placeholders),
 * then true. What is not needed for that paint waits for it: the two large requests (tree and
 * items), whose answers a fast server otherwise delivers before the page has painted anything,
 * and the closed drawer and dialogs, whose portals each force an extra synchronous render while
 * they mount (decision 114).
 */
function usePaintedOnce(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    const done = () => setPainted(true);
    let afterPaint: ReturnType<typeof setTimeout> | undefined;
    // A frame callback runs right before the paint; a task it queues runs right after it.
    const frame = requestAnimationFrame(() => {
      afterPaint = setTimeout(done);
    });
    const fallback = setTimeout(done, FIRST_PAINT_TIMEOUT_MS);
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(afterPaint);
      clearTimeout(fallback);
    };
  }, []);
  return painted;
}

/** The grid's folder links stay on the explorer: `?folder=ID`. Stable, so the grid stays memoised. */
const explorerFolderLink = (folder: Folder) => `?${FOLDER_PARAM}=${folder.id}`;

/**
 * The file explorer at / and /files (product.md P3): folder tree with contact box, the current path
 * with a back button, the admins' button row and the grid of the active folder. The active folder
 * lives in the address (`?folder=ID`), so back, forward, reload and shared links work.
 */
export function FileExplorer() {
  const { isAdmin, user } = useAuth();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const folderId = folderIdFromParam(searchParams.get(FOLDER_PARAM));
  const painted = usePaintedOnce();
  const tree = useQuery({ ...treeQueryOptions(), enabled: painted });
  const items = useQuery({ ...folderItemsQueryOptions(folderId), enabled: painted });
  // The dialog's code follows the grid's rows, so it never competes with the tree and the items.
  const itemsLoaded = items.data !== undefined;
  useEffect(() => {
    if (itemsLoaded) void loadFileDialog();
  }, [itemsLoaded]);
  const [selectedFile, setSelectedFile] = useState<StoredFile | null>(null);
  const [modal, setModal] = useState<ExplorerModalState | null>(null);
  const [treeOpened, treeDrawer] = useDisclosure(false);

  const openFolder = useCallback(
    (id: number, options: { replace?: boolean } = {}) => navigate({ search: folderSearch(id) }, options),
    [navigate],
  );
  const selectTreeNode = useCallback((node: FolderTreeItem) => openFolder(node.id), [openFolder]);

  const { confirmDeleteFile, confirmDeleteFolder, deleting } = useDeleteWithConfirmation({
    failure: 'toast',
    // product.md P4: after deleting a folder the view moves to its parent.
    onFolderDeleted: (folder) => openFolder(folder.parent_id ?? ROOT_FOLDER_ID, { replace: true }),
  });

  // product.md P12: a tree that cannot be loaded is reported with a toast as well.
  useEffect(() => {
    if (tree.isError) showFailureToast(FOLDER_MESSAGES.loadFailed, tree.error);
  }, [tree.isError, tree.error, tree.errorUpdateCount]);

  // What the page shows: the folder with its tree and items, taken over as one deferred value.
  // Rendering a loaded tree and up to 50 rows is the explorer's largest piece of work; deferred,
  // React does it in small interruptible steps instead of one long task, and path, tree and grid
  // always show the same folder (decision 114).
  const latest = useMemo(
    () => ({ folderId, root: tree.data, items: items.data }),
    [folderId, tree.data, items.data],
  );
  const shown = useDeferredValue(latest);
  const { root } = shown;
  const shownId = shown.folderId;
  // Built once per loaded tree; every render below only reads from it.
  const index = useMemo(() => (root ? indexTree(root) : undefined), [root]);
  const activeNode = index?.node(shownId);
  const chain = useMemo(() => index?.chain(shownId) ?? [], [index, shownId]);
  const activePath = activeNode?.breadcrumb ?? '/';
  const unknownFolder = root !== undefined && activeNode === undefined;
  const parentNode = index?.parent(shownId);
  const activeFolder: ActiveFolder | undefined = activeNode
    ? {
        id: activeNode.id,
        title: activeNode.title,
        breadcrumb: activeNode.breadcrumb,
        roles: activeNode.roles,
        parent_id: parentNode?.id ?? null,
        archived: activeNode.archived,
      }
    : undefined;
  // The path bar and heading need the tree, the grid its items: until the tree is there (or has
  // failed) all three wait together; once it is, the tree says how many rows the grid will have.
  const treeLoading = root === undefined && !tree.isError;
  const itemsLoading = shown.items === undefined && !items.isError;
  const itemCount = activeNode ? activeNode.children.length + activeNode.fileCount : undefined;
  const contentReady = !treeLoading && (!itemsLoading || unknownFolder);

  // The folder rows' "⋮" menus: one stable handler, so the memoised grid keeps its rows (decision
  // 114); it calls the latest delete function through a ref.
  const rowActionRef = useRef<RowActionHandler>(() => undefined);
  useEffect(() => {
    rowActionRef.current = (_action, folder) => void confirmDeleteFolder(folder.id);
  });
  const handleRowAction = useCallback<RowActionHandler>(
    (action, folder) => rowActionRef.current(action, folder),
    [],
  );

  const handleAction = (action: ToolbarAction) => {
    if (action === 'delete-folder') void confirmDeleteFolder(shownId);
    else setModal({ kind: action });
  };

  const treePanel = (onAfterSelect?: () => void) =>
    tree.isError ? (
      <ErrorState detail={tree.error.message} onRetry={() => void tree.refetch()} />
    ) : root ? (
      <FolderTree
        root={root}
        activePath={activePath}
        activeId={shownId}
        onSelect={selectTreeNode}
        onAfterSelect={onAfterSelect}
      />
    ) : (
      <TreeSkeleton />
    );

  return (
    <Stack gap="md">
      <Group justify="space-between" align="baseline" gap="xs">
        <PageTitle>Dateien</PageTitle>
        <Anchor component={Link} to="/old" size="sm" className={touch.link}>
          <IconClockHour4 size={16} aria-hidden />
          Übersicht aktueller Dateien
        </Anchor>
      </Group>
      {searchParams.has(FOLDER_PARAM) ? null : (
        <Suspense>
          <ExplorerNews onShowFileDialog={setSelectedFile} />
        </Suspense>
      )}
      <Group align="flex-start" gap="lg" wrap="nowrap">
        <Box visibleFrom="md" w={290} style={{ flexShrink: 0 }}>
          <Stack gap="md">
            <Paper withBorder radius="md" p="xs">
              {treePanel()}
            </Paper>
            {/* Below the tree: shown once the tree has its height, so the tree never pushes it. */}
            {treeLoading ? null : <ContactBox roles={user?.roles ?? []} />}
          </Stack>
        </Box>
        <Stack gap="md" style={{ flex: 1, minWidth: 0 }}>
          <Button
            hiddenFrom="md"
            variant="default"
            leftSection={<IconFolders size={18} aria-hidden />}
            onClick={treeDrawer.open}
            aria-haspopup="dialog"
            fullWidth
          >
            Ordnerbaum öffnen
          </Button>
          {treeLoading ? (
            <ContentSkeleton atRoot={shownId === ROOT_FOLDER_ID} />
          ) : (
            <>
              <PathBar
                chain={chain.length > 0 ? chain : [{ id: ROOT_FOLDER_ID, title: '/', breadcrumb: '/' }]}
                onSelect={(id) => openFolder(id)}
              />
              {unknownFolder ? (
                <Alert
                  color="yellow"
                  variant="light"
                  icon={<IconAlertTriangle aria-hidden />}
                  title="Ordner nicht gefunden"
                >
                  Diesen Ordner gibt es nicht oder Sie dürfen ihn nicht sehen.{' '}
                  <Anchor component={Link} to={{ search: '' }}>
                    Zum Hauptordner
                  </Anchor>
                </Alert>
              ) : (
                <>
                  {activeNode && activeNode.id !== ROOT_FOLDER_ID && activeNode.new_count > 0 ? (
                    <FolderNews folder={activeNode} />
                  ) : null}
                  {isAdmin ? (
                    <ExplorerToolbar
                      folderId={shownId}
                      onAction={handleAction}
                      deleting={deleting}
                      archived={activeNode?.archived ?? false}
                      holdsArchived={activeNode ? holdsArchived(activeNode) : false}
                    />
                  ) : null}
                  <section aria-labelledby="explorer-grid-title">
                    {/* The path bar above shows the folder's name; the heading is for screen readers. */}
                    <VisuallyHidden>
                      <Title order={2} id="explorer-grid-title">
                        {activeNode && activeNode.id !== ROOT_FOLDER_ID ? activeNode.title : 'Hauptordner'}
                      </Title>
                    </VisuallyHidden>
                    {shown.items ? (
                      <ExplorerGrid
                        key={shownId}
                        items={shown.items}
                        label={`Inhalt von ${activePath}`}
                        folderLink={explorerFolderLink}
                        onShowFileDialog={setSelectedFile}
                        fetching={items.isFetching}
                        onRowAction={handleRowAction}
                        isAdmin={isAdmin}
                      />
                    ) : items.isError ? (
                      <ErrorState detail={items.error.message} onRetry={() => void items.refetch()} />
                    ) : (
                      <ExplorerGridSkeleton
                        rows={
                          itemCount === undefined ? undefined : Math.min(itemCount, EXPLORER_PAGE_SIZE) || 1
                        }
                        withPager={itemCount !== undefined && itemCount > EXPLORER_PAGE_SIZE}
                      />
                    )}
                  </section>
                </>
              )}
            </>
          )}
          {/* On a phone the box follows the grid: it appears with the grid rather than being pushed. */}
          {contentReady ? (
            <Box hiddenFrom="md">
              <ContactBox roles={user?.roles ?? []} />
            </Box>
          ) : null}
        </Stack>
      </Group>

      {painted ? (
        <>
          <Drawer
            opened={treeOpened}
            onClose={treeDrawer.close}
            title="Ordnerbaum"
            size={320}
            hiddenFrom="md"
          >
            {treePanel(treeDrawer.close)}
          </Drawer>
          <Suspense>
            <FileDialog
              file={selectedFile}
              isAdmin={isAdmin}
              onClose={() => setSelectedFile(null)}
              onEdit={(file) => {
                setSelectedFile(null);
                setModal({ kind: 'edit-file', file });
              }}
              onDelete={(file) => {
                setSelectedFile(null);
                confirmDeleteFile(file);
              }}
            />
          </Suspense>
          {isAdmin && activeFolder ? (
            <ExplorerModals modal={modal} folder={activeFolder} onClose={() => setModal(null)} />
          ) : null}
        </>
      ) : null}
    </Stack>
  );
}
