import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, mockApi, type MockHandler, type MockReply } from '../../../../testing/fetch-mock';
import { adminUser, signIn } from '../../../../testing/factories';
import { renderApp } from '../../../../testing/render';
import { makeAgenda, makeFileEntry, makeFolderEntry } from '../agenda-fixtures';
import { makeMeeting } from '../meeting-fixtures';

const MV = { id: 3, title: 'Mitgliedervertreter' };

function pickerApi(routes: Record<string, MockHandler | MockReply> = {}) {
  return mockApi({
    'GET /api/v1/events/5': json(200, {
      data: makeMeeting({ agenda_count: 5, roles: ['Vertreter', 'Aufsichtsrat'] }),
    }),
    'GET /api/v1/events/5/agenda': json(200, { data: makeAgenda({ admin: true }) }),
    'GET /api/v1/root/files': json(200, {
      data: [makeFolderEntry(2, 'Aufsichtsrat'), makeFolderEntry(3, 'Mitgliedervertreter')],
    }),
    'GET /api/v1/folders/3/files': json(200, {
      data: [
        makeFolderEntry(30, 'Protokolle', '/Mitgliedervertreter/Protokolle'),
        makeFileEntry(201, 'Haushaltsplan 2026', MV),
      ],
    }),
    'GET /api/v1/search': ({ url }) =>
      json(200, {
        data:
          new URL(url, 'http://x').searchParams.get('q') === 'Satz'
            ? [
                {
                  type: 'file',
                  id: 301,
                  title: 'Satzung',
                  highlight: [],
                  snippet: null,
                  breadcrumb: '/Allgemein',
                  folder_id: 4,
                  format: 'pdf',
                  date: '2026-01-01T10:00:00.000Z',
                  place: null,
                  searchable: true,
                },
              ]
            : [],
        meta: { total: 1, page: 1, per_page: 20, last_page: 1 },
      }),
    'POST /api/v1/events/5/agenda/check': ({ body }) =>
      json(200, {
        data: (body as { file_ids: number[] }).file_ids.map((id) => ({
          file_id: id,
          title: id === 201 ? 'Haushaltsplan 2026' : 'Satzung',
          unseen_by: id === 201 ? ['Aufsichtsrat'] : [],
        })),
      }),
    'PUT /api/v1/events/5/agenda': json(200, { data: makeAgenda({ admin: true }) }),
    ...routes,
  });
}

async function openEditor(routes: Record<string, MockHandler | MockReply> = {}) {
  signIn(adminUser());
  const api = pickerApi(routes);
  const rendered = renderApp('/events/agenda/5');
  await screen.findByRole('list', { name: 'Punkte der Tagesordnung' });
  return { ...api, ...rendered };
}

const card = (name: string) => screen.getByRole('group', { name });
const checks = (requests: { method: string; url: string; body: unknown }[]) =>
  requests.filter((r) => r.method === 'POST' && r.url.endsWith('/agenda/check')).map((r) => r.body);

