import { useState } from 'react';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Button } from '@mantine/core';
import { FOLDER_MESSAGES } from '@gremienportal/contracts/file-messages';
import { json, mockApi } from '../../testing/fetch-mock';
import { adminUser, signIn, makeStoredFile } from '../../testing/factories';
import { renderWithProviders } from '../../testing/render';
import type { ExplorerModalState } from './explorer-modal.types';
import { EXPLORER_MODAL_TEXTS, ExplorerModals } from './explorer-modals';
import { REPLACE_KEEPS_VERSION } from '../../features/files/files.rules';

const ROLES = [
  { id: 1, name: 'Admin' },
  { id: 2, name: 'Super-Admin' },
  { id: 3, name: 'Aufsichtsrat' },
  { id: 4, name: 'Vertreter' },
];

const ACTIVE = {
  id: 10,
  title: 'Sitzungen 2026',
  breadcrumb: '/Aufsichtsrat/Sitzungen 2026',
  parent_id: 2,
  roles: ['Aufsichtsrat'],
  archived: false,
};

const FILE = makeStoredFile();

const folderRecord = (overrides: Record<string, unknown> = {}) => ({
  type: 'folder',
  id: 11,
  title: 'Beschlüsse',
  format: 'folder',
  date: '2026-11-21T10:00:00.000Z',
  roles: ['Aufsichtsrat'],
  roles_string: 'Aufsichtsrat',
  breadcrumb: '/Aufsichtsrat/Sitzungen 2026/Beschlüsse',
  parent: { id: 10, breadcrumb: '/Aufsichtsrat/Sitzungen 2026' },
  parent_id: 10,
  children: 0,
  files: 0,
  new_count: 0,
  updated_at: '2026-11-21T10:00:00.000Z',
  ...overrides,
});

function documentApi() {
  return mockApi({
    'GET /api/v1/roles': json(200, { data: ROLES }),
    'GET /api/v1/breadcrumbs/10': json(200, {
      data: [
        { id: 1, breadcrumb: '/' },
        { id: 2, breadcrumb: '/Aufsichtsrat' },
      ],
    }),
    'GET /api/v1/file-breadcrumbs': json(200, {
      data: [
        { id: 2, breadcrumb: '/Aufsichtsrat' },
        { id: 10, breadcrumb: '/Aufsichtsrat/Sitzungen 2026' },
      ],
    }),
  });
}

/** Opens a modal with a button, as the explorer does, and closes it the way the modal asks. */
function Harness({ initial }: { initial: ExplorerModalState }) {
  const [modal, setModal] = useState<ExplorerModalState | null>(null);
  return (
    <>
      <Button onClick={() => setModal(initial)}>Öffnen</Button>
      <ExplorerModals modal={modal} folder={ACTIVE} onClose={() => setModal(null)} />
    </>
  );
}

async function open(initial: ExplorerModalState) {
  signIn(adminUser());
  const result = renderWithProviders(<Harness initial={initial} />, { signedIn: true });
  await result.user.click(screen.getByRole('button', { name: 'Öffnen' }));
  const dialog = await screen.findByRole('dialog', { name: EXPLORER_MODAL_TEXTS[initial.kind].title });
  return { ...result, dialog };
}

const MODALS: ExplorerModalState[] = [
  { kind: 'create-folder' },
  { kind: 'edit-folder' },
  { kind: 'upload' },
  { kind: 'edit-file', file: FILE },
  { kind: 'period' },
];

