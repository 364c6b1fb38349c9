import { lazy, Suspense } from 'react';
import { LoadingState } from '../../components/loading-state';

// The signed-in shell and what only it needs load after the login, not with it.
const AppLayout = lazy(() => import('./app-layout'));

export function LazyAppLayout() {
  return (
    <Suspense fallback={<LoadingState />}>
      <AppLayout />
    </Suspense>
  );
}
