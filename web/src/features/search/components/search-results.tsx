import { Link } from 'react-router';
import { Anchor, Group, Stack, Text, Title } from '@mantine/core';
import { DataTable, type DataTableColumn } from 'mantine-datatable';
import { fileKindOf } from '../../../components/file-icon';
import {
  dataTableDefaults,
  paginationDefaults,
  paginationTextFor,
} from '../../../components/data-table-defaults';
import { PathText } from '../../../components/path-text';
import { formatDateTime } from '../../../lib/format';
import type { SearchHit } from '../search.api';
import { hitHref, KIND_NAMES } from '../search.rules';
import { SEARCH_PAGE_SIZES } from '../search-state';
import { HighlightedText } from './highlighted-text';
import { HitIcon } from './hit-icon';
import classes from './search.module.css';

/** Documents whose text could not be read are found by their title only. */
export const NOT_SEARCHABLE = 'Inhalt nicht durchsuchbar';

/** Kind and, for documents, file type: "Datei · PDF-Dokument". */
const kindLine = (hit: SearchHit) =>
  hit.type === 'file' && hit.format
    ? `${KIND_NAMES.file.one} · ${fileKindOf(hit.format).label}`
    : KIND_NAMES[hit.type].one;

/**
 * Where it is and when: folder path and last change, an event's start and place, or a
 * resolution's committee and establishment.
 */
function WhereAndWhen({ hit }: { hit: SearchHit }) {
  if (hit.type === 'resolution') {
    return (
      <Text size="sm" c="dimmed">
        {hit.breadcrumb ? `${hit.breadcrumb} · ` : ''}festgestellt am {formatDateTime(hit.date)}
      </Text>
    );
  }
  if (hit.type === 'event') {
    return (
      <Text size="sm" c="dimmed">
        {formatDateTime(hit.date)}
        {hit.place ? ` · ${hit.place}` : ''}
      </Text>
    );
  }
  return (
    <Text size="sm" c="dimmed" className={classes.hitTitle}>
      {hit.breadcrumb ? (
        <>
          In <PathText text={hit.breadcrumb} /> ·{' '}
        </>
      ) : null}
      geändert am {formatDateTime(hit.date)}
    </Text>
  );
}

function HitCard({ hit }: { hit: SearchHit }) {
  return (
    <Group gap="sm" wrap="nowrap" align="flex-start" py={4}>
      <HitIcon type={hit.type} format={hit.format} size={28} />
      <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
        <Text size="xs" c="dimmed" fw={500} tt="uppercase">
          {kindLine(hit)}
        </Text>
        <Title order={2} size="h4" className={classes.hitTitle}>
          <Anchor component={Link} to={hitHref(hit)} inherit>
            <HighlightedText text={hit.title} ranges={hit.highlight} />
          </Anchor>
        </Title>
        <WhereAndWhen hit={hit} />
        {hit.snippet ? (
          <Text size="sm" className={classes.snippet}>
            <HighlightedText text={hit.snippet.text} ranges={hit.snippet.ranges} />
          </Text>
        ) : null}
        {hit.searchable === false ? (
          <Text size="sm" c="dimmed" fs="italic">
            {NOT_SEARCHABLE}
          </Text>
        ) : null}
      </Stack>
    </Group>
  );
}

const COLUMNS: DataTableColumn<SearchHit>[] = [
  { accessor: 'title', title: 'Treffer', render: (hit) => <HitCard hit={hit} /> },
];

interface SearchResultsProps {
  hits: readonly SearchHit[];
  total: number;
  page: number;
  perPage: number;
  fetching: boolean;
  onPageChange: (page: number) => void;
  onPerPageChange: (perPage: number) => void;
}

/** One page of hits, best (or newest) first, paged like the other tables; each title leads to its hit. */
export function SearchResults({
  hits,
  total,
  page,
  perPage,
  fetching,
  onPageChange,
  onPerPageChange,
}: SearchResultsProps) {
  return (
    <DataTable<SearchHit>
      {...dataTableDefaults}
      {...paginationDefaults}
      striped={false}
      highlightOnHover={false}
      noHeader
      aria-label="Suchergebnisse"
      paginationText={paginationTextFor(['Treffer', 'Treffern'])}
      recordsPerPageLabel="Treffer pro Seite"
      records={[...hits]}
      columns={COLUMNS}
      idAccessor={(hit) => `${hit.type}-${hit.id}`}
      verticalAlign="top"
      fetching={fetching}
      totalRecords={total}
      page={page}
      onPageChange={onPageChange}
      recordsPerPage={perPage}
      recordsPerPageOptions={SEARCH_PAGE_SIZES}
      onRecordsPerPageChange={onPerPageChange}
    />
  );
}
