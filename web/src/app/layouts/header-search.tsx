import { useCallback, useEffect, useState, type ComponentType } from 'react';
import type { HeaderSearchBoxProps } from '../../features/search/components/header-search-box';
import classes from './header-search.module.css';

/** Keys pressed here are typing or work in a dialog, not the search shortcut. */
const TYPING = 'input,textarea,select,[contenteditable],[role=dialog]';

/** Tabler's search icon, drawn here: as an import it would be one more file on the first load. */
const icon = (
  <svg
    width="20"
    height="20"
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth="2"
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden
  >
    <path d="M3 10a7 7 0 1 0 14 0a7 7 0 1 0 -14 0M21 21l-6 -6" />
  </svg>
);

/**
 * The header's search (decision 129). The field with its list of hits (Mantine's Combobox and
 * Popover) loads on first use (decision 129): until then this button stands
 * in, drawn as the field on wide screens and as a search icon elsewhere. `/` and Ctrl+K open it
 * from anywhere but a text field or a dialog. Loaded by hand rather than with React.lazy, so the
 * button stays until the field can take its place, without a Suspense fallback in between.
 */
export function HeaderSearch() {
  const [Box, setBox] = useState<ComponentType<HeaderSearchBoxProps>>();
  // Counts the requests to open it: each one opens and focuses the field again.
  const [asked, setAsked] = useState(0);

  const load = useCallback(
    () =>
      void import('../../features/search/components/header-search-box').then(
        (module) => setBox(() => module.default),
        // A chunk that fails to load (offline, a new release) leaves the button; the next try loads it.
        () => undefined,
      ),
    [],
  );
  const open = useCallback(() => {
    setAsked((count) => count + 1);
    load();
  }, [load]);

  useEffect(() => {
    const handleKeyDown = (event: KeyboardEvent) => {
      const key = event.key.toLowerCase();
      const shortcut = event.ctrlKey || event.metaKey ? key === 'k' : key === '/';
      if (!shortcut || event.altKey || (event.target as Element).closest?.(TYPING)) return;
      event.preventDefault();
      open();
    };
    addEventListener('keydown', handleKeyDown);
    return () => removeEventListener('keydown', handleKeyDown);
  }, [open]);

  const trigger = (
    <button
      type="button"
      className={classes.trigger}
      aria-label="Suchen"
      aria-keyshortcuts="/ Control+K"
      onClick={open}
      onPointerEnter={load}
    >
      {icon}
      <span>Suchen …</span>
      <kbd>/</kbd>
    </button>
  );
  return (
    <div className={classes.search}>
      {Box && asked ? <Box asked={asked} trigger={trigger} icon={icon} /> : trigger}
    </div>
  );
}
