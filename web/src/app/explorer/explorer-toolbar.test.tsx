import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../testing/render';
import { PROTECTED_DISABLED_REASON, ROOT_DISABLED_REASON } from '../../features/folders/folders.rules';
import { ExplorerToolbar } from './explorer-toolbar';

const button = (name: string) => screen.getByRole('button', { name });

function renderToolbar(folderId: number) {
  const onAction = vi.fn();
  const result = renderWithProviders(<ExplorerToolbar folderId={folderId} onAction={onAction} />);
  return { ...result, onAction };
}

describe('ExplorerToolbar (product.md P4 button enabling)', () => {
  it('disables upload, new folder, edit and delete at the root and says why', () => {
    renderToolbar(1);
    expect(button('Neuer Ordner')).toBeDisabled();
    expect(button('Datei hochladen')).toBeDisabled();
    expect(button('Ordner bearbeiten')).toBeDisabled();
    expect(button('Ordner löschen')).toBeDisabled();
    expect(button('Amtsperiode erstellen')).toBeEnabled();
    expect(button('Datei hochladen')).toHaveAccessibleDescription(ROOT_DISABLED_REASON);
    expect(button('Neuer Ordner')).toHaveAccessibleDescription(ROOT_DISABLED_REASON);
    expect(button('Ordner löschen')).toHaveAccessibleDescription(PROTECTED_DISABLED_REASON);
  });

  it.each([2, 3, 4])('allows upload and new folder but no edit or delete in protected folder %i', (id) => {
    renderToolbar(id);
    expect(button('Neuer Ordner')).toBeEnabled();
    expect(button('Datei hochladen')).toBeEnabled();
    expect(button('Ordner bearbeiten')).toBeDisabled();
    expect(button('Ordner löschen')).toBeDisabled();
    expect(button('Ordner bearbeiten')).toHaveAccessibleDescription(PROTECTED_DISABLED_REASON);
    expect(screen.queryByText(ROOT_DISABLED_REASON)).not.toBeInTheDocument();
  });

  it('enables everything in an ordinary folder, without reasons, and reports the action', async () => {
    const { user, onAction } = renderToolbar(12);
    for (const name of ['Neuer Ordner', 'Ordner bearbeiten', 'Ordner löschen', 'Datei hochladen']) {
      expect(button(name)).toBeEnabled();
    }
    expect(screen.queryByText(ROOT_DISABLED_REASON)).not.toBeInTheDocument();
    expect(screen.queryByText(PROTECTED_DISABLED_REASON)).not.toBeInTheDocument();

    await user.click(button('Neuer Ordner'));
    await user.click(button('Ordner bearbeiten'));
    await user.click(button('Ordner löschen'));
    await user.click(button('Datei hochladen'));
    await user.click(button('Amtsperiode erstellen'));
    expect(onAction.mock.calls.map(([action]) => action)).toEqual([
      'create-folder',
      'edit-folder',
      'delete-folder',
      'upload',
      'period',
    ]);
  });
});
