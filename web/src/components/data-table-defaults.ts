import { plural } from '../lib/plural';

/**
 * Shared look, German texts and paging defaults for mantine-datatable (product.md P13.2: 10 rows
 * per page, 10/25/50 selectable; product.md P3: pager titles "Beginn" and "Ende").
 * Usage: `<DataTable {...dataTableDefaults} {...paginationDefaults} page=… … />`; tables sorted and
 * filtered on the client use SortableTable (sortable-table.tsx), which applies both.
 * Every text the library would show or read out in English has a German value here.
 */
export const PAGE_SIZES = [10, 25, 50];
export const DEFAULT_PAGE_SIZE = 10;

/** Below Mantine's `sm` breakpoint (48em) tables turn into cards and filters fold away. */
export const SMALL_SCREEN_QUERY = '(max-width: 47.99em)';

export const dataTableDefaults = {
  withTableBorder: true,
  borderRadius: 'md',
  striped: true,
  highlightOnHover: true,
  minHeight: 160,
  // The library's default is "No records" (shown, and read out when the table is empty).
  noRecordsText: 'Keine Einträge',
} as const;

const PAGINATION_CONTROL_LABELS = {
  first: 'Beginn',
  last: 'Ende',
  previous: 'Zurück',
  next: 'Weiter',
} as const;

/** The noun in the pager's text, in the dative: "von 1 Eintrag", "von 12 Einträgen". */
export type CountNoun = readonly [one: string, other: string];

/** "1–10 von 12 Einträgen", "11 von 11 Events": the rows shown and how many there are. */
export const paginationTextFor =
  ([one, other]: CountNoun) =>
  ({ from, to, totalRecords }: { from: number; to: number; totalRecords: number }) =>
    `${from === to ? from : `${from}–${to}`} von ${plural(totalRecords, one, other)}`;

/** For paginated tables only (mantine-datatable allows these props only together with paging). */
export const paginationDefaults = {
  recordsPerPageOptions: PAGE_SIZES,
  loadingText: 'Wird geladen …',
  recordsPerPageLabel: 'Einträge pro Seite',
  paginationWithEdges: true,
  paginationText: paginationTextFor(['Eintrag', 'Einträgen']),
  getPaginationControlProps: (control: keyof typeof PAGINATION_CONTROL_LABELS) => ({
    'aria-label': PAGINATION_CONTROL_LABELS[control],
    title: PAGINATION_CONTROL_LABELS[control],
  }),
};
