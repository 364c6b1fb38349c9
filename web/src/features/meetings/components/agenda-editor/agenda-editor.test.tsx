// Over 300 lines: the editor's structure, order (menu and keyboard), save, error and leave tests share one API stand-in.
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { MEETING_MESSAGES } from '@gremienportal/contracts/meetings';
import { msg } from '@gremienportal/contracts/rules';
import { json, mockApi, type MockHandler, type MockReply } from '../../../../testing/fetch-mock';
import { adminUser, signIn } from '../../../../testing/factories';
import { renderApp } from '../../../../testing/render';
import { makeAgenda } from '../agenda-fixtures';
import { makeMeeting } from '../meeting-fixtures';

function editorApi(routes: Record<string, MockHandler | MockReply> = {}) {
  return mockApi({
    'GET /api/v1/events/5': json(200, { data: makeMeeting({ agenda_count: 5 }) }),
    'GET /api/v1/events/5/agenda': json(200, { data: makeAgenda({ admin: true }) }),
    'PUT /api/v1/events/5/agenda': json(200, { data: makeAgenda({ admin: true }) }),
    ...routes,
  });
}

async function openEditor(routes: Record<string, MockHandler | MockReply> = {}) {
  signIn(adminUser());
  const api = editorApi(routes);
  const rendered = renderApp('/events/agenda/5');
  await screen.findByRole('heading', { level: 1, name: 'Tagesordnung bearbeiten' });
  await screen.findByRole('button', { name: 'Punkt hinzufügen' });
  return { ...api, ...rendered };
}

/** The card of an item, named by its number and title ("2 Jahresabschluss 2025"). */
const card = (name: string) => screen.getByRole('group', { name });
/** Its own title field (a main item's card also holds its sub-items' fields). */
const titleField = (name: string) => within(card(name)).getAllByRole('textbox', { name: /^Titel/ })[0]!;
const headers = () =>
  screen
    .getAllByRole('group')
    .filter((group) => group.hasAttribute('aria-labelledby'))
    .map((group) => document.getElementById(group.getAttribute('aria-labelledby')!)!.textContent);
const puts = (requests: { method: string; body: unknown }[]) => requests.filter((r) => r.method === 'PUT');

