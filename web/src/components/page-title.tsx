import { useEffect, useRef, type ReactNode } from 'react';
import { Title, type TitleOrder } from '@mantine/core';

export const APP_NAME = 'Gremienportal';

/** Sets the browser tab's title, e.g. "Einloggen – Gremienportal". */
export function useDocumentTitle(title: string | undefined): void {
  useEffect(() => {
    document.title = title ? `${title} – ${APP_NAME}` : APP_NAME;
  }, [title]);
}

interface PageTitleProps {
  children: ReactNode;
  /** The tab title when the heading is not plain text. */
  documentTitle?: string;
  order?: TitleOrder;
}

/**
 * The page's one main heading; it also names the browser tab. After a page change the layout
 * focuses <main> and the heading takes focus from there when it appears (decision 183); it is
 * focusable by script, not by Tab.
 */
export function PageTitle({ children, documentTitle, order = 1 }: PageTitleProps) {
  useDocumentTitle(documentTitle ?? (typeof children === 'string' ? children : undefined));
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (document.activeElement?.tagName === 'MAIN') ref.current?.focus({ preventScroll: true });
  }, []);
  return (
    <Title ref={ref} order={order} mb="lg" fz={{ base: 26, sm: 30 }} tabIndex={-1}>
      {children}
    </Title>
  );
}
