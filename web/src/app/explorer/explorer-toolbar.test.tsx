import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../testing/render';
import { PROTECTED_DISABLED_REASON, ROOT_DISABLED_REASON } from '../../features/folders/folders.rules';
import { ExplorerToolbar, MORE_ACTIONS_LABEL } from './explorer-toolbar';

function renderToolbar(folderId: number) {
  const onAction = vi.fn();
  const result = renderWithProviders(<ExplorerToolbar folderId={folderId} onAction={onAction} />);
  return { ...result, onAction };
}

/** Opens the "⋯" menu and returns the names of its entries. */
async function menuEntries(user: ReturnType<typeof renderToolbar>['user']) {
  await user.click(screen.getByRole('button', { name: MORE_ACTIONS_LABEL }));
  const items = await screen.findAllByRole('menuitem');
  return items.map((item) => item.textContent);
}

// Decision 124: only what applies is shown; the spec's enabling rules (product.md P4.3) decide what.
describe('ExplorerToolbar (product.md P4 enabling rules, a calm toolbar)', () => {
  it('offers only the Amtsperiode at the root, without disabled buttons or hint sentences', async () => {
    const { user } = renderToolbar(1);
    expect(screen.queryByRole('button', { name: 'Neuer Ordner' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Datei hochladen' })).not.toBeInTheDocument();
    expect(screen.queryByText(ROOT_DISABLED_REASON)).not.toBeInTheDocument();
    expect(screen.queryByText(PROTECTED_DISABLED_REASON)).not.toBeInTheDocument();
    expect(await menuEntries(user)).toEqual(['Amtsperiode erstellen', 'Papierkorb']);
  });

  it.each([2, 3, 4])(
    'allows upload and new folder but no edit or delete in protected folder %i',
    async (id) => {
      const { user } = renderToolbar(id);
      expect(screen.getByRole('button', { name: 'Datei hochladen' })).toBeEnabled();
      expect(screen.getByRole('button', { name: 'Neuer Ordner' })).toBeEnabled();
      expect(await menuEntries(user)).toEqual(['Amtsperiode erstellen', 'Papierkorb']);
    },
  );

  it('offers everything in an ordinary folder, the rare and destructive actions in the menu', async () => {
    const { user, onAction } = renderToolbar(12);
    expect(screen.queryByRole('button', { name: 'Ordner löschen' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Datei hochladen' }));
    await user.click(screen.getByRole('button', { name: 'Neuer Ordner' }));
    expect(await menuEntries(user)).toEqual([
      'Ordner bearbeiten',
      'Amtsperiode erstellen',
      'Papierkorb',
      'Ordner löschen',
    ]);
    for (const name of ['Ordner bearbeiten', 'Amtsperiode erstellen', 'Ordner löschen']) {
      await user.click(await screen.findByRole('menuitem', { name }));
      if (name !== 'Ordner löschen')
        await user.click(screen.getByRole('button', { name: MORE_ACTIONS_LABEL }));
    }
    expect(onAction.mock.calls.map(([action]) => action)).toEqual([
      'upload',
      'create-folder',
      'edit-folder',
      'period',
      'delete-folder',
    ]);
  });

  it('leads admins to the Papierkorb from the "⋯" menu (decision 125)', async () => {
    const { user } = renderToolbar(12);
    await user.click(screen.getByRole('button', { name: MORE_ACTIONS_LABEL }));
    expect(await screen.findByRole('menuitem', { name: 'Papierkorb' })).toHaveAttribute('href', '/trash');
  });
});
