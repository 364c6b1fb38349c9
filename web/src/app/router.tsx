import { lazy } from 'react';
import { createBrowserRouter, Navigate, useParams, type RouteObject } from 'react-router';
import { useAuth } from '../lib/auth';
import { parseId } from '../lib/route-params';
import { AuthAwareLayout, PublicOnly, RequireAdmin, RequireAuth } from './guards';
import { LazyAppLayout } from './layouts/lazy-app-layout';
import { PublicLayout } from './layouts/public-layout';
import { RootRoute } from './providers';
import NotFoundPage from './routes/not-found';
import RouteErrorPage from './routes/route-error';

// Every page is its own chunk, so the login page loads only what it needs.
const ForgotPasswordPage = lazy(() => import('./routes/forgot-password'));
const ResetPasswordPage = lazy(() => import('./routes/reset-password'));
const InvitationPage = lazy(() => import('./routes/invitation'));
const WelcomePage = lazy(() => import('./routes/welcome'));
const FilesPage = lazy(() => import('./routes/files'));
const OldOverviewPage = lazy(() => import('./routes/old'));
const FileNewPage = lazy(() => import('./routes/file-new'));
const FileShowPage = lazy(() => import('./routes/file-show'));
const FileUpdatePage = lazy(() => import('./routes/file-update'));
const FolderShowPage = lazy(() => import('./routes/folder-show'));
const FolderUpdatePage = lazy(() => import('./routes/folder-update'));
const EventsPage = lazy(() => import('./routes/events'));
const EventShowPage = lazy(() => import('./routes/event-show'));
const EventUpdatePage = lazy(() => import('./routes/event-update'));
const EventAgendaPage = lazy(() => import('./routes/event-agenda'));
const AccountPage = lazy(() => import('./routes/account'));
const UsersPage = lazy(() => import('./routes/users'));
const UserShowPage = lazy(() => import('./routes/user-show'));
const UserUpdatePage = lazy(() => import('./routes/user-update'));
const AuditPage = lazy(() => import('./routes/audit'));
const TrashPage = lazy(() => import('./routes/trash'));
const ApiKeysPage = lazy(() => import('./routes/api-keys'));
const SearchPage = lazy(() => import('./routes/search'));
const CommitteesPage = lazy(() => import('./routes/committees'));
const CommitteeShowPage = lazy(() => import('./routes/committee-show'));
const ResolutionsPage = lazy(() => import('./routes/resolutions'));
const ResolutionShowPage = lazy(() => import('./routes/resolution-show'));
const MotionShowPage = lazy(() => import('./routes/motion-show'));
const MotionEditPage = lazy(() => import('./routes/motion-edit'));

/** "/" is the file explorer when signed in and a welcome page with the way to the login otherwise. */
function HomeRoute() {
  const { isAuthenticated } = useAuth();
  return isAuthenticated ? <FilesPage /> : <WelcomePage />;
}

/** /user/{id} is the other reading of the user view (product.md P2.2). */
function UserIdRedirect() {
  const id = parseId(useParams().id);
  return id === null ? <NotFoundPage /> : <Navigate to={`/user/show/${id}`} replace />;
}

export const routes: RouteObject[] = [
  {
    element: <RootRoute />,
    errorElement: <RouteErrorPage />,
    // A first visit of /login renders nothing until its preloaded chunk is there (below), then
    // the whole page at once: frame and form in one render and one paint.
    HydrateFallback: () => null,
    children: [
      {
        element: <PublicOnly />,
        children: [
          {
            element: <PublicLayout />,
            children: [
              {
                errorElement: <RouteErrorPage />,
                children: [
                  // index.html preloads this chunk with the entry (decision 115). As a lazy *route*
                  // the router renders the page once its module is there; React.lazy would first
                  // commit a Suspense fallback and keep it for at least 300 ms, even for a module
                  // that is already loaded. Later visits (after signing out) find it loaded.
                  {
                    path: 'login',
                    lazy: async () => ({ Component: (await import('./routes/login')).default }),
                  },
                  { path: 'forgot-password', element: <ForgotPasswordPage /> },
                  { path: 'reset-password', element: <ResetPasswordPage /> },
                  { path: 'willkommen', element: <InvitationPage /> },
                ],
              },
            ],
          },
        ],
      },
      {
        element: <RequireAuth />,
        children: [
          {
            element: <LazyAppLayout />,
            children: [
              {
                errorElement: <RouteErrorPage />,
                children: [
                  { path: 'files', element: <FilesPage /> },
                  { path: 'files/show/:id', element: <FileShowPage /> },
                  { path: 'folders/show/:id', element: <FolderShowPage /> },
                  { path: 'old', element: <OldOverviewPage /> },
                  { path: 'events', element: <EventsPage /> },
                  { path: 'events/show/:id', element: <EventShowPage /> },
                  { path: 'search', element: <SearchPage /> },
                  // Members see the committees they belong to; the server filters (admins: all).
                  { path: 'gremien', element: <CommitteesPage /> },
                  { path: 'gremien/:id', element: <CommitteeShowPage /> },
                  // Beschlüsse (decision 190): the server shows each member their committees' motions
                  // and entries, and answers 403 or 404 for the rest; the pages offer what `may` allows.
                  { path: 'beschluesse', element: <ResolutionsPage /> },
                  { path: 'beschluesse/:id', element: <ResolutionShowPage /> },
                  { path: 'beschluesse/vorlagen/neu', element: <MotionEditPage /> },
                  { path: 'beschluesse/vorlagen/:id', element: <MotionShowPage /> },
                  { path: 'beschluesse/vorlagen/:id/bearbeiten', element: <MotionEditPage /> },
                  { path: 'account', element: <AccountPage /> },
                  { path: 'user/:id', element: <UserIdRedirect /> },
                  // Members may view their own account here; the server answers 403 for others.
                  { path: 'user/show/:id', element: <UserShowPage /> },
                  {
                    element: <RequireAdmin />,
                    children: [
                      { path: 'files/new', element: <FileNewPage /> },
                      { path: 'files/update/:id', element: <FileUpdatePage /> },
                      { path: 'folders/update/:id', element: <FolderUpdatePage /> },
                      { path: 'events/update/:id', element: <EventUpdatePage /> },
                      { path: 'events/agenda/:id', element: <EventAgendaPage /> },
                      { path: 'user', element: <UsersPage /> },
                      { path: 'user/update/:id', element: <UserUpdatePage /> },
                      { path: 'audit', element: <AuditPage /> },
                      { path: 'trash', element: <TrashPage /> },
                      // Super-Admins only: the page itself shows the 404 page to Admins.
                      { path: 'api-keys', element: <ApiKeysPage /> },
                    ],
                  },
                ],
              },
            ],
          },
        ],
      },
      {
        element: <AuthAwareLayout />,
        children: [
          {
            errorElement: <RouteErrorPage />,
            children: [
              { index: true, element: <HomeRoute /> },
              { path: '*', element: <NotFoundPage /> },
            ],
          },
        ],
      },
    ],
  },
];

export const createAppRouter = () => createBrowserRouter(routes);
