import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Button } from '@mantine/core';
import { renderWithProviders } from '../testing/render';
import { openConfirmDialog } from './confirm-dialog';

describe('confirm dialog', () => {
  it('asks with German buttons and runs the action only on "Löschen"', async () => {
    const onConfirm = vi.fn();
    const { user } = renderWithProviders(
      <Button
        onClick={() =>
          openConfirmDialog({
            title: 'Datei löschen',
            message: 'Die Datei wird endgültig gelöscht.',
            onConfirm,
          })
        }
      >
        Öffnen
      </Button>,
      { signedIn: true },
    );

    await user.click(screen.getByRole('button', { name: 'Öffnen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Datei löschen' });
    expect(dialog).toHaveTextContent('Die Datei wird endgültig gelöscht.');

    await user.click(screen.getByRole('button', { name: 'Abbrechen' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(onConfirm).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Öffnen' }));
    await user.click(await screen.findByRole('button', { name: 'Löschen' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });
});
