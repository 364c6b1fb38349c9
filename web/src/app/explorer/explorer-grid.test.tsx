import { screen, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../testing/render';
import type { ExplorerItem, StoredFile } from '../../features/files/files.api';
import type { Folder } from '../../features/folders/folders.api';
import { EXPLORER_PAGE_SIZE, ExplorerGrid, ExplorerGridSkeleton } from './explorer-grid';

const folder = (id: number, title: string, updated_at = '2026-01-10T09:00:00.000Z'): Folder => ({
  type: 'folder',
  id,
  title,
  format: 'folder',
  date: updated_at,
  roles: ['Vertreter'],
  roles_string: 'Vertreter',
  breadcrumb: `/Allgemein/${title}`,
  parent: { id: 4, breadcrumb: '/Allgemein', archived: false },
  parent_id: 4,
  children: 0,
  files: 0,
  new_count: 0,
  updated_at,
  archived: false,
});

const file = (
  id: number,
  title: string,
  format: string,
  size_bytes: number,
  updated_at: string,
): StoredFile => ({
  type: 'file',
  id,
  title,
  format,
  date: updated_at,
  external: `key-${id}-abcdefghijklmnop`,
  mime_type: 'application/octet-stream',
  roles: ['Vertreter'],
  roles_string: 'Vertreter',
  folder: { id: 4, title: 'Allgemein', breadcrumb: '/Allgemein' },
  folder_id: 4,
  folder_name: 'Allgemein',
  size: Math.round((size_bytes / 1024 / 1024) * 100) / 100,
  size_bytes,
  updated_at,
  archived: false,
});

const ITEMS: ExplorerItem[] = [
  file(1, 'Zahlen 2025', 'xlsx', 1_310_720, '2026-02-01T13:30:00.000Z'),
  folder(7, 'Protokolle', '2026-01-01T08:00:00.000Z'),
  file(2, 'Anlage', 'pdf', 52_428, '2026-03-05T07:05:00.000Z'),
  folder(8, 'Berichte', '2026-04-01T08:00:00.000Z'),
];

/** Where the grid navigated to. */
function Address() {
  const location = useLocation();
  return <output aria-label="Adresse">{location.pathname + location.search}</output>;
}

function renderGrid(items: readonly ExplorerItem[] = ITEMS) {
  const onShowFileDialog = vi.fn();
  const result = renderWithProviders(
    <>
      <ExplorerGrid
        items={items}
        label="Inhalt von /Allgemein"
        folderLink={(f) => `?folder=${f.id}`}
        onShowFileDialog={onShowFileDialog}
      />
      <Routes>
        <Route path="*" element={<Address />} />
      </Routes>
    </>,
  );
  const table = screen.getByRole('table', { name: 'Inhalt von /Allgemein' });
  const names = () =>
    within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row).getAllByRole('cell')[0]!.querySelector('a')?.textContent);
  const address = () => screen.getByRole('status', { name: 'Adresse' }).textContent;
  return { ...result, onShowFileDialog, table, names, address };
}

