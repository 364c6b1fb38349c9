import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { IMPORT_MESSAGES, type Membership } from '@gremienportal/contracts/committees';
import { json, mockApi, type MockHandler, type MockReply } from '../../../testing/fetch-mock';
import { adminUser, signIn, vertreterUser } from '../../../testing/factories';
import { renderApp } from '../../../testing/render';
import { mockUploads } from '../../../testing/upload-mock';
import { makeCommittee, makeImportResult, makeMembership, makeTerm } from './committee-fixtures';

const DIRECTORY: Membership[] = [
  makeMembership('Łucja', 'Nowak', { email: 'lucja@example.org', district: 'Nord' }),
  makeMembership('Emre', 'Şahin', { function: 'ersatzmitglied', rank: 2 }),
  makeMembership('Anna', 'Zeller', { function: 'ersatzmitglied', rank: 1 }),
  makeMembership('Bernd', 'Becker', { function: 'vorsitz', from: '2026-07-01' }),
  makeMembership('Dora', 'Dietz', { function: 'stellvertretung' }),
];

function committeeApi(routes: Record<string, MockHandler | MockReply> = {}) {
  return mockApi({
    'GET /api/v1/committees/3': json(200, { data: makeCommittee() }),
    'GET /api/v1/committees/3/terms': json(200, {
      data: [
        makeTerm(),
        makeTerm({
          id: 9,
          start: '2022-07-01',
          end: '2026-06-30',
          title: 'Amtsperiode 2022–2026',
          archived: true,
        }),
      ],
    }),
    'GET /api/v1/committees/3/members': json(200, { data: DIRECTORY }),
    ...routes,
  });
}

const directory = () => screen.getByRole('region', { name: 'Mitgliederverzeichnis' });

