import { Suspense, useLayoutEffect, useRef, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { LoadingState } from '../../components/loading-state';
import { MAIN_CONTENT_ID } from './skip-link';
import { classes } from './layout-classes';

/**
 * The <main> landmark. After a client-side navigation focus moves here, and from here to the new
 * page's heading as soon as it is there (PageTitle), so screen readers and keyboards start at the
 * new page instead of on the clicked link or on <body> (decision 183). A layout effect, so <main>
 * has focus before the heading's own effect asks for it. With `fillScreen` (the signed-in pages)
 * it is at least as tall as the screen below the header, so the footer never shows under a page
 * that is still loading and is then pushed away by its content (a layout shift, decision 184).
 */
export function MainContent({ children, fillScreen = false }: { children: ReactNode; fillScreen?: boolean }) {
  const ref = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  const firstRender = useRef(true);

  useLayoutEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    // What the new page focused itself (the login's e-mail field) keeps focus.
    const active = document.activeElement;
    if (active !== ref.current && ref.current?.contains(active)) return;
    ref.current?.focus({ preventScroll: true });
  }, [pathname]);

  return (
    <main
      id={MAIN_CONTENT_ID}
      ref={ref}
      tabIndex={-1}
      className={fillScreen ? `${classes.main} ${classes.pageLoading}` : classes.main}
    >
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
