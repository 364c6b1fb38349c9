import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../testing/render';
import { SortableTable } from './sortable-table';
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
        { accessor: 'name', title: 'Name', sortable: true },
        { accessor: 'place', title: 'Ort', sortable: true },
        { accessor: 'actions', title: 'Aktionen' },
      ]}
      records={ROWS}
      initialSort={{ columnAccessor: 'name', direction: 'asc' }}
      sort={(rows) => [...rows]}
      filterFields={[
        { key: 'name', label: 'Name enthält' },
        { key: 'place', label: 'Ort enthält' },
      ]}
      filtersLabel="Beispiele filtern"
      filter={(rows, values) => filterRows(rows, values, (row, key) => row[key])}
      emptyText="Kein Beispiel vorhanden"
      filteredEmptyText="Kein Beispiel passt zu deinen Filtern!"
    />,
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
});
