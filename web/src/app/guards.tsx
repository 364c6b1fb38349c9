import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation, type Location } from 'react-router';
import { useAuth } from '../lib/auth';
import { LazyAppLayout } from './layouts/lazy-app-layout';
import { PublicLayout } from './layouts/public-layout';
import NotFoundPage from './routes/not-found';

/** What a redirect to /login carries so the user returns there after signing in. */
export interface FromState {
  from?: Pick<Location, 'pathname' | 'search' | 'hash'>;
}

const AUTH_PAGES = ['/login', '/forgot-password', '/reset-password'];

/** Where to go after signing in: the remembered in-app location, else the start page. */
export function returnTarget(state: unknown): string {
  const from = (state as FromState | null)?.from;
  if (!from || typeof from.pathname !== 'string') return '/';
  // Only paths inside the app; "//host" would leave it.
  if (!from.pathname.startsWith('/') || from.pathname.startsWith('//')) return '/';
  if (AUTH_PAGES.includes(from.pathname)) return '/';
  return `${from.pathname}${from.search ?? ''}${from.hash ?? ''}`;
}

/** Signed-in-only routes: signed-out users go to /login, which remembers where they came from. */
export function RequireAuth({ children }: { children?: ReactNode }) {
  const { isAuthenticated, signOutReason } = useAuth();
  const location = useLocation();
  if (!isAuthenticated) {
    // After "Abmelden" the next person at this browser starts at the start page.
    if (signOutReason === 'logout') return <Navigate to="/login" replace />;
    const state: FromState = {
      from: { pathname: location.pathname, search: location.search, hash: location.hash },
    };
    return <Navigate to="/login" replace state={state} />;
  }
  return children ?? <Outlet />;
}

/** Admin functions show the 404 page to everybody else; the server refuses them anyway. */
export function RequireAdmin() {
  const { isAdmin } = useAuth();
  return isAdmin ? <Outlet /> : <NotFoundPage />;
}

/** Login and password pages: signed-in users are sent where they came from, or to /. */
export function PublicOnly() {
  const { isAuthenticated } = useAuth();
  const location = useLocation();
  if (isAuthenticated) return <Navigate to={returnTarget(location.state)} replace />;
  return <Outlet />;
}

/** For pages open to both (start page, 404): the frame that fits the visitor. */
export function AuthAwareLayout() {
  const { isAuthenticated } = useAuth();
  return isAuthenticated ? <LazyAppLayout /> : <PublicLayout />;
}