describe('explorer modals: exact texts (product.md P3)', () => {
  it.each(MODALS)('$kind shows its title, its text and its form', async (modal) => {
    documentApi();
    const { dialog } = await open(modal);
    expect(dialog).toHaveTextContent(EXPLORER_MODAL_TEXTS[modal.kind].text);
    expect(await screen.findByRole('form')).toBeInTheDocument();
  });

  it('keeps the texts of the specification word for word', () => {
    expect(Object.values(EXPLORER_MODAL_TEXTS)).toEqual([
      { title: 'Ordner erstellen', text: 'Der Ordner wird im derzeit aktiven Ordner angelegt.' },
      { title: 'Ordner bearbeiten', text: 'Der derzeit aktive Ordner wird bearbeitet.' },
      { title: 'Datei hochladen', text: 'Die Datei wird in den derzeit aktiven Ordner hochgeladen.' },
      {
        title: 'Datei bearbeiten',
        text: 'Durch das Hochladen einer neuen Datei wird die bestehende Datei überschrieben.',
      },
      {
        title: 'Amtsperiode erstellen',
        text: 'Mit dem Festlegen des Starts und des Ends einer Amtsperiode werden alle benötigten Ordner erstellt',
      },
    ]);
  });

  it('"Datei bearbeiten" adds that the replaced content stays as a version (decision 125)', async () => {
    documentApi();
    const { dialog } = await open(MODALS.find((modal) => modal.kind === 'edit-file')!);
    expect(dialog).toHaveTextContent(REPLACE_KEEPS_VERSION);
  });

  it('"Ordner bearbeiten" offers the move targets under "Verschieben nach" and keeps the name', async () => {
    documentApi();
    const { user } = await open({ kind: 'edit-folder' });
    expect(await screen.findByRole('textbox', { name: /^Name/ })).toHaveValue('Sitzungen 2026');
    await user.click(screen.getByRole('combobox', { name: /^Verschieben nach/ }));
    const options = (await screen.findAllByRole('option')).map((option) => option.textContent);
    expect(options).toEqual(['/', '/Aufsichtsrat']);
  });

  it('"Amtsperiode erstellen" starts with the current year for start and end', async () => {
    documentApi();
    await open({ kind: 'period' });
    const year = String(new Date().getFullYear());
    expect(await screen.findByRole('textbox', { name: /^Start/ })).toHaveValue(year);
    expect(screen.getByRole('textbox', { name: /^Ende/ })).toHaveValue(year);
  });
});

describe('explorer modals: closing', () => {
  it('closes on the close button', async () => {
    documentApi();
    const { user } = await open({ kind: 'create-folder' });
    await user.click(screen.getByRole('button', { name: 'Schließen' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('closes on Escape', async () => {
    documentApi();
    const { user } = await open({ kind: 'upload' });
    await screen.findByRole('form');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('closes on a click outside', async () => {
    documentApi();
    await open({ kind: 'period' });
    const overlay = document.querySelector('.mantine-Modal-overlay');
    expect(overlay).not.toBeNull();
    fireEvent.mouseDown(overlay!);
    fireEvent.click(overlay!);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('closes after a successful submit and says so', async () => {
    const api = documentApi();
    api.fetch.mockImplementation(async (input, init) => {
      const url = new URL(String(input), 'http://localhost');
      if (init?.method === 'POST' && url.pathname === '/api/v1/folders') {
        return json(201, { folder: folderRecord() });
      }
      return json(404, { message: 'Nicht gefunden.' });
    });
    const { user } = await open({ kind: 'create-folder' });
    await user.type(await screen.findByRole('textbox', { name: /^Name/ }), 'Beschlüsse');
    await user.click(screen.getByRole('button', { name: 'Ordner erstellen' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText(FOLDER_MESSAGES.created)).toBeInTheDocument();
    const post = api.fetch.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ title: 'Beschlüsse', folder_id: 10 });
  });

  it("stays open on a 422 and shows the server's message there and the toast", async () => {
    const api = documentApi();
    api.fetch.mockImplementation(async () =>
      json(422, {
        message: 'Ein Ordner mit diesem Namen existiert hier bereits.',
        errors: { title: ['Ein Ordner mit diesem Namen existiert hier bereits.'] },
      }),
    );
    const { user, dialog } = await open({ kind: 'create-folder' });
    await user.type(await screen.findByRole('textbox', { name: /^Name/ }), 'Beschlüsse');
    await user.click(screen.getByRole('button', { name: 'Ordner erstellen' }));

    expect(
      await screen.findByText(FOLDER_MESSAGES.createFailed, { selector: '.mantine-Notification-title' }),
    ).toBeInTheDocument();
    expect(dialog).toBeInTheDocument();
    expect(dialog).toHaveTextContent('Ein Ordner mit diesem Namen existiert hier bereits.');
  });

  it('validates the name with the contract rules before sending', async () => {
    const api = documentApi();
    const { user } = await open({ kind: 'create-folder' });
    await user.type(await screen.findByRole('textbox', { name: /^Name/ }), 'a/b');
    await user.click(screen.getByRole('button', { name: 'Ordner erstellen' }));
    expect(await screen.findByText(FOLDER_MESSAGES.slashInTitle)).toBeInTheDocument();
    expect(api.fetch.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
  });
});
