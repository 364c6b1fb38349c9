import { Suspense, useEffect, useRef, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { LoadingState } from '../../components/loading-state';
import { MAIN_CONTENT_ID } from './skip-link';
import { classes } from './layout-classes';

/**
 * The <main> landmark. After a client-side navigation focus moves here, so screen readers start
 * reading the new page instead of staying on the clicked link.
 */
export function MainContent({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  const firstRender = useRef(true);

  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    ref.current?.focus({ preventScroll: true });
  }, [pathname]);

  return (
    <main id={MAIN_CONTENT_ID} ref={ref} tabIndex={-1} className={classes.main}>
      <Suspense
        fallback={
          // As tall as the screen below the header: the footer waits below the fold while a page's
          // code loads, instead of showing under the loading text and being pushed away by the
          // page (the explorer's skeleton alone fills the screen; decision 114).
          <div className={classes.pageLoading}>
            <LoadingState />
          </div>
        }
      >
        {children}
      </Suspense>
    </main>
  );
}
