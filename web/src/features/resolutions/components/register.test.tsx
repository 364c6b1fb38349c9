import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Resolution } from '@gremienportal/contracts/beschlussbuch';
import { json, mockApi, type MockHandler, type MockReply } from '../../../testing/fetch-mock';
import { adminUser, signIn, vertreterUser } from '../../../testing/factories';
import { renderApp } from '../../../testing/render';
import { makeResolution, ownMembership, umlaufMotion } from './motion-fixtures';

const REGISTER: Resolution[] = [
  makeResolution(),
  makeResolution({
    id: 41,
    number: 'AR 2026/02',
    title: 'Berichtigung zu AR 2026/01',
    corrects: { id: 40, number: 'AR 2026/01' },
    event_id: null,
    procedure: 'umlauf',
    result: 'angenommen',
    files: [{ id: 31, name: 'Angebot Heizung' }],
    follow_up: {
      responsible: { id: 7, name: 'Erika Mustermann' },
      due_on: '2026-11-30',
      status: 'offen',
      note: 'Angebote einholen',
      overdue: true,
      updated_at: '2026-11-01T10:00:00.000Z',
    },
  }),
];

function registerApi(routes: Record<string, MockHandler | MockReply> = {}) {
  return mockApi({
    'GET /api/v1/resolutions': json(200, { data: REGISTER }),
    'GET /api/v1/motions': json(200, { data: [] }),
    'GET /api/v1/committees': json(200, { data: [{ id: 3, name: 'Aufsichtsrat' }] }),
    'GET /api/v1/committees/3/terms': json(200, {
      data: [
        { id: 12, committee_id: 3, title: 'Amtsperiode 2026–2030', start: '2026-07-01', end: '2030-06-30' },
      ],
    }),
    'GET /api/v1/account': json(200, { data: { memberships: [] } }),
    ...routes,
  });
}

const entries = () => screen.findByRole('list', { name: 'Beschlüsse' });