describe('ExplorerGrid', () => {
  it('has the columns Name, Dateityp, Größe, Änderung (and the ⋮ column) and lists folders first', () => {
    const { table, names } = renderGrid();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Name', 'Dateityp', 'Größe', 'Änderung', 'Aktionen']);
    expect(names()).toEqual(['Berichte', 'Protokolle', 'Anlage', 'Zahlen 2025']);
  });

  it('shows sizes in MB with two decimals and dates in de-DE, Berlin time', () => {
    const { table } = renderGrid();
    const row = within(table).getByRole('link', { name: 'Zahlen 2025' }).closest('tr')!;
    const cells = within(row)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells.slice(1)).toEqual(['XLSX', '1,25 MB', '01.02.2026, 14:30', '']);
    const folderRow = within(table).getByRole('link', { name: 'Berichte' }).closest('tr')!;
    expect(within(folderRow).getAllByRole('cell')[1]).toHaveTextContent('Ordner');
    expect(folderRow.querySelector('svg')).toHaveAttribute('data-format', 'folder');
  });

  it("links a document's name to its page and a folder's to the folder; the rest of a row does the same", async () => {
    const { user, table, onShowFileDialog, address } = renderGrid();
    expect(within(table).getByRole('link', { name: 'Anlage' })).toHaveAttribute('href', '/files/show/2');
    expect(within(table).getByRole('link', { name: 'Protokolle' })).toHaveAttribute('href', '/?folder=7');
    await user.click(within(table).getByRole('link', { name: 'Anlage' }));
    expect(address()).toBe('/files/show/2');
    await user.click(within(table).getByText('01.02.2026, 14:30'));
    expect(address()).toBe('/files/show/1');
    expect(onShowFileDialog).not.toHaveBeenCalled();
  });

  it("opens the file dialog from a document's ⋮ button, which keeps the focus for the dialog to return to", async () => {
    const { user, table, onShowFileDialog, address } = renderGrid();
    const trigger = within(table).getByRole('button', { name: 'Aktionen für „Anlage“' });
    expect(trigger).toHaveAttribute('aria-haspopup', 'dialog');
    await user.click(trigger);
    expect(onShowFileDialog).toHaveBeenCalledTimes(1);
    expect(onShowFileDialog.mock.calls[0]![0]).toMatchObject({ id: 2 });
    expect(trigger).toHaveFocus();
    expect(address()).toBe('/');
    // A member's folder row has nothing beyond opening it: no ⋮.
    expect(
      within(table).queryByRole('button', { name: 'Aktionen für „Protokolle“' }),
    ).not.toBeInTheDocument();
  });

  it('sorts by any column and keeps folders first', async () => {
    const { user, table, names } = renderGrid();
    await user.click(within(table).getByRole('button', { name: 'Änderung' }));
    expect(names()).toEqual(['Protokolle', 'Berichte', 'Zahlen 2025', 'Anlage']);
    expect(within(table).getByRole('columnheader', { name: 'Änderung' })).toHaveAttribute(
      'aria-sort',
      'ascending',
    );
    await user.click(within(table).getByRole('button', { name: 'Änderung' }));
    expect(names()).toEqual(['Berichte', 'Protokolle', 'Anlage', 'Zahlen 2025']);
    await user.click(within(table).getByRole('button', { name: 'Größe' }));
    expect(names()).toEqual(['Berichte', 'Protokolle', 'Anlage', 'Zahlen 2025']);
  });

  it('says "Ordner leer" for an empty folder', () => {
    const { table } = renderGrid([]);
    expect(within(table).getByText('Ordner leer')).toBeInTheDocument();
  });

  it('shows a folder of 500 items 50 at a time with a pager', async () => {
    const many = Array.from({ length: 500 }, (_, index) =>
      file(
        100 + index,
        `Dokument ${String(index + 1).padStart(3, '0')}`,
        'pdf',
        1000,
        '2026-01-01T00:00:00.000Z',
      ),
    );
    const { user, table, names } = renderGrid(many);
    expect(within(table).getAllByRole('row')).toHaveLength(EXPLORER_PAGE_SIZE + 1);
    expect(screen.getByText('1–50 von 500')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Ende' }));
    expect(names()[0]).toBe('Dokument 451');
    expect(screen.getByText('451–500 von 500')).toBeInTheDocument();
  });

  it('while loading shows as many placeholder rows as the folder will have, under the real header', () => {
    renderWithProviders(<ExplorerGridSkeleton rows={3} />);
    const status = screen.getByRole('status', { name: 'Inhalt wird geladen' });
    // The placeholder table is hidden from screen readers; the status says what happens.
    expect(within(status).queryByRole('table')).not.toBeInTheDocument();
    const table = status.querySelector('table')!;
    expect(table).toHaveAttribute('aria-hidden', 'true');
    expect(table.querySelectorAll('thead th')).toHaveLength(4);
    expect(table.querySelectorAll('tbody tr')).toHaveLength(3);
    expect(status.querySelector('button, a')).toBeNull();
  });
});
