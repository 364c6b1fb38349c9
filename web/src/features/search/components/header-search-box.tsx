import { useEffect, useRef, useState, type ReactElement, type ReactNode } from 'react';
import { CloseButton } from '@mantine/core';
import { SuggestField } from './suggest-field';
import classes from './search.module.css';

/** Phones and 62em–75em (the full navigation takes the header row): the field opens over the row. */
const COMPACT = '(max-width: 47.99em), (min-width: 62em) and (max-width: 74.99em)';

export interface HeaderSearchBoxProps {
  /** How often the header asked to open the search (a click, `/`, Ctrl+K); each time opens it. */
  asked: number;
  /** The header's button; where the field does not fit in the row it stays, as a search icon. */
  trigger: ReactElement;
  icon: ReactNode;
}

type Mode = 'inline' | 'overlay' | 'closed';

/**
 * The header's search once loaded (decision 129): the field in the header row, or where the row has
 * no room, over it with a close button. Each request to open it focuses the field.
 */
export default function HeaderSearchBox({ asked, trigger, icon }: HeaderSearchBoxProps) {
  const [opened, setOpened] = useState<{ asked: number; mode: Mode }>({ asked: 0, mode: 'closed' });
  // A new request decides again where the field goes: the screen may have changed since.
  if (opened.asked !== asked) setOpened({ asked, mode: matchMedia(COMPACT).matches ? 'overlay' : 'inline' });
  const { mode } = opened;
  const [query, setQuery] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);
  const slotRef = useRef<HTMLSpanElement>(null);

  useEffect(() => {
    if (mode !== 'closed') inputRef.current?.focus();
  }, [mode, asked]);

  const close = (restoreFocus: boolean) => {
    setOpened((current) => ({ ...current, mode: 'closed' }));
    if (restoreFocus) slotRef.current?.querySelector('button')?.focus();
  };

  const field = (overlay: boolean, children?: ReactNode) => (
    <SuggestField
      query={query}
      onQueryChange={setQuery}
      inputRef={inputRef}
      icon={icon}
      fullWidth={overlay}
      onDone={() => overlay && close(false)}
      onEscape={() => (overlay ? close(true) : setQuery(''))}
    >
      {children}
    </SuggestField>
  );

  return (
    <>
      {mode === 'inline' ? <div className={classes.inline}>{field(false)}</div> : null}
      <span ref={slotRef} className={classes.slot}>
        {trigger}
      </span>
      {mode === 'overlay' ? (
        <div className={classes.overlay}>
          {field(true, <CloseButton size="lg" aria-label="Suche schließen" onClick={() => close(true)} />)}
        </div>
      ) : null}
    </>
  );
}
