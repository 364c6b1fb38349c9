/**
 * Shared look, German texts and paging defaults for mantine-datatable (product.md P13.2: 10 rows
 * per page, 10/25/50 selectable; product.md P3: pager titles "Beginn" and "Ende").
 * Usage: `<DataTable {...dataTableDefaults} {...paginationDefaults} page=… … />`; tables sorted and
 * filtered on the client use SortableTable (sortable-table.tsx), which applies both.
 */
export const PAGE_SIZES = [10, 25, 50];
export const DEFAULT_PAGE_SIZE = 10;

export const dataTableDefaults = {
  withTableBorder: true,
  borderRadius: 'md',
  striped: true,
  highlightOnHover: true,
  minHeight: 160,
} as const;

const PAGINATION_CONTROL_LABELS = {
  first: 'Beginn',
  last: 'Ende',
  previous: 'Zurück',
  next: 'Weiter',
} as const;

/** For paginated tables only (mantine-datatable allows these props only together with paging). */
export const paginationDefaults = {
  recordsPerPageOptions: PAGE_SIZES,
  loadingText: 'Wird geladen …',
  recordsPerPageLabel: 'Einträge pro Seite',
  paginationWithEdges: true,
  paginationText: ({ from, to, totalRecords }: { from: number; to: number; totalRecords: number }) =>
    `${from}–${to} von ${totalRecords}`,
  getPaginationControlProps: (control: keyof typeof PAGINATION_CONTROL_LABELS) => ({
    'aria-label': PAGINATION_CONTROL_LABELS[control],
    title: PAGINATION_CONTROL_LABELS[control],
  }),
};
