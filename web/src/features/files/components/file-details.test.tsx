import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeStoredFile, signIn } from '../../../testing/factories';
import { renderWithProviders } from '../../../testing/render';
import { FileDetails } from './file-details';

describe('a document page', () => {
  it("opens the document's folder in the explorer, with its tree, not on the bare folder page", () => {
    signIn();
    renderWithProviders(<FileDetails file={makeStoredFile()} isAdmin={false} />, { signedIn: true });
    expect(screen.getByRole('link', { name: '/Aufsichtsrat/Sitzungen 2026' })).toHaveAttribute(
      'href',
      '/files?folder=10',
    );
  });
});
