import { Link } from 'react-router';
import { Anchor, Stack, Text, Title } from '@mantine/core';
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
const TEXT = {
  margin: 0,
  fontSize: 'var(--mantine-font-size-lg)',
  lineHeight: 1.5,
  whiteSpace: 'pre-wrap',
  overflowWrap: 'anywhere',
  hyphens: 'auto',
} as const;
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
 * so nobody mistakes the justification or a note for it.
 */
export function ResolutionText({ text, label = 'Beschlusstext' }: { text: string; label?: string }) {
  return (
    <figure style={FIGURE}>
      <figcaption style={CAPTION}>{label}</figcaption>
      <blockquote style={TEXT}>{text}</blockquote>
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
