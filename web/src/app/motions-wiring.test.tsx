import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Motion } from '@gremienportal/contracts/resolutions';
import { json, mockApi } from '../testing/fetch-mock';
import { adminUser, signIn, vertreterUser } from '../testing/factories';
import { renderApp } from '../testing/render';
import { makeAgenda } from '../features/meetings/components/agenda-fixtures';
import { makeMeeting } from '../features/meetings/components/meeting-fixtures';
import { makeCommittee, makeTerm } from '../features/committees/components/committee-fixtures';
import { makeMotion, ownMembership, runningMotion } from '../features/resolutions/components/motion-fixtures';

const labelled = (name: string) => new RegExp(`^${name}( \\*)?$`);

describe('the meeting page: motions under their agenda items', () => {
  function meetingApi(motions: () => Motion[], extra = {}) {
    return mockApi({
      'GET /api/v1/events/5': json(200, { data: makeMeeting({ agenda_count: 5 }) }),
      'GET /api/v1/events/5/agenda': json(200, { data: makeAgenda() }),
      'GET /api/v1/motions': () => json(200, { data: motions() }),
      'GET /api/v1/account': json(200, { data: { memberships: [] } }),
      ...extra,
    });
  }

  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows a running vote’s ballot under its item, and the result once it is closed', async () => {
    // The list is followed every few seconds while the vote runs: the clock is moved on, not waited for.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    signIn(vertreterUser());
    const item = makeAgenda()[1]!;
    let current: Motion = runningMotion({ agenda_item_id: item.id });
    const { requests } = meetingApi(() => [current], {
      'POST /api/v1/motions/21/votes': () => {
        current = runningMotion({ agenda_item_id: item.id, own: { voted: true, choice: 'nein' } });
        return json(200, { data: current, message: 'Ihre Stimme wurde gezählt.' });
      },
    });
    const { user } = renderApp('/events/show/5');
    const section = await screen.findByRole('region', { name: 'Tagesordnung' });
    const group = await within(section).findByRole('group', {
      name: 'Ihre Stimme zu „Erneuerung der Heizungsanlage“',
    });
    expect(within(section).getByRole('link', { name: 'Erneuerung der Heizungsanlage' })).toHaveAttribute(
      'href',
      '/beschluesse/vorlagen/21',
    );
    expect(requests.some((request) => request.url === '/api/v1/motions?event_id=5')).toBe(true);
    await user.click(within(group).getByRole('button', { name: 'Nein' }));
    expect(await within(section).findByText('Ihre Stimme: Nein')).toBeInTheDocument();

    // Closed by the Vorsitz: the next look at the list shows the counts instead of the ballot.
    current = makeMotion({
      agenda_item_id: item.id,
      state: 'geschlossen',
      procedure: 'sitzung',
      counts: { ja: 4, nein: 1, enthaltung: 0 },
    });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(await within(section).findByText('Stimmen: 4 Ja · 1 Nein · 0 Enthaltungen')).toBeInTheDocument();
    expect(within(section).queryByRole('group', { name: /^Ihre Stimme zu/ })).not.toBeInTheDocument();
  });

  it('offers admins to write a motion for each item; members without a function see no such link', async () => {
    signIn(adminUser());
    meetingApi(() => []);
    renderApp('/events/show/5');
    const section = await screen.findByRole('region', { name: 'Tagesordnung' });
    expect(
      await within(section).findByRole('link', { name: 'Beschlussvorlage zu TOP 2 anlegen' }),
    ).toHaveAttribute('href', `/beschluesse/vorlagen/neu?sitzung=5&top=${makeAgenda()[1]!.id}`);
  });

  it('shows nothing of motions when the member has none', async () => {
    signIn(vertreterUser());
    const { requests } = meetingApi(() => []);
    renderApp('/events/show/5');
    const section = await screen.findByRole('region', { name: 'Tagesordnung' });
    await waitFor(() =>
      expect(requests.some((request) => request.url === '/api/v1/motions?event_id=5')).toBe(true),
    );
    expect(within(section).queryByText(/Beschlussvorlage/)).not.toBeInTheDocument();
  });
});