describe('choosing documents for an agenda item', () => {
  it('opens folders one by one and searches, ticks documents and warns about roles that miss one', async () => {
    const { user, requests } = await openEditor();
    await user.click(within(card('3 Verschiedenes')).getByRole('button', { name: 'Dokumente auswählen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Dokumente auswählen' });
    expect(dialog).toHaveTextContent('Für Punkt 3 „Verschiedenes“.');
    expect(dialog).toHaveTextContent('0 Dokumente ausgewählt');

    const folder = await within(dialog).findByRole('button', { name: 'Mitgliedervertreter' });
    expect(folder).toHaveAttribute('aria-expanded', 'false');
    await user.click(folder);
    expect(folder).toHaveAttribute('aria-expanded', 'true');
    const plan = await within(dialog).findByRole('checkbox', { name: 'Haushaltsplan 2026.pdf' });
    expect(within(dialog).getByRole('button', { name: 'Protokolle' })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
    await user.click(plan);
    expect(dialog).toHaveTextContent('1 Dokument ausgewählt');

    await user.type(within(dialog).getByRole('textbox', { name: /Dokumente suchen/ }), 'Satz');
    const hits = await within(dialog).findByRole('list', { name: 'Suchergebnisse' });
    await user.click(within(hits).getByRole('checkbox', { name: 'Satzung.pdf' }));
    expect(hits).toHaveTextContent('/Allgemein');
    expect(dialog).toHaveTextContent('2 Dokumente ausgewählt');
    expect(requests.some((r) => r.url === '/api/v1/search?q=Satz&type=file&per_page=20')).toBe(true);
    // Nothing is asked below two characters.
    expect(requests.some((r) => r.url.startsWith('/api/v1/search?q=S&'))).toBe(false);

    await user.click(within(dialog).getByRole('button', { name: 'Übernehmen' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const documents = within(card('3 Verschiedenes')).getByRole('group', { name: 'Dokumente zu Punkt 3' });
    expect(
      within(documents)
        .getAllByRole('listitem')
        .map((row) => row.textContent),
    ).toEqual([expect.stringContaining('Haushaltsplan 2026.pdf'), expect.stringContaining('Satzung.pdf')]);
    const planRow = within(documents).getAllByRole('listitem')[0]!;
    expect(await within(planRow).findByText('Für die Rolle Aufsichtsrat nicht sichtbar')).toBeInTheDocument();
    expect(within(documents).getAllByRole('listitem')[1]).not.toHaveTextContent('nicht sichtbar');
    expect(checks(requests)).toEqual([{ file_ids: [201, 301] }]);
    // Read out, as it appears after the dialog has closed.
    expect(
      screen.getByText('Hinweis: „Haushaltsplan 2026“: Für die Rolle Aufsichtsrat nicht sichtbar.'),
    ).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Speichern' }));
    await waitFor(() => expect(requests.filter((r) => r.method === 'PUT')).toHaveLength(1));
    const body = requests.find((r) => r.method === 'PUT')!.body as { items: { file_ids: number[] }[] };
    expect(body.items[2]!.file_ids).toEqual([201, 301]);
  }, 30_000);

  it('starts with the documents already linked: Abbrechen keeps them, the row button takes one off', async () => {
    const { user, requests } = await openEditor();
    const documents = () =>
      within(card('2 Jahresabschluss 2025')).getByRole('group', { name: 'Dokumente zu Punkt 2' });
    // The saved agenda already says who misses a document: no check needed.
    expect(within(documents()).getByText('Für die Rolle Vertreter nicht sichtbar')).toBeInTheDocument();

    const open = () =>
      user.click(
        within(card('2 Jahresabschluss 2025')).getAllByRole('button', { name: 'Dokumente auswählen' })[0]!,
      );
    await open();
    let dialog = await screen.findByRole('dialog', { name: 'Dokumente auswählen' });
    expect(dialog).toHaveTextContent('2 Dokumente ausgewählt');
    await user.click(within(dialog).getByRole('button', { name: 'Abbrechen' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(within(documents()).getAllByRole('listitem')).toHaveLength(2);

    await user.click(
      within(documents()).getByRole('button', { name: '„Bilanz 2025.pdf“ aus Punkt 2 entfernen' }),
    );
    expect(within(documents()).getAllByRole('listitem')).toHaveLength(1);
    await open();
    dialog = await screen.findByRole('dialog', { name: 'Dokumente auswählen' });
    expect(dialog).toHaveTextContent('1 Dokument ausgewählt');
    expect(checks(requests)).toEqual([]);
  }, 30_000);

  it('says when the visibility could not be checked', async () => {
    const { user } = await openEditor({
      'POST /api/v1/events/5/agenda/check': json(500, { message: 'Fehler' }),
    });
    await user.click(within(card('3 Verschiedenes')).getByRole('button', { name: 'Dokumente auswählen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Dokumente auswählen' });
    await user.click(await within(dialog).findByRole('button', { name: 'Mitgliedervertreter' }));
    await user.click(await within(dialog).findByRole('checkbox', { name: 'Haushaltsplan 2026.pdf' }));
    await user.click(within(dialog).getByRole('button', { name: 'Übernehmen' }));
    expect(
      await within(card('3 Verschiedenes')).findByText('Die Sichtbarkeit konnte nicht geprüft werden.'),
    ).toBeInTheDocument();
  }, 30_000);
});
