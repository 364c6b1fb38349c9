import { useEffect, useState, type CSSProperties } from 'react';
import { Button, Group, Loader, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconFileSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { ROOT_FOLDER_ID } from '@gremienportal/contracts/rules';
import { plural } from '../../../../lib/plural';
import type { DraftDocument } from '../../agenda-draft';
import { pickerSearchQueryOptions } from '../../agenda.api';
import { DocumentOption, FolderContents, PLAIN_LIST, type PickerSelection } from './picker-folder-tree';

const FOOTER: CSSProperties = {
  position: 'sticky',
  bottom: 0,
  background: 'var(--mantine-color-body)',
  borderTop: '1px solid var(--mantine-color-gray-3)',
  paddingBlock: 'var(--mantine-spacing-sm)',
};

/** As the header search (decision 129): nothing is asked below two characters, and only after a pause. */
const MIN_QUERY = 2;
const PAUSE_MS = 250;

function useAfterPause(value: string): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), PAUSE_MS);
    return () => clearTimeout(timer);
  }, [value]);
  return settled;
}

function SearchHits({ q, selection }: { q: string; selection: PickerSelection }) {
  const hits = useQuery(pickerSearchQueryOptions(q));
  if (hits.isPending) {
    return (
      <Group gap="xs" role="status">
        <Loader size={16} aria-hidden />
        <Text size="sm">Suche läuft …</Text>
      </Group>
    );
  }
  if (hits.isError) {
    return (
      <Text size="sm" c="red.8" role="alert">
        {hits.error.message}
      </Text>
    );
  }
  const documents = hits.data.filter((hit) => hit.type === 'file');
  if (documents.length === 0) {
    return (
      <Text size="sm" role="status">
        Keine Dokumente gefunden.
      </Text>
    );
  }
  return (
    <ul style={PLAIN_LIST} aria-label="Suchergebnisse">
      {documents.map((hit) => (
        <DocumentOption
          key={hit.id}
          document={{ id: hit.id, title: hit.title, format: hit.format ?? '', size_bytes: null }}
          detail={hit.breadcrumb ?? '/'}
          selection={selection}
        />
      ))}
    </ul>
  );
}

interface DocumentPickerProps {
  /** Whose documents are chosen, e.g. "Punkt 2 „Jahresabschluss“"; null: closed. */
  target: string | null;
  initial: readonly DraftDocument[];
  onApply: (documents: DraftDocument[]) => void;
  onClose: () => void;
}

/**
 * "Dokumente auswählen": the file area's folders to open one by one, or a search across it; what
 * is ticked becomes the item's documents ("Übernehmen"), in the order it was ticked.
 */
export function DocumentPicker({ target, initial, onApply, onClose }: DocumentPickerProps) {
  const phone = useMediaQuery('(max-width: 48em)');
  return (
    <Modal
      opened={target !== null}
      onClose={onClose}
      title="Dokumente auswählen"
      size="lg"
      fullScreen={phone}
      styles={{ body: { paddingBottom: 0 } }}
    >
      {target !== null ? (
        <PickerBody target={target} initial={initial} onApply={onApply} onClose={onClose} />
      ) : null}
    </Modal>
  );
}

function PickerBody({ target, initial, onApply, onClose }: DocumentPickerProps & { target: string }) {
  const [chosen, setChosen] = useState(() => new Map(initial.map((document) => [document.id, document])));
  const [query, setQuery] = useState('');
  const debounced = useAfterPause(query.trim());
  const selection: PickerSelection = {
    has: (id) => chosen.has(id),
    toggle: (document, checked) =>
      setChosen((current) => {
        const next = new Map(current);
        if (checked) next.set(document.id, document);
        else next.delete(document.id);
        return next;
      }),
  };
  const searching = debounced.length >= MIN_QUERY;

  return (
    <Stack gap="md">
      <Text size="sm">Für {target}. Ordner öffnen oder suchen, dann die Dokumente ankreuzen.</Text>
      <TextInput
        label="Dokumente suchen"
        description={`Titel oder Inhalt, mindestens ${MIN_QUERY} Zeichen`}
        leftSection={<IconFileSearch size={18} aria-hidden />}
        value={query}
        onChange={(event) => setQuery(event.currentTarget.value)}
        data-autofocus
      />
      <div style={{ minHeight: '12rem' }}>
        {searching ? (
          <SearchHits q={debounced} selection={selection} />
        ) : (
          <FolderContents folderId={ROOT_FOLDER_ID} depth={0} selection={selection} />
        )}
      </div>
      {/* The choice and its buttons stay in sight while the list scrolls. */}
      <Group justify="space-between" gap="sm" style={FOOTER}>
        <Text size="sm" fw={500} role="status">
          {plural(chosen.size, 'Dokument', 'Dokumente')} ausgewählt
        </Text>
        <Group gap="sm">
          <Button variant="default" onClick={onClose}>
            Abbrechen
          </Button>
          <Button onClick={() => onApply([...chosen.values()])}>Übernehmen</Button>
        </Group>
      </Group>
    </Stack>
  );
}
