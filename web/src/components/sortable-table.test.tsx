import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../testing/render';
import { SortableTable } from './sortable-table';
import { compareText } from './sortable-table';
import { filterRows } from './table-filters';

interface Row {
  id: number;
  name: string;
  place: string;
}

const ROWS: Row[] = [
  { id: 1, name: 'Zora', place: 'Saal' },
  { id: 2, name: 'Ärztetag', place: 'Klinik' },
];

function renderTable() {
  return renderWithProviders(
    <SortableTable<Row, 'name' | 'place'>
      aria-label="Beispiele"
      columns={[
        { accessor: 'name', title: 'Name', sortable: true, hiddenInCard: true },
        { accessor: 'place', title: 'Ort', sortable: true },
        { accessor: 'actions', title: 'Aktionen', hiddenInCard: true },
      ]}
      records={ROWS}
      initialSort={{ columnAccessor: 'name', direction: 'asc' }}
      sort={(rows, status) =>
        [...rows].sort(
          (a, b) =>
            compareText(a[status.columnAccessor as 'name'], b[status.columnAccessor as 'name']) *
            (status.direction === 'asc' ? 1 : -1),
        )
      }
      filterFields={[
        { key: 'name', label: 'Name enthält' },
        { key: 'place', label: 'Ort enthält' },
      ]}
      filtersLabel="Beispiele filtern"
      filter={(rows, values) => filterRows(rows, values, (row, key) => row[key])}
      emptyText="Kein Beispiel vorhanden"
      filteredEmptyText="Kein Beispiel passt zu deinen Filtern!"
      countNoun={['Beispiel', 'Beispielen']}
      card={{
        title: (row) => row.name,
        href: (row) => `/beispiele/${row.id}`,
        actions: (row) => <button type="button">{row.name} löschen</button>,
      }}
    />,
  );
}

/** Lets every `max-width` media query match, as on a phone (and the table's "always" query ''). */
function onPhone() {
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query: string) =>
      ({
        matches: query === '' || query.includes('max-width'),
        media: query,
        onchange: null,
        addListener: () => {},
        removeListener: () => {},
        addEventListener: () => {},
        removeEventListener: () => {},
        dispatchEvent: () => false,
      }) as MediaQueryList,
  );
}

// mantine-datatable renders no header cells under jsdom (it measures layout); sorting is checked
// in the browser (e2e/tests/events.spec.ts, users.spec.ts).
describe('SortableTable', () => {
  it('filters in German and offers to reset the filters', async () => {
    const { user } = renderTable();
    expect(screen.getByRole('search', { name: 'Beispiele filtern' })).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Ort enthält' }), 'nirgends');
    expect(await screen.findByText('Kein Beispiel passt zu deinen Filtern!')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Filter zurücksetzen' }));
    expect(screen.getByRole('textbox', { name: 'Ort enthält' })).toHaveValue('');
    expect(screen.queryByRole('button', { name: 'Filter zurücksetzen' })).not.toBeInTheDocument();
  });

  it('counts the records in German, singular and plural', () => {
    renderTable();
    expect(screen.getByText('1–2 von 2 Beispielen')).toBeInTheDocument();
    expect(screen.queryByText(/No records|Records per page/)).not.toBeInTheDocument();
  });

  it('shows each row as a card with a link, its fields and actions on phones, sorted by a choice', async () => {
    onPhone();
    const { user } = renderTable();
    const cards = () => screen.getAllByRole('heading', { level: 3 });
    expect(cards().map((card) => card.textContent)).toEqual(['Ärztetag', 'Zora']);
    expect(screen.getByRole('link', { name: 'Zora' })).toHaveAttribute('href', '/beispiele/1');
    const zora = screen.getByRole('link', { name: 'Zora' }).closest('.mantine-Paper-root') as HTMLElement;
    expect(within(zora).getByText('Ort')).toBeInTheDocument();
    expect(within(zora).getByText('Saal')).toBeInTheDocument();
    expect(within(zora).queryByText('Aktionen')).not.toBeInTheDocument();
    expect(within(zora).getByRole('button', { name: 'Zora löschen' })).toBeInTheDocument();

    await user.selectOptions(screen.getByRole('combobox', { name: 'Sortieren nach' }), 'Name, absteigend');
    expect(cards().map((card) => card.textContent)).toEqual(['Zora', 'Ärztetag']);
  });
});