describe('the agenda editor', () => {
  it('adds items and sub-items, focuses the new title and removes them again', async () => {
    const { user } = await openEditor();
    expect(headers()).toEqual([
      '1 Begrüßung',
      '2 Jahresabschluss 2025',
      '2.1 Bericht der Kassenprüfung',
      '2.2 Verwendung des Bilanzgewinns',
      '3 Verschiedenes',
    ]);

    await user.click(screen.getByRole('button', { name: 'Punkt hinzufügen' }));
    expect(titleField('4 Neuer Punkt')).toHaveFocus();
    await user.keyboard('Anträge');
    await user.click(within(card('4 Anträge')).getByRole('button', { name: 'Unterpunkt hinzufügen' }));
    expect(titleField('4.1 Neuer Unterpunkt')).toHaveFocus();
    await user.keyboard('Antrag auf Satzungsänderung');
    expect(headers().slice(-2)).toEqual(['4 Anträge', '4.1 Antrag auf Satzungsänderung']);

    await user.click(
      screen.getByRole('button', {
        name: 'Weitere Aktionen für Unterpunkt 4.1 „Antrag auf Satzungsänderung“',
      }),
    );
    await user.click(await screen.findByRole('menuitem', { name: 'Entfernen' }));
    expect(headers().slice(-1)).toEqual(['4 Anträge']);
    await waitFor(() =>
      expect(within(card('4 Anträge')).getByRole('button', { name: 'Unterpunkt hinzufügen' })).toHaveFocus(),
    );

    // An item with sub-items goes only after a question.
    await user.click(
      screen.getByRole('button', { name: 'Weitere Aktionen für Punkt 2 „Jahresabschluss 2025“' }),
    );
    await user.click(await screen.findByRole('menuitem', { name: 'Entfernen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Punkt 2 „Jahresabschluss 2025“ entfernen?' });
    expect(dialog).toHaveTextContent('Mit ihm werden 2 Unterpunkte entfernt.');
    await user.click(within(dialog).getByRole('button', { name: 'Entfernen' }));
    await waitFor(() => expect(headers()).toEqual(['1 Begrüßung', '2 Verschiedenes', '3 Anträge']));
  }, 30_000);

  it('reorders with "Nach oben", "Nach unten" and sub-item moves, and saves the order in one PUT', async () => {
    const { user, requests, router } = await openEditor();
    const menu = async (name: string, item: string | RegExp) => {
      await user.click(screen.getByRole('button', { name: `Weitere Aktionen für ${name}` }));
      await user.click(await screen.findByRole('menuitem', { name: item }));
    };
    // The first item cannot go further up: the menu does not offer it.
    await user.click(screen.getByRole('button', { name: 'Weitere Aktionen für Punkt 1 „Begrüßung“' }));
    expect(await screen.findByRole('menuitem', { name: 'Nach unten' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Nach oben' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('menuitem', { name: 'Nach unten' }));
    expect(headers().slice(0, 2)).toEqual(['1 Jahresabschluss 2025', '1.1 Bericht der Kassenprüfung']);

    await menu('Unterpunkt 1.2 „Verwendung des Bilanzgewinns“', 'Nach oben');
    await menu('Punkt 3 „Verschiedenes“', 'Zum Unterpunkt von Punkt 2 machen');
    await menu('Unterpunkt 1.2 „Bericht der Kassenprüfung“', 'Zum eigenen Punkt machen');
    expect(headers()).toEqual([
      '1 Jahresabschluss 2025',
      '1.1 Verwendung des Bilanzgewinns',
      '2 Bericht der Kassenprüfung',
      '3 Begrüßung',
      '3.1 Verschiedenes',
    ]);

    await user.click(screen.getByRole('button', { name: 'Speichern' }));
    expect(await screen.findByText(MEETING_MESSAGES.agendaSaved)).toBeInTheDocument();
    expect(puts(requests)).toHaveLength(1);
    expect(puts(requests)[0]).toMatchObject({
      url: '/api/v1/events/5/agenda',
      body: {
        items: [
          {
            title: 'Jahresabschluss 2025',
            description: 'Vorlage und Aussprache.\nBeschluss.',
            presenter: 'Vorstand',
            file_ids: [102, 103],
            children: [
              { title: 'Verwendung des Bilanzgewinns', description: '', presenter: '', file_ids: [] },
            ],
          },
          {
            title: 'Bericht der Kassenprüfung',
            description: '',
            presenter: '',
            file_ids: [104],
            children: [],
          },
          {
            title: 'Begrüßung',
            description: '',
            presenter: 'Dr. Maria Vorsitz',
            file_ids: [101],
            children: [{ title: 'Verschiedenes', description: '', presenter: '', file_ids: [] }],
          },
        ],
      },
    });
    // Saved: on to the event page, without asking about unsaved changes.
    await waitFor(() => expect(router.state.location.pathname).toBe('/events/show/5'));
  }, 30_000);

  it("checks the title with the contract's message before sending, at the field", async () => {
    const { user, requests } = await openEditor();
    await user.clear(titleField('3 Verschiedenes'));
    await user.click(screen.getByRole('button', { name: 'Speichern' }));
    const field = titleField('3 Neuer Punkt');
    expect(field).toHaveAccessibleDescription(msg.required('Titel'));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Die Tagesordnung wurde nicht gespeichert.Bitte die markierten Angaben prüfen.',
    );
    await waitFor(() => expect(field).toHaveFocus());
    expect(puts(requests)).toHaveLength(0);

    await user.type(field, 'Sonstiges');
    expect(field).not.toHaveAccessibleDescription();
  });

  it("shows the server's 422 at the fields and as a message, and keeps everything typed", async () => {
    const { user, router } = await openEditor({
      'PUT /api/v1/events/5/agenda': json(422, {
        message: 'Die Eingaben sind ungültig.',
        errors: {
          'items.0.title': ['Titel darf keine unsichtbaren Zeichen enthalten.'],
          'items.1.children.0.file_ids': [MEETING_MESSAGES.unknownFile],
          items: [MEETING_MESSAGES.agendaTooLong],
        },
      }),
    });
    await user.type(titleField('1 Begrüßung'), ' der Gäste');
    await user.type(
      within(card('3 Verschiedenes')).getByRole('textbox', { name: 'Vortragende Person' }),
      'Frau Rat',
    );
    await user.click(screen.getByRole('button', { name: 'Speichern' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(MEETING_MESSAGES.agendaTooLong);
    expect(titleField('1 Begrüßung der Gäste')).toHaveAccessibleDescription(
      'Titel darf keine unsichtbaren Zeichen enthalten.',
    );
    const documents = within(card('2.1 Bericht der Kassenprüfung')).getByRole('group', {
      name: 'Dokumente zu Unterpunkt 2.1',
    });
    expect(documents).toHaveAccessibleDescription(MEETING_MESSAGES.unknownFile);
    expect(within(card('3 Verschiedenes')).getByRole('textbox', { name: 'Vortragende Person' })).toHaveValue(
      'Frau Rat',
    );
    expect(router.state.location.pathname).toBe('/events/agenda/5');
  });

  it('asks before unsaved changes are lost, and not when nothing changed', async () => {
    const { user, router } = await openEditor();
    await user.type(titleField('3 Verschiedenes'), ' und Termine');
    await user.click(screen.getByRole('link', { name: 'Abbrechen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Änderungen verwerfen?' });
    await user.click(within(dialog).getByRole('button', { name: 'Weiter bearbeiten' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(titleField('3 Verschiedenes und Termine')).toHaveValue('Verschiedenes und Termine');
    expect(router.state.location.pathname).toBe('/events/agenda/5');

    await user.click(screen.getByRole('link', { name: 'Abbrechen' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Änderungen verwerfen?' })).getByRole('button', {
        name: 'Verwerfen und verlassen',
      }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/events/show/5'));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await screen.findByRole('heading', { level: 1, name: 'Vertreterversammlung' }, { timeout: 10_000 });

    // Back in the editor without a change, leaving does not ask.
    await router.navigate('/events/agenda/5');
    await screen.findByRole('list', { name: 'Punkte der Tagesordnung' });
    await user.click(screen.getByRole('link', { name: 'Abbrechen' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/events/show/5'));
    expect(screen.queryByRole('dialog', { name: 'Änderungen verwerfen?' })).not.toBeInTheDocument();
  }, 30_000);

  it('starts an empty agenda with its first item', async () => {
    const { user, requests } = await openEditor({
      'GET /api/v1/events/5': json(200, { data: makeMeeting() }),
      'GET /api/v1/events/5/agenda': json(200, { data: [] }),
    });
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Tagesordnung anlegen');
    expect(screen.getByText(/Noch keine Punkte/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Punkt hinzufügen' }));
    await user.keyboard('Begrüßung');
    await user.click(screen.getByRole('button', { name: 'Speichern' }));
    await waitFor(() => expect(puts(requests)).toHaveLength(1));
    expect(puts(requests)[0]!.body).toEqual({
      items: [{ title: 'Begrüßung', description: '', presenter: '', file_ids: [], children: [] }],
    });
  });
});

/**
 * jsdom lays nothing out: each item of the editor's lists gets a box 100 px high below the one
 * before it, so that dnd-kit's keyboard control can find the next place.
 */
function layOutLists() {
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
    const list = this.parentElement;
    const index = this.tagName === 'LI' && list ? [...list.children].indexOf(this) : 0;
    const top = this.tagName === 'LI' ? 100 + index * 100 : 0;
    return {
      x: 0,
      y: top,
      top,
      left: 0,
      width: 800,
      height: 90,
      right: 800,
      bottom: top + 90,
      toJSON: () => ({}),
    } as DOMRect;
  });
}

describe('reordering with the keyboard on the grip', () => {
  it('picks an item up with the space bar, moves it with the arrow keys and drops it, announced in German', async () => {
    layOutLists();
    const { user, requests } = await openEditor();
    const grip = screen.getByRole('button', { name: 'Punkt 1 „Begrüßung“ verschieben' });
    expect(grip).toHaveAttribute('aria-roledescription', 'verschiebbarer Punkt');
    expect(grip).toHaveAccessibleDescription(/Zum Verschieben die Leertaste drücken/);

    grip.focus();
    await user.keyboard(' ');
    expect(await screen.findByText('Punkt 1 „Begrüßung“ aufgenommen, Position 1 von 3.')).toBeInTheDocument();
    await user.keyboard('{ArrowDown}');
    expect(
      await screen.findByText('Punkt 1 „Begrüßung“ ist jetzt auf Position 2 von 3.'),
    ).toBeInTheDocument();
    await user.keyboard(' ');
    await waitFor(() =>
      expect(headers()).toEqual([
        '1 Jahresabschluss 2025',
        '1.1 Bericht der Kassenprüfung',
        '1.2 Verwendung des Bilanzgewinns',
        '2 Begrüßung',
        '3 Verschiedenes',
      ]),
    );

    // Escape puts it back.
    const again = screen.getByRole('button', { name: 'Punkt 3 „Verschiedenes“ verschieben' });
    again.focus();
    await user.keyboard(' ');
    await user.keyboard('{ArrowUp}');
    await user.keyboard('{Escape}');
    expect(
      await screen.findByText('Verschieben abgebrochen. Punkt 3 „Verschiedenes“ bleibt, wo er war.'),
    ).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Speichern' }));
    await waitFor(() => expect(requests.filter((r) => r.method === 'PUT')).toHaveLength(1));
    const body = requests.find((r) => r.method === 'PUT')!.body as { items: { title: string }[] };
    expect(body.items.map((item) => item.title)).toEqual([
      'Jahresabschluss 2025',
      'Begrüßung',
      'Verschiedenes',
    ]);
  }, 30_000);
});