describe('/gremien', () => {
  it('tells a member who belongs to no committee so, without admin actions', async () => {
    signIn(vertreterUser());
    mockApi({ 'GET /api/v1/committees': json(200, { data: [] }) });
    renderApp('/gremien');
    expect(await screen.findByText('Sie gehören zurzeit keinem Gremium an.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Gremien', level: 1 })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Gremium anlegen' })).not.toBeInTheDocument();
  });

  it('lists each committee with its Art, current term and member count', async () => {
    signIn(adminUser());
    mockApi({
      'GET /api/v1/committees': json(200, {
        data: [
          makeCommittee(),
          makeCommittee({
            id: 4,
            name: 'Prüfungsausschuss',
            kind: 'ausschuss',
            current_term: null,
            member_count: 1,
          }),
        ],
      }),
    });
    renderApp('/gremien');
    const list = await screen.findByRole('list', { name: 'Gremien' });
    const [first, second] = within(list).getAllByRole('listitem');
    expect(within(first!).getByRole('link', { name: 'Aufsichtsrat' })).toHaveAttribute('href', '/gremien/3');
    expect(within(first!).getByText('Amtsperiode 2026–2030')).toBeInTheDocument();
    expect(within(first!).getByText('3 Mitglieder')).toBeInTheDocument();
    expect(within(second!).getByText('Ausschuss')).toBeInTheDocument();
    expect(within(second!).getByText('Keine laufende Amtsperiode')).toBeInTheDocument();
    expect(within(second!).getByText('1 Mitglied')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Gremium anlegen' })).toBeInTheDocument();
  });
});

describe('/gremien/{id}: the member directory', () => {
  it('groups the current term by function, Vorsitz first, Ersatzmitglieder by rank', async () => {
    signIn(vertreterUser());
    const { requests } = committeeApi();
    renderApp('/gremien/3');
    await screen.findByRole('heading', { name: 'Aufsichtsrat', level: 1 });
    await within(await screen.findByRole('region', { name: 'Mitgliederverzeichnis' })).findByText(
      'Łucja Nowak',
    );

    const headings = within(directory())
      .getAllByRole('heading', { level: 3 })
      .map((heading) => heading.textContent);
    expect(headings).toEqual(['Vorsitz', 'Stellvertretender Vorsitz', 'Mitglieder', 'Ersatzmitglieder']);

    const substitutes = within(screen.getByRole('region', { name: 'Ersatzmitglieder' })).getAllByRole(
      'listitem',
    );
    expect(substitutes.map((card) => within(card).getByRole('heading').textContent)).toEqual([
      'Anna Zeller',
      'Emre Şahin',
    ]);
    expect(within(substitutes[0]!).getByText('1. Ersatzmitglied')).toBeInTheDocument();
    expect(within(substitutes[1]!).getByText('2. Ersatzmitglied')).toBeInTheDocument();

    const member = within(screen.getByRole('region', { name: 'Mitglieder' })).getByRole('listitem');
    expect(within(member).getByText('seit 01.07.2026')).toBeInTheDocument();
    expect(within(member).getByText('Wahlbezirk: Nord')).toBeInTheDocument();
    expect(within(member).getByRole('link', { name: 'lucja@example.org' })).toHaveAttribute(
      'href',
      'mailto:lucja@example.org',
    );

    // The current term is asked for, and the links lead to the folder and the meetings.
    expect(requests.some((request) => request.url === '/api/v1/committees/3/members?term_id=12')).toBe(true);
    expect(screen.getByRole('link', { name: 'Ordner öffnen' })).toHaveAttribute('href', '/files?folder=40');
    expect(screen.getByRole('link', { name: 'Sitzungen' })).toHaveAttribute('href', '/events');
    // Members change nothing.
    expect(screen.queryByRole('button', { name: 'Mitglied hinzufügen' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /bearbeiten$/ })).not.toBeInTheDocument();
  });

  it('shows an earlier term read-only, marked Archiv', async () => {
    signIn(adminUser());
    const { requests } = committeeApi();
    const { user } = renderApp('/gremien/3');
    await within(await screen.findByRole('region', { name: 'Mitgliederverzeichnis' })).findByText(
      'Łucja Nowak',
    );
    expect(screen.getByRole('button', { name: 'Mitglied hinzufügen' })).toBeInTheDocument();

    await user.click(screen.getByRole('combobox', { name: 'Amtsperiode' }));
    await user.click(await screen.findByRole('option', { name: 'Amtsperiode 2022–2026 (Archiv)' }));

    await waitFor(() =>
      expect(requests.some((request) => request.url === '/api/v1/committees/3/members?term_id=9')).toBe(true),
    );
    expect(await within(directory()).findByText('Archiv')).toBeInTheDocument();
    expect(within(directory()).getByText(/nur zum Nachlesen/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Mitglied hinzufügen' })).not.toBeInTheDocument();
    expect(
      screen.queryByRole('button', { name: /^Mitgliedschaft von .* bearbeiten$/ }),
    ).not.toBeInTheDocument();
    // Only a Super-Admin reopens an archive.
    expect(screen.queryByRole('button', { name: 'Archiv wieder öffnen' })).not.toBeInTheDocument();
  });

  it('confirms that the proposed Ersatzmitglied moves up, then loads the directory again', async () => {
    signIn(adminUser());
    const ended = makeMembership('Egon', 'Ernst', {
      id: 77,
      until: '2026-10-31',
      active: false,
      reason: 'ruecktritt',
      proposed_successor: { membership_id: 78, name: 'Anna Zeller' },
    });
    let memberLoads = 0;
    const { requests } = committeeApi({
      'GET /api/v1/committees/3/members': () => {
        memberLoads += 1;
        return json(200, { data: [...DIRECTORY, ended] });
      },
      'POST /api/v1/memberships/77/successor': json(201, { data: DIRECTORY[2] }),
    });
    const { user } = renderApp('/gremien/3');
    const left = await screen.findByRole('region', { name: 'Ausgeschieden' });
    expect(within(left).getByText('Rücktritt', { exact: false })).toBeInTheDocument();

    await user.click(
      within(left).getByRole('button', { name: 'Nachrücken bestätigen: Anna Zeller für Egon Ernst' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Nachrücken bestätigen' });
    expect(within(dialog).getByText('Anna Zeller rückt nach')).toBeInTheDocument();
    const loadsBefore = memberLoads;
    await user.click(within(dialog).getByRole('button', { name: 'Nachrücken bestätigen' }));

    expect(await screen.findByText('Anna Zeller ist nachgerückt.')).toBeInTheDocument();
    expect(requests.filter((request) => request.method === 'POST').map((request) => request.url)).toEqual([
      '/api/v1/memberships/77/successor',
    ]);
    await waitFor(() => expect(memberLoads).toBeGreaterThan(loadsBefore));
  });
});

describe('Mitglieder importieren', () => {
  async function openImport() {
    signIn(adminUser());
    committeeApi();
    const app = renderApp('/gremien/3');
    await app.user.click(await screen.findByRole('button', { name: 'Mitglieder importieren' }));
    const dialog = await screen.findByRole('dialog', { name: 'Mitglieder importieren' });
    const csv = new File(['Vorname;Nachname;E-Mail;Funktion\n'], 'mitglieder.csv', { type: 'text/csv' });
    await app.user.upload(await within(dialog).findByLabelText('CSV-Datei', { selector: 'input' }), csv);
    return { ...app, dialog };
  }

  it('checks the file first and shows the preview with its counts; rows with errors block the import', async () => {
    const uploads = mockUploads(() => ({
      status: 200,
      body: makeImportResult({
        rows: [
          { row: 2, name: 'Łucja Nowak', email: 'lucja@example.org', action: 'new_account', messages: [] },
          {
            row: 3,
            name: 'Emre Şahin',
            email: 'emre@example',
            action: 'error',
            messages: ['Ungültige E-Mail-Adresse.'],
          },
          { row: 4, name: 'Olaf Ohm', email: 'olaf@example.org', action: 'new_account', messages: [] },
          { row: 5, name: 'Pia Paul', email: 'pia@example.org', action: 'new_account', messages: [] },
        ],
        counts: { new_accounts: 3, new_memberships: 0, changed: 0, unchanged: 0, errors: 1 },
      }),
    }));
    const { user, dialog } = await openImport();
    await user.click(within(dialog).getByRole('button', { name: 'Datei prüfen' }));

    expect(
      await within(dialog).findByText('Die Datei ergibt: 3 neue Konten und 1 fehlerhafte Zeile.'),
    ).toBeInTheDocument();
    expect(uploads).toHaveLength(1);
    expect(uploads[0]!.url).toBe('/api/v1/committees/3/members/import?term_id=12&dry_run=true');
    expect(uploads[0]!.headers['content-type']).toBe('text/csv');
    expect((uploads[0]!.body as unknown as File).name).toBe('mitglieder.csv');

    // At first only the rows with errors are listed, each with its message.
    const table = within(dialog).getByRole('table', { name: 'Vorschau des Imports' });
    expect(within(table).getByText('Ungültige E-Mail-Adresse.')).toBeInTheDocument();
    expect(within(table).getByText('Fehler')).toBeInTheDocument();

    const execute = within(dialog).getByRole('button', { name: 'Import ausführen' });
    expect(execute).toBeDisabled();
    expect(within(dialog).getByText(IMPORT_MESSAGES.hasErrors)).toBeInTheDocument();
    expect(execute).toHaveAccessibleDescription(IMPORT_MESSAGES.hasErrors);

    await user.click(within(dialog).getByRole('switch', { name: 'Nur Zeilen mit Fehlern zeigen' }));
    expect(within(table).getByText('Olaf Ohm')).toBeInTheDocument();
    expect(within(table).getAllByText('Neues Konto mit Einladung und neue Mitgliedschaft')).toHaveLength(3);
  });

  it('runs the import after a clean preview and shows its result', async () => {
    const uploads = mockUploads((upload) =>
      upload.url.endsWith('dry_run=true')
        ? { status: 200, body: makeImportResult() }
        : { status: 200, body: makeImportResult({ dry_run: false }) },
    );
    const { user, dialog } = await openImport();
    await user.click(within(dialog).getByRole('button', { name: 'Datei prüfen' }));
    expect(
      await within(dialog).findByText('Die Datei ergibt: 1 neues Konto und 1 neue Mitgliedschaft.'),
    ).toBeInTheDocument();

    const execute = within(dialog).getByRole('button', { name: 'Import ausführen' });
    expect(execute).toBeEnabled();
    await user.click(execute);

    expect(
      await within(dialog).findByText(/^Import ausgeführt: 1 neues Konto und 1 neue Mitgliedschaft\./),
    ).toBeInTheDocument();
    expect(uploads.map((upload) => upload.url)).toEqual([
      '/api/v1/committees/3/members/import?term_id=12&dry_run=true',
      '/api/v1/committees/3/members/import?term_id=12&dry_run=false',
    ]);
  });

  it('shows the server’s German reason when the file cannot be read', async () => {
    mockUploads(() => ({
      status: 422,
      body: { message: IMPORT_MESSAGES.missingColumns(['E-Mail', 'Funktion']) },
    }));
    const { user, dialog } = await openImport();
    await user.click(within(dialog).getByRole('button', { name: 'Datei prüfen' }));
    expect(await within(dialog).findByText('Es fehlen die Spalten E-Mail, Funktion.')).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Import ausführen' })).not.toBeInTheDocument();
  });
});

/** A form field by its label (Mantine may append the required marker " *"). */
const labelled = (name: string) => new RegExp(`^${name}( \\*)?$`);

describe('admin forms', () => {
  it('creates a committee with its rules and opens its page', async () => {
    signIn(adminUser());
    const created = makeCommittee({
      id: 8,
      name: 'Prüfungsausschuss',
      kind: 'ausschuss',
      current_term: null,
    });
    const { requests } = mockApi({
      'GET /api/v1/committees': json(200, { data: [] }),
      'GET /api/v1/file-breadcrumbs': json(200, {
        data: [{ id: 40, breadcrumb: '/Aufsichtsrat', archived: false }],
      }),
      'POST /api/v1/committees': json(201, { data: created }),
      'GET /api/v1/committees/8': json(200, { data: created }),
      'GET /api/v1/committees/8/terms': json(200, { data: [] }),
    });
    const { user } = renderApp('/gremien');
    await user.click(await screen.findByRole('button', { name: 'Gremium anlegen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Gremium anlegen' });

    // Nothing filled in: the contract's messages, nothing sent.
    await user.click(await within(dialog).findByRole('button', { name: 'Gremium anlegen' }));
    expect(await within(dialog).findByText('Name ist erforderlich.')).toBeInTheDocument();
    expect(within(dialog).getByText('Bitte eine Art des Gremiums wählen.')).toBeInTheDocument();

    await user.type(within(dialog).getByRole('textbox', { name: labelled('Name') }), 'Prüfungsausschuss');
    await user.click(within(dialog).getByRole('combobox', { name: labelled('Art') }));
    await user.click(await screen.findByRole('option', { name: 'Ausschuss' }));
    const rules = within(dialog).getByRole('button', { name: 'Regeln' });
    expect(rules).toHaveAttribute('aria-expanded', 'false');
    await user.click(rules);
    expect(rules).toHaveAttribute('aria-expanded', 'true');
    await user.click(within(dialog).getByRole('switch', { name: 'Ersatzmitglieder sehen die Unterlagen' }));
    const notice = within(dialog).getByRole('textbox', { name: labelled('Einberufungsfrist in Tagen') });
    await user.clear(notice);
    await user.type(notice, '21');
    await user.click(within(dialog).getByRole('button', { name: 'Gremium anlegen' }));

    expect(await screen.findByRole('heading', { name: 'Prüfungsausschuss', level: 1 })).toBeInTheDocument();
    expect(requests.find((request) => request.method === 'POST')?.body).toEqual({
      name: 'Prüfungsausschuss',
      kind: 'ausschuss',
      rules: {
        quorum: 'more_than_half',
        majority: 'simple',
        majority_basis: 'cast',
        abstentions_count: false,
        tie: 'rejected',
        circular_allowed: true,
        circular_objection_stops: true,
        minutes_signers: ['vorsitz', 'schriftfuehrung'],
        substitutes_see_papers: true,
        notice_days: 21,
      },
    });
    expect(await screen.findByText('Für dieses Gremium gibt es noch keine Amtsperiode.')).toBeInTheDocument();
  });

  it('puts the server’s message under the field it belongs to', async () => {
    signIn(adminUser());
    mockApi({
      'GET /api/v1/committees': json(200, { data: [] }),
      'GET /api/v1/file-breadcrumbs': json(200, { data: [] }),
      'POST /api/v1/committees': json(422, {
        message: 'Bitte prüfen Sie Ihre Eingaben.',
        errors: { name: ['Ein Gremium dieses Namens gibt es bereits.'] },
      }),
    });
    const { user } = renderApp('/gremien');
    await user.click(await screen.findByRole('button', { name: 'Gremium anlegen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Gremium anlegen' });
    await user.type(await within(dialog).findByRole('textbox', { name: labelled('Name') }), 'Aufsichtsrat');
    await user.click(within(dialog).getByRole('combobox', { name: labelled('Art') }));
    await user.click(await screen.findByRole('option', { name: 'Aufsichtsrat' }));
    await user.click(within(dialog).getByRole('button', { name: 'Gremium anlegen' }));

    const name = within(dialog).getByRole('textbox', { name: labelled('Name') });
    await waitFor(() =>
      expect(name).toHaveAccessibleDescription('Ein Gremium dieses Namens gibt es bereits.'),
    );
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Bitte prüfen Sie Ihre Eingaben.');
  });

  it('adds an Ersatzmitglied with its rank, within the term by default', async () => {
    signIn(adminUser());
    const { requests } = committeeApi({
      'GET /api/v1/user': json(200, {
        data: [
          {
            id: 5,
            title: 'Frau',
            firstname: 'Łucja',
            lastname: 'Nowak',
            email: 'lucja@example.org',
            roles: ['Vertreter'],
            roles_string: 'Vertreter',
            status: 'aktiv',
            two_factor: false,
            created_at: '2026-11-21T10:00:00.000Z',
          },
        ],
      }),
      'POST /api/v1/committees/3/members': ({ body }) =>
        json(201, { data: makeMembership('Łucja', 'Nowak', body as Partial<Membership>) }),
    });
    const { user } = renderApp('/gremien/3');
    await user.click(await screen.findByRole('button', { name: 'Mitglied hinzufügen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Mitglied hinzufügen' });
    const submit = await within(dialog).findByRole('button', { name: 'Mitglied hinzufügen' });

    await user.click(submit);
    expect(await within(dialog).findByText('Bitte eine Person wählen.')).toBeInTheDocument();

    await user.type(within(dialog).getByRole('combobox', { name: labelled('Person') }), 'nowak');
    await user.click(await screen.findByRole('option', { name: 'Łucja Nowak (lucja@example.org)' }));
    await user.click(within(dialog).getByRole('combobox', { name: labelled('Funktion') }));
    await user.click(await screen.findByRole('option', { name: 'Ersatzmitglied' }));
    // The next free rank: the directory has ranks 1 and 2.
    expect(within(dialog).getByRole('textbox', { name: labelled('Rang') })).toHaveValue('3');
    await user.type(within(dialog).getByRole('textbox', { name: 'Wahlbezirk' }), 'Süd');
    await user.click(submit);

    expect(
      await screen.findByText('Łucja Nowak ist jetzt Mitglied des Gremiums (Amtsperiode 2026–2030).'),
    ).toBeInTheDocument();
    expect(requests.find((request) => request.method === 'POST')?.body).toEqual({
      term_id: 12,
      user_id: 5,
      function: 'ersatzmitglied',
      rank: 3,
      district: 'Süd',
      from: '2026-07-01',
      until: '2030-06-30',
    });
  });
});