describe('the committee page: its motions and "Beschlussvorlage anlegen"', () => {
  function committeeApi(memberships = [ownMembership(3, 'mitglied')]) {
    return mockApi({
      'GET /api/v1/committees/3': json(200, { data: makeCommittee() }),
      'GET /api/v1/committees/3/terms': json(200, { data: [makeTerm()] }),
      'GET /api/v1/committees/3/members': json(200, { data: [] }),
      'GET /api/v1/account': json(200, { data: { memberships } }),
      'GET /api/v1/motions': json(200, {
        data: [
          makeMotion({ title: 'Entwurf Dach' }),
          makeMotion({
            id: 22,
            title: 'Schon beschlossen',
            state: 'festgestellt',
            resolution: { id: 40, number: 'AR 2026/01', result: 'angenommen' },
          }),
        ],
      }),
    });
  }

  it('lists the open motions and links to the committee’s Beschlussbuch; a plain member writes none', async () => {
    signIn(vertreterUser());
    const { requests } = committeeApi();
    renderApp('/gremien/3');
    const section = await screen.findByRole('region', { name: 'Beschlüsse' });
    const list = await within(section).findByRole('list', { name: 'Offene Beschlussvorlagen' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    expect(within(list).getByRole('link', { name: 'Entwurf Dach' })).toHaveAttribute(
      'href',
      '/beschluesse/vorlagen/21',
    );
    expect(within(section).getByRole('link', { name: 'Beschlussbuch' })).toHaveAttribute(
      'href',
      '/beschluesse?gremium=3',
    );
    expect(requests.some((request) => request.url === '/api/v1/motions?committee_id=3')).toBe(true);
    await waitFor(() => expect(requests.some((request) => request.url === '/api/v1/account')).toBe(true));
    expect(within(section).queryByRole('link', { name: 'Beschlussvorlage anlegen' })).not.toBeInTheDocument();
  });

  it('offers the Schriftführung to write one for the committee', async () => {
    signIn(vertreterUser());
    committeeApi([ownMembership(3, 'schriftfuehrung')]);
    renderApp('/gremien/3');
    const section = await screen.findByRole('region', { name: 'Beschlüsse' });
    expect(await within(section).findByRole('link', { name: 'Beschlussvorlage anlegen' })).toHaveAttribute(
      'href',
      '/beschluesse/vorlagen/neu?gremium=3',
    );
  });
});

describe('the motion form', () => {
  it('validates with the contract’s messages and creates the motion for the meeting’s item', async () => {
    signIn(vertreterUser());
    const created = makeMotion({ id: 30, title: 'Neue Fenster' });
    const { requests } = mockApi({
      'GET /api/v1/committees': json(200, {
        data: [makeCommittee(), makeCommittee({ id: 4, name: 'Bauausschuss' })],
      }),
      'GET /api/v1/account': json(200, {
        data: { memberships: [ownMembership(3, 'schriftfuehrung'), ownMembership(4, 'mitglied')] },
      }),
      'GET /api/v1/events/5': json(200, { data: makeMeeting({ title: 'Sitzung des Aufsichtsrats' }) }),
      'GET /api/v1/events/5/agenda': json(200, { data: makeAgenda() }),
      'POST /api/v1/motions': json(201, { data: created }),
      'GET /api/v1/motions/30': json(200, { data: created }),
    });
    const { user, router } = renderApp('/beschluesse/vorlagen/neu?sitzung=5&top=12');
    const form = await screen.findByRole('form', { name: 'Beschlussvorlage anlegen' });
    expect(await within(form).findByText(/Für die Sitzung/)).toHaveTextContent(
      /Für die Sitzung Sitzung des Aufsichtsrats am .* Uhr · TOP 2 „Jahresabschluss 2025“/,
    );
    // The only committee the member writes for is chosen.
    await waitFor(() =>
      expect(within(form).getByRole('combobox', { name: labelled('Gremium') })).toHaveValue('Aufsichtsrat'),
    );

    await user.click(within(form).getByRole('button', { name: 'Beschlussvorlage anlegen' }));
    expect(await within(form).findByText('Titel ist erforderlich.')).toBeInTheDocument();
    expect(within(form).getByText('Beschlusstext ist erforderlich.')).toBeInTheDocument();
    expect(within(form).getByText('Bitte offen, namentlich oder geheim wählen.')).toBeInTheDocument();
    expect(requests.some((request) => request.method === 'POST')).toBe(false);

    await user.type(within(form).getByRole('textbox', { name: labelled('Titel') }), 'Neue Fenster');
    await user.type(
      within(form).getByRole('textbox', { name: labelled('Beschlusstext') }),
      'Der Aufsichtsrat beschließt neue Fenster.',
    );
    await user.click(within(form).getByRole('radio', { name: /^Geheim/ }));
    await user.click(within(form).getByRole('button', { name: 'Beschlussvorlage anlegen' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/beschluesse/vorlagen/30'));
    expect(requests.find((request) => request.method === 'POST')?.body).toEqual({
      committee_id: 3,
      title: 'Neue Fenster',
      text: 'Der Aufsichtsrat beschließt neue Fenster.',
      justification: '',
      mode: 'geheim',
      event_id: 5,
      agenda_item_id: 12,
    });
  });

  it('warns before changing a running vote and shows the server’s message that it was voided', async () => {
    signIn(adminUser());
    const running = runningMotion({ may: { manage: true, edit: true } });
    const draft = makeMotion({ title: 'Erneuerung der Heizung', may: { manage: true, edit: true } });
    let current: Motion = running;
    const { requests } = mockApi({
      'GET /api/v1/motions/21': () => json(200, { data: current }),
      'GET /api/v1/events/5': json(200, { data: makeMeeting() }),
      'GET /api/v1/events/5/agenda': json(200, { data: makeAgenda() }),
      'PUT /api/v1/motions/21': () => {
        current = draft;
        return json(200, {
          data: draft,
          message:
            'Die Beschlussvorlage wurde nach dem Öffnen geändert; die Abstimmung ist ungültig und beginnt von vorn.',
        });
      },
    });
    const { user, router } = renderApp('/beschluesse/vorlagen/21/bearbeiten');
    const form = await screen.findByRole('form', { name: 'Beschlussvorlage bearbeiten' });
    expect(within(form).getByText('Die Abstimmung läuft')).toBeInTheDocument();
    const title = within(form).getByRole('textbox', { name: labelled('Titel') });
    await user.clear(title);
    await user.type(title, 'Erneuerung der Heizung');
    await user.click(within(form).getByRole('button', { name: 'Speichern' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/beschluesse/vorlagen/21'));
    expect(
      await screen.findByText(
        'Die Beschlussvorlage wurde nach dem Öffnen geändert; die Abstimmung ist ungültig und beginnt von vorn.',
      ),
    ).toBeInTheDocument();
    const put = requests.find((request) => request.method === 'PUT');
    expect(put?.body).toMatchObject({ title: 'Erneuerung der Heizung', mode: 'offen', file_ids: [] });
    expect(put?.body).not.toHaveProperty('committee_id');
  });
});