describe('/beschluesse: the Beschlussbuch', () => {
  it('lists each entry with its number first, result, text, source, documents and follow-up', async () => {
    signIn(vertreterUser());
    registerApi();
    renderApp('/beschluesse');
    const list = await entries();
    const [first, second] = within(list).getAllByRole('article');
    expect(within(first!).getByRole('heading', { level: 3 })).toHaveTextContent('AR 2026/01 · Aufsichtsrat');
    expect(within(first!).getByRole('link', { name: 'AR 2026/01' })).toHaveAttribute(
      'href',
      '/beschluesse/40',
    );
    expect(first).toHaveTextContent('Festgestellt am 03.12.2026');
    expect(within(first!).getByText('Angenommen')).toBeInTheDocument();
    expect(first).toHaveTextContent('Angenommen mit 5 Ja- gegen 2 Nein-Stimmen bei 1 Enthaltung');
    expect(within(first!).getByRole('link', { name: 'Abstimmung in der Sitzung' })).toHaveAttribute(
      'href',
      '/events/show/5',
    );
    expect(within(second!).getByText('Berichtigung zu')).toBeInTheDocument();
    expect(within(second!).getByText('Umlaufverfahren')).toBeInTheDocument();
    expect(within(second!).getByRole('link', { name: 'Angebot Heizung' })).toHaveAttribute(
      'href',
      '/files/show/31',
    );
    expect(second).toHaveTextContent(
      'Umsetzung: Verantwortlich: Erika Mustermann · fällig am 30.11.2026 · Offen',
    );
    expect(within(second!).getByText('Überfällig')).toBeInTheDocument();
    expect(screen.getByText('2 Beschlüsse')).toBeInTheDocument();
    // A short text is not folded, and no fold makes an unnamed region of the entry (axe).
    expect(within(list).queryByRole('region')).not.toBeInTheDocument();
    expect(within(list).queryByRole('button', { name: 'Ganzen Text anzeigen' })).not.toBeInTheDocument();
    // A member keeps no follow-up, corrects nothing, and has no overdue view.
    expect(screen.queryByRole('button', { name: /Umsetzung von .* bearbeiten/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /berichtigen$/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'Überfällige Umsetzungen' })).not.toBeInTheDocument();
    // Nothing waits for the member's vote.
    expect(screen.getByText('Zurzeit wartet keine Abstimmung auf Ihre Stimme.')).toBeInTheDocument();
  });

  it('lists the running votes that wait for the member first, with their deadline', async () => {
    signIn(vertreterUser());
    const { requests } = registerApi({
      'GET /api/v1/motions': (request) =>
        json(200, {
          data: request.url.includes('pending=1') ? [umlaufMotion({ title: 'Dachsanierung' })] : [],
        }),
    });
    renderApp('/beschluesse');
    const running = await screen.findByRole('list', { name: 'Abstimmungen, die auf Ihre Stimme warten' });
    expect(within(running).getByRole('link', { name: 'Dachsanierung' })).toHaveAttribute(
      'href',
      '/beschluesse/vorlagen/21',
    );
    expect(running).toHaveTextContent(/Frist: .* Uhr \(noch \d+ Tage\)/);
    expect(within(running).getByText('Ihre Stimme wird erbeten')).toBeInTheDocument();
    expect(requests.some((request) => request.url === '/api/v1/motions?pending=1')).toBe(true);
  });

  it('filters by committee, term, year, result and text, kept in the address and sent to the API', async () => {
    signIn(vertreterUser());
    const { requests } = registerApi();
    const { user, router } = renderApp('/beschluesse?jahr=2026&ergebnis=angenommen');
    await entries();
    expect(
      requests.some((request) => request.url === '/api/v1/resolutions?year=2026&result=angenommen'),
    ).toBe(true);

    const filters = screen.getByRole('search', { name: 'Beschlüsse filtern' });
    expect(within(filters).getByRole('combobox', { name: 'Amtsperiode' })).toBeDisabled();
    await user.click(within(filters).getByRole('combobox', { name: 'Gremium' }));
    await user.click(await screen.findByRole('option', { name: 'Aufsichtsrat' }));
    await user.click(within(filters).getByRole('combobox', { name: 'Amtsperiode' }));
    await user.click(await screen.findByRole('option', { name: 'Amtsperiode 2026–2030' }));
    await user.type(within(filters).getByRole('textbox', { name: 'Freitext' }), 'Heizung{Enter}');

    await waitFor(() =>
      expect(router.state.location.search).toBe(
        '?gremium=3&amtsperiode=12&jahr=2026&ergebnis=angenommen&q=Heizung',
      ),
    );
    await waitFor(() =>
      expect(
        requests.some(
          (request) =>
            request.url ===
            '/api/v1/resolutions?committee_id=3&term_id=12&year=2026&result=angenommen&q=Heizung',
        ),
      ).toBe(true),
    );
    await user.click(screen.getByRole('button', { name: 'Filter zurücksetzen' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('downloads the register as PDF and CSV with the filters, with the bearer header', async () => {
    signIn(vertreterUser(), 'member-token');
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:http://localhost/1');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const { requests } = registerApi({
      'GET /api/v1/resolutions.pdf': new Response('%PDF', {
        headers: {
          'Content-Type': 'application/pdf',
          'Content-Disposition': 'attachment; filename="Beschlussbuch-2026-12-07.pdf"',
        },
      }),
      'GET /api/v1/resolutions.csv': new Response('Nummer;Titel', {
        headers: {
          'Content-Type': 'text/csv',
          'Content-Disposition': 'attachment; filename="Beschlussbuch.csv"',
        },
      }),
    });
    const { user } = renderApp('/beschluesse?gremium=3');
    await entries();
    await user.click(screen.getByRole('button', { name: 'Als PDF herunterladen' }));
    await user.click(screen.getByRole('button', { name: 'Als CSV exportieren' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(2));
    const downloads = requests.filter((request) => /resolutions\.(pdf|csv)/.test(request.url));
    expect(downloads.map((request) => request.url)).toEqual([
      '/api/v1/resolutions.pdf?committee_id=3',
      '/api/v1/resolutions.csv?committee_id=3',
    ]);
    expect(downloads[0]!.headers.get('Authorization')).toBe('Bearer member-token');
  });

  it('gives admins the overdue follow-ups and lets them keep a follow-up; a refusal says why', async () => {
    signIn(adminUser());
    let saves = 0;
    const { requests } = registerApi({
      'GET /api/v1/committees/3/members': json(200, {
        data: [
          {
            id: 100,
            committee_id: 3,
            term_id: 12,
            user: { id: 7, title: 'Frau', firstname: 'Erika', lastname: 'Mustermann' },
            function: 'mitglied',
            rank: null,
            from: '2026-07-01',
            until: '2030-06-30',
            district: null,
            reason: null,
            active: true,
          },
        ],
      }),
      'PUT /api/v1/resolutions/41/follow-up': () => {
        saves += 1;
        return saves === 1
          ? json(403, {
              message: 'Die Umsetzung pflegen der Vorsitz, die Schriftführung des Gremiums und Admins.',
            })
          : json(200, {
              data: { ...REGISTER[1]!, follow_up: { ...REGISTER[1]!.follow_up!, status: 'erledigt' } },
            });
      },
    });
    const { user, router } = renderApp('/beschluesse');
    await entries();
    await user.click(screen.getByRole('tab', { name: 'Überfällige Umsetzungen' }));
    await waitFor(() => expect(router.state.location.search).toBe('?ansicht=ueberfaellig'));
    await waitFor(() =>
      expect(requests.some((request) => request.url === '/api/v1/resolutions?overdue=1')).toBe(true),
    );

    await user.click(await screen.findByRole('button', { name: 'Umsetzung von AR 2026/02 bearbeiten' }));
    const dialog = await screen.findByRole('dialog', { name: 'Umsetzung von AR 2026/02' });
    expect(within(dialog).getByRole('textbox', { name: 'Fällig am' })).toHaveValue('30.11.2026');
    await user.click(within(dialog).getByRole('radio', { name: 'Erledigt' }));
    await user.click(within(dialog).getByRole('button', { name: 'Speichern' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Die Umsetzung pflegen der Vorsitz, die Schriftführung des Gremiums und Admins.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Speichern' }));
    expect(await screen.findByText('Die Umsetzung von AR 2026/02 wurde gespeichert.')).toBeInTheDocument();
    const put = requests.filter((request) => request.method === 'PUT');
    expect(put[0]!.body).toEqual({
      responsible_id: 7,
      due_on: '2026-11-30',
      status: 'erledigt',
      note: 'Angebote einholen',
    });
  });

  it('lets the committee’s Vorsitz correct an entry as a new one', async () => {
    signIn(vertreterUser());
    const { requests } = registerApi({
      'GET /api/v1/account': json(200, { data: { memberships: [ownMembership(3, 'vorsitz')] } }),
      'GET /api/v1/resolutions/40': json(200, { data: REGISTER[0] }),
      'POST /api/v1/resolutions/40/correction': json(201, {
        data: makeResolution({ id: 42, number: 'AR 2026/03', corrects: { id: 40, number: 'AR 2026/01' } }),
      }),
      'GET /api/v1/resolutions/42': json(200, {
        data: makeResolution({ id: 42, number: 'AR 2026/03', corrects: { id: 40, number: 'AR 2026/01' } }),
      }),
    });
    const { user, router } = renderApp('/beschluesse/40');
    expect(
      await screen.findByRole('heading', { name: 'Beschluss AR 2026/01', level: 1 }),
    ).toBeInTheDocument();
    expect(screen.getByText(`Prüfsumme: ${'a'.repeat(64)}`)).toBeInTheDocument();
    // The Vorsitz keeps the follow-up too.
    expect(screen.getByRole('button', { name: 'Umsetzung von AR 2026/01 bearbeiten' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'AR 2026/01 berichtigen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Berichtigung zu AR 2026/01' });
    await user.click(within(dialog).getByRole('button', { name: 'Berichtigung eintragen' }));
    expect(await within(dialog).findByText('Grund der Berichtigung ist erforderlich.')).toBeInTheDocument();
    await user.type(
      within(dialog).getByRole('textbox', { name: /Grund der Berichtigung/ }),
      'Hausnummer falsch',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Berichtigung eintragen' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/beschluesse/42'));
    expect(requests.find((request) => request.method === 'POST')?.body).toEqual({
      text: REGISTER[0]!.text,
      reason: 'Hausnummer falsch',
    });
  });
});
