import { Suspense, useState, type ReactElement, type ReactNode } from 'react';

/**
 * A menu whose code loads on first use: until then the page shows `trigger` (a plain button with
 * the menu button's name and look); its first click renders `children` (the real menu, a lazily
 * loaded component given `defaultOpened`) in the trigger's place. Mantine's Menu and Popover are
 * code that the first paint of /files does not need (bundle budget, decisions 024 and 073).
 */
export function DeferredMenu({
  trigger,
  children,
}: {
  /** Rendered with the click handler; must look and be named like the real menu's target. */
  trigger: (onClick: () => void) => ReactElement;
  children: ReactNode;
}): ReactNode {
  const [active, setActive] = useState(false);
  const placeholder = trigger(() => setActive(true));
  if (!active) return placeholder;
  return <Suspense fallback={placeholder}>{children}</Suspense>;
}
