import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TEXT_STATE_LABELS } from '@gremienportal/contracts/search';
import { adminUser, signIn, vertreterUser, makeStoredFile } from '../../../testing/factories';
import { renderWithProviders } from '../../../testing/render';
import type { StoredFile } from '../files.api';
import { FileDetails } from './file-details';
import { TEXT_STATE_TEXTS } from './text-state-labels';

const FILE = makeStoredFile();

function renderDetails(file: StoredFile, isAdmin: boolean) {
  signIn(isAdmin ? adminUser() : vertreterUser());
  return renderWithProviders(<FileDetails file={file} isAdmin={isAdmin} />, { signedIn: true });
}

describe('the text state of a document on its page (decision 128)', () => {
  it('uses the labels of the contract', () => {
    expect(TEXT_STATE_TEXTS).toEqual(TEXT_STATE_LABELS);
  });

  it('shows admins how far the search has read the document', () => {
    renderDetails({ ...FILE, text_state: 'none' }, true);
    const term = screen.getByText('Volltextsuche');
    expect(term.nextElementSibling).toHaveTextContent('nur nach Titel durchsuchbar');
    expect(screen.queryByText(/Inhalt nicht durchsuchbar/)).not.toBeInTheDocument();
  });

  it('tells everyone when the content cannot be searched, and members no more than that', () => {
    renderDetails({ ...FILE, text_state: 'failed' }, false);
    expect(screen.getByText(/Die Datei wird nur über ihren Titel gefunden/)).toHaveTextContent(
      'Inhalt nicht durchsuchbar: Die Datei wird nur über ihren Titel gefunden.',
    );
    expect(screen.queryByText('Volltextsuche')).not.toBeInTheDocument();
  });

  it('says nothing while the document is being read or when its state is unknown', () => {
    renderDetails({ ...FILE, text_state: 'pending' }, false);
    expect(screen.queryByText(/durchsuchbar/)).not.toBeInTheDocument();
  });
});
