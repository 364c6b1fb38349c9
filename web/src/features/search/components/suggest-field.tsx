import type { FormEvent, KeyboardEvent, ReactNode, RefObject } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Combobox, TextInput, useCombobox, VisuallyHidden } from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { errorMessage } from '../../../lib/api-client';
import { plural } from '../../../lib/plural';
import {
  suggestQueryOptions,
  TEXT_HITS_IN_LIST,
  textHitsQueryOptions,
  type SearchHit,
  type SuggestHit,
} from '../search.api';
import {
  folderOfLocation,
  hitHref,
  isSendableQuery,
  KIND_NAMES,
  normalizeQuery,
  QUERY_MAX_LENGTH,
  searchPageHref,
} from '../search.rules';
import { useDebounced } from '../use-debounced';
import { HighlightedText } from './highlighted-text';
import { HitIcon } from './hit-icon';
import classes from './search.module.css';

/** The pause after the last key before the list asks the server. */
export const SUGGEST_DEBOUNCE_MS = 250;
const ALL_HITS = 'alle-treffer';

const optionValue = (hit: Pick<SuggestHit, 'type' | 'id'>) => `${hit.type}-${hit.id}`;

function HitOption({ hit }: { hit: SuggestHit }) {
  const kind = KIND_NAMES[hit.type].one;
  return (
    <Combobox.Option value={optionValue(hit)} className={classes.option}>
      <HitIcon type={hit.type} format={hit.format} size={20} />
      <div className={classes.optionText}>
        <div className={classes.optionTitle}>
          <HighlightedText text={hit.title} ranges={hit.highlight} />
        </div>
        <div className={classes.optionMeta}>{hit.breadcrumb ? `${kind} · ${hit.breadcrumb}` : kind}</div>
      </div>
    </Combobox.Option>
  );
}

/** A document found by its text: title, then the piece of text around the match. */
function TextHitOption({ hit }: { hit: SearchHit }) {
  return (
    <Combobox.Option value={optionValue(hit)} className={classes.option}>
      <HitIcon type={hit.type} format={hit.format} size={20} />
      <div className={classes.optionText}>
        <div className={classes.optionTitle}>{hit.title}</div>
        <div className={classes.optionSnippet}>
          <HighlightedText text={hit.snippet!.text} ranges={hit.snippet!.ranges} />
        </div>
      </div>
    </Combobox.Option>
  );
}

interface SuggestFieldProps {
  query: string;
  onQueryChange: (query: string) => void;
  inputRef: RefObject<HTMLInputElement | null>;
  icon: ReactNode;
  /** The list as wide as the field (over the header on small screens) or wider (in the row). */
  fullWidth: boolean;
  /** After a hit or all hits were opened. */
  onDone: () => void;
  /** Escape while the list is closed. */
  onEscape: () => void;
  children?: ReactNode;
}

/**
 * The search field with its list (decision 129): after a short pause the first title hits appear
 * below it and, under "Im Text gefunden", the best documents whose text holds the query, as a
 * combobox (arrow keys move through them, Enter opens the chosen one). Enter
 * without a chosen hit, or the last entry, opens all hits on /search; inside a folder the search
 * stays in it.
 */
