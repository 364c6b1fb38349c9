import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { FILE_MESSAGES } from '@gremienportal/contracts/file-messages';
import { json, mockApi } from '../../../testing/fetch-mock';
import { adminUser, signIn, vertreterUser, makeStoredFile } from '../../../testing/factories';
import { renderWithProviders } from '../../../testing/render';
import { FileDialog } from './file-dialog';

const FILE = makeStoredFile();

const PDF_ANSWER = () =>
  new Response('%PDF-1.4', {
    status: 200,
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `inline; filename="Protokoll Maerz.pdf"; filename*=UTF-8''Protokoll%20M%C3%A4rz.pdf`,
    },
  });

function renderDialog(isAdmin: boolean, handlers: { onEdit?: () => void; onDelete?: () => void } = {}) {
  signIn(isAdmin ? adminUser() : vertreterUser(), 'geheimes-token');
  const onClose = vi.fn();
  const result = renderWithProviders(
    <FileDialog file={FILE} isAdmin={isAdmin} onClose={onClose} {...handlers} />,
    { signedIn: true },
  );
  return { ...result, onClose };
}

/** Blob URLs and link clicks as the browser would do them. */
function captureSaves() {
  const saved: { name: string; href: string }[] = [];
  vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:http://localhost/1234');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ name: this.download, href: this.href });
  });
  return saved;
}

describe('FileDialog "Datei ausgewählt"', () => {
  it('offers view, download, edit and delete to admins', async () => {
    const onEdit = vi.fn();
    const onDelete = vi.fn();
    const { user } = renderDialog(true, { onEdit, onDelete });
    const dialog = screen.getByRole('dialog', { name: FILE_MESSAGES.selectedTitle });
    expect(dialog).toHaveTextContent(FILE_MESSAGES.selectedText);
    expect(dialog).toHaveTextContent('Protokoll März.pdf');
    expect(dialog).toHaveTextContent('1,25 MB');
    for (const name of ['Ansehen', 'Herunterladen', 'Bearbeiten', 'Löschen']) {
      expect(within(dialog).getByRole('button', { name })).toBeEnabled();
    }
    await user.click(within(dialog).getByRole('button', { name: 'Bearbeiten' }));
    expect(onEdit).toHaveBeenCalledWith(FILE);
    await user.click(within(dialog).getByRole('button', { name: 'Löschen' }));
    expect(onDelete).toHaveBeenCalledWith(FILE);
  });

  it('offers members only view and download', () => {
    renderDialog(false, { onEdit: vi.fn(), onDelete: vi.fn() });
    const dialog = screen.getByRole('dialog', { name: FILE_MESSAGES.selectedTitle });
    expect(within(dialog).getByRole('button', { name: 'Ansehen' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Herunterladen' })).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Bearbeiten' })).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Löschen' })).not.toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'Details anzeigen' })).toHaveAttribute(
      'href',
      '/files/show/31',
    );
  });

  it('downloads with the bearer header and saves the file as title.format', async () => {
    const { requests } = mockApi({ 'GET /api/v1/download/abcdefghijklmnopqrstuv': PDF_ANSWER });
    const saved = captureSaves();
    const { user } = renderDialog(false);
    await user.click(screen.getByRole('button', { name: 'Herunterladen' }));

    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]!.name).toBe('Protokoll März.pdf');
    expect(requests[0]!.headers.get('Authorization')).toBe('Bearer geheimes-token');
    expect(requests[0]!.url).not.toContain('geheimes-token');
  });

  it('opens "Ansehen" in a new tab from a blob, never from a URL with the token', async () => {
    const { requests } = mockApi({ 'GET /api/v1/download/abcdefghijklmnopqrstuv': PDF_ANSWER });
    captureSaves();
    const tab = { opener: {} as unknown };
    const openSpy = vi.spyOn(window, 'open').mockReturnValue(tab as Window);
    const { user } = renderDialog(false);
    await user.click(screen.getByRole('button', { name: 'Ansehen' }));

    await waitFor(() => expect(openSpy).toHaveBeenCalledTimes(1));
    expect(openSpy).toHaveBeenCalledWith('blob:http://localhost/1234', '_blank');
    expect(tab.opener).toBeNull();
    expect(requests[0]!.headers.get('Authorization')).toBe('Bearer geheimes-token');
  });

  it('shows no message when a download fails (product.md P12) and logs nothing', async () => {
    const { requests } = mockApi({
      'GET /api/v1/download/abcdefghijklmnopqrstuv': json(404, { message: 'Nicht gefunden.' }),
    });
    const saved = captureSaves();
    const errorLog = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const warnLog = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { user } = renderDialog(false);
    const button = screen.getByRole('button', { name: 'Herunterladen' });
    await user.click(button);

    // The dialog also reads the file itself (whether its text can be searched); one download try.
    const downloads = () => requests.filter((request) => request.url.startsWith('/api/v1/download/'));
    await waitFor(() => expect(downloads()).toHaveLength(1));
    await waitFor(() => expect(button).not.toHaveAttribute('data-loading'));
    expect(saved).toHaveLength(0);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByText('Nicht gefunden.')).not.toBeInTheDocument();
    expect(errorLog).not.toHaveBeenCalled();
    expect(warnLog).not.toHaveBeenCalled();
  });

  it('says when the content cannot be searched (decision 128), as the file itself tells', async () => {
    mockApi({ 'GET /api/v1/files/31': json(200, { data: { ...FILE, text_state: 'empty' } }) });
    renderDialog(false);
    expect(await screen.findByText(/Die Datei wird nur über ihren Titel gefunden/)).toHaveTextContent(
      'Inhalt nicht durchsuchbar: Die Datei wird nur über ihren Titel gefunden.',
    );
  });

  it('says nothing about the search for a searchable file', async () => {
    const { requests } = mockApi({
      'GET /api/v1/files/31': json(200, { data: { ...FILE, text_state: 'done' } }),
    });
    renderDialog(false);
    await waitFor(() => expect(requests.map((request) => request.url)).toEqual(['/api/v1/files/31']));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByText(/nicht durchsuchbar/)).not.toBeInTheDocument();
  });

  it('closes on the close button', async () => {
    const { user, onClose } = renderDialog(false);
    await user.click(screen.getByRole('button', { name: 'Schließen' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
