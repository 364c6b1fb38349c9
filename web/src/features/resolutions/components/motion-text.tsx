import { useEffect, useId, useRef, useState, type RefObject } from 'react';
import { Link } from 'react-router';
import { Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { IconLink } from '@tabler/icons-react';

// Inline rather than a style sheet: the pages' chunks then carry no extra file (decision 184).
const FIGURE = {
  margin: 0,
  border: '1px solid var(--mantine-color-gray-4)',
  borderLeft: '6px solid var(--mantine-color-brand-7)',
  borderRadius: 'var(--mantine-radius-md)',
  background: 'var(--mantine-color-gray-0)',
  padding: 'var(--mantine-spacing-sm) var(--mantine-spacing-md)',
} as const;
const CAPTION = {
  fontSize: 'var(--mantine-font-size-sm)',
  fontWeight: 700,
  textTransform: 'uppercase',
  letterSpacing: '0.04em',
  color: 'var(--mantine-color-gray-8)',
  marginBottom: 4,
} as const;
const LINE_HEIGHT = 1.5;
const TEXT = {
  margin: 0,
  fontSize: 'var(--mantine-font-size-lg)',
  lineHeight: LINE_HEIGHT,
  whiteSpace: 'pre-wrap',
  overflowWrap: 'anywhere',
  hyphens: 'auto',
} as const;
/** In a list only a long text folds: this many lines stay visible, inside the frame. */
export const FOLD_LINES = 8;
const FOLDED = {
  display: '-webkit-box',
  WebkitBoxOrient: 'vertical',
  WebkitLineClamp: FOLD_LINES,
  overflow: 'hidden',
} as const;
/** The text's size (1.125rem) where the browser cannot tell it. */
const FALLBACK_FONT_PX = 18;

/**
 * Whether a text that takes `height` pixels at `lineHeight` pixels a line is folded: only when it
 * has more than `lines` lines (half a line of tolerance for rounding). A short text never is.
 */
export const foldsAt = (height: number, lineHeight: number, lines = FOLD_LINES): boolean =>
  lineHeight > 0 && height > (lines + 0.5) * lineHeight;

/** Whether the element's whole text (folded or not) is longer than FOLD_LINES lines, as it is laid out. */
function useLongText(ref: RefObject<HTMLElement | null>, enabled: boolean, text: string): boolean {
  const [long, setLong] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!enabled || !element) return;
    const measure = () => {
      const fontSize = parseFloat(window.getComputedStyle(element).fontSize) || FALLBACK_FONT_PX;
      // scrollHeight is the whole text's height, also while the fold hides its end.
      setLong(foldsAt(element.scrollHeight, fontSize * LINE_HEIGHT));
    };
    measure();
    // A narrower window (a phone turned, a zoom) makes more lines of the same text.
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, enabled, text]);
  return enabled && long;
}

const DOCUMENTS = {
  listStyle: 'none',
  margin: 0,
  padding: 0,
  display: 'flex',
  flexDirection: 'column',
  gap: 6,
} as const;

/**
 * The exact text to be resolved, set apart from everything around it (a framed block with a bar),
 * so nobody mistakes the justification or a note for it. With `fold` (the Beschlussbuch's list) a
 * text of more than eight lines shows its first eight and a button for the rest, inside the frame.
 */
export function ResolutionText({
  text,
  label = 'Beschlusstext',
  fold = false,
}: {
  text: string;
  label?: string;
  fold?: boolean;
}) {
  const id = useId();
  const ref = useRef<HTMLQuoteElement>(null);
  const long = useLongText(ref, fold, text);
  const [expanded, setExpanded] = useState(false);
  const folded = long && !expanded;
  return (
    <figure style={FIGURE}>
      <figcaption style={CAPTION}>{label}</figcaption>
      <blockquote id={id} ref={ref} style={folded ? { ...TEXT, ...FOLDED } : TEXT}>
        {text}
      </blockquote>
      {long ? (
        <Button
          variant="subtle"
          size="compact-md"
          mt={4}
          ml={-6}
          px={6}
          aria-expanded={expanded}
          aria-controls={id}
          onClick={() => setExpanded((current) => !current)}
        >
          {expanded ? 'Weniger anzeigen' : 'Ganzen Text anzeigen'}
        </Button>
      ) : null}
    </figure>
  );
}

/** The linked documents the member may see, each a link to its page. */
export function LinkedDocuments({
  files,
  title = 'Dokumente',
}: {
  files: readonly { id: number; name: string }[];
  title?: string;
}) {
  if (files.length === 0) return null;
  return (
    <Stack gap={4}>
      <Title order={3} size="h5">
        {title}
      </Title>
      <ul style={DOCUMENTS}>
        {files.map((file) => (
          <li key={file.id} style={{ display: 'flex', alignItems: 'flex-start', gap: 6 }}>
            <IconLink size={18} aria-hidden style={{ flexShrink: 0, marginTop: 3 }} />
            <Anchor component={Link} to={`/files/show/${file.id}`} style={{ overflowWrap: 'anywhere' }}>
              {file.name}
            </Anchor>
          </li>
        ))}
      </ul>
    </Stack>
  );
}

/** A justification or note in the reader's paragraphs (line breaks kept). */
export function Paragraphs({ children }: { children: string }) {
  return (
    <Text style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} component="div">
      {children}
    </Text>
  );
}