export function SuggestField(props: SuggestFieldProps) {
  const { query, onQueryChange, inputRef, icon, fullWidth, onDone, onEscape, children } = props;
  const navigate = useNavigate();
  const location = useLocation();
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const debounced = useDebounced(query, SUGGEST_DEBOUNCE_MS);
  const sendable = isSendableQuery(query);
  const asked = isSendableQuery(debounced);
  const suggest = useQuery({
    ...suggestQueryOptions(debounced),
    enabled: asked,
    placeholderData: keepPreviousData,
  });
  const inText = useQuery({
    ...textHitsQueryOptions(debounced),
    enabled: asked,
    placeholderData: keepPreviousData,
  });
  const hits = asked ? (suggest.data ?? []) : [];
  const titled = new Set(hits.map(optionValue));
  const textHits = asked
    ? (inText.data ?? []).filter((hit) => !titled.has(optionValue(hit))).slice(0, TEXT_HITS_IN_LIST)
    : [];
  const waiting =
    sendable && (!asked || normalizeQuery(debounced) !== normalizeQuery(query) || suggest.isPending);

  const go = (to: string) => {
    onQueryChange('');
    combobox.closeDropdown();
    onDone();
    void navigate(to);
  };
  const openAll = () => {
    if (normalizeQuery(query) !== '')
      go(searchPageHref(query, folderOfLocation(location.pathname, location.search)));
  };

  const handleOptionSubmit = (value: string) => {
    const hit = [...hits, ...textHits].find((candidate) => optionValue(candidate) === value);
    if (hit) go(hitHref(hit));
    else openAll();
  };

  const handleChange = (value: string) => {
    onQueryChange(value);
    combobox.resetSelectedOption();
    if (isSendableQuery(value)) combobox.openDropdown();
    else combobox.closeDropdown();
  };

  // The first Escape closes the list (Combobox does that), the next one is the caller's.
  const handleKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape' && !combobox.dropdownOpened) onEscape();
  };

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    openAll();
  };

  let status = '';
  if (sendable && waiting) status = 'Suche läuft …';
  else if (sendable && suggest.isError)
    status = errorMessage(suggest.error, 'Die Suche ist gerade nicht möglich.');
  else if (sendable && hits.length + textHits.length === 0)
    status = inText.isPending
      ? 'Kein Titel gefunden. Die Texte der Dokumente werden noch durchsucht …'
      : 'Nichts gefunden, weder im Titel noch im Text eines Dokuments.';
  else if (sendable) status = plural(hits.length + textHits.length, 'Vorschlag', 'Vorschläge');

  return (
    <form role="search" aria-label="Portal durchsuchen" onSubmit={handleSubmit} className={classes.form}>
      <Combobox
        store={combobox}
        onOptionSubmit={handleOptionSubmit}
        position="bottom-start"
        width={fullWidth ? 'target' : 448}
        offset={4}
        // In the header (its banner landmark) rather than at the end of the page.
        withinPortal={false}
      >
        <Combobox.Target withExpandedAttribute>
          <TextInput
            ref={inputRef}
            className={classes.field}
            aria-label="Suchen"
            placeholder="Suchen …"
            enterKeyHint="search"
            autoComplete="off"
            spellCheck={false}
            maxLength={QUERY_MAX_LENGTH}
            value={query}
            leftSection={icon}
            styles={{ input: { '--input-height': '2.75rem' } }}
            onChange={(event) => handleChange(event.currentTarget.value)}
            onKeyDown={handleKeyDown}
            onFocus={() => sendable && combobox.openDropdown()}
            onClick={() => sendable && combobox.openDropdown()}
            onBlur={() => combobox.closeDropdown()}
          />
        </Combobox.Target>
        <Combobox.Dropdown hidden={!sendable}>
          {hits.length + textHits.length === 0 ? <div className={classes.status}>{status}</div> : null}
          <Combobox.Options aria-label="Vorschläge">
            {hits.map((hit) => (
              <HitOption key={optionValue(hit)} hit={hit} />
            ))}
            {textHits.length > 0 ? (
              <Combobox.Group label="Im Text gefunden">
                {textHits.map((hit) => (
                  <TextHitOption key={optionValue(hit)} hit={hit} />
                ))}
              </Combobox.Group>
            ) : null}
            <Combobox.Option value={ALL_HITS} className={classes.allOption}>
              <IconArrowRight size={18} aria-hidden />
              <span>Alle Treffer für „{normalizeQuery(query)}“</span>
            </Combobox.Option>
          </Combobox.Options>
        </Combobox.Dropdown>
      </Combobox>
      {children}
      {/* Read out once the list has settled: how many hits it holds, or why it holds none. */}
      <VisuallyHidden role="status">{waiting ? '' : status}</VisuallyHidden>
    </form>
  );
}
