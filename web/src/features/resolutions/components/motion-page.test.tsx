import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { toBerlinLocal } from '@gremienportal/contracts/events';
import type { Motion } from '@gremienportal/contracts/resolutions';
import { json, mockApi, type MockHandler, type MockReply } from '../../../testing/fetch-mock';
import { adminUser, signIn, vertreterUser } from '../../../testing/factories';
import { renderApp } from '../../../testing/render';
import {
  electorEntry,
  makeMotion,
  makeResolution,
  ownMembership,
  runningMotion,
  umlaufMotion,
} from './motion-fixtures';

/**
 * The motion 21 as the server answers it now; actions change it. `slow` delays the reloads after
 * the first answer, as a real network does: the page shows the action's answer (and drops the
 * form that asked) well before the reload ends.
 */
function motionApi(
  initial: Motion,
  routes: Record<string, MockHandler | MockReply> = {},
  { slow = false }: { slow?: boolean } = {},
) {
  let motion = initial;
  let loads = 0;
  const api = mockApi({
    'GET /api/v1/motions/21': async () => {
      loads += 1;
      if (slow && loads > 1) await new Promise((resolve) => setTimeout(resolve, 400));
      return json(200, { data: motion });
    },
    ...routes,
  });
  return { ...api, set: (next: Motion) => (motion = next) };
}

/** A success toast (Mantine's notification) with this text. */
const toast = (text: string) =>
  waitFor(() => {
    const found = [...document.querySelectorAll('.mantine-Notification-root')].find(
      (element) => element.textContent === text,
    );
    expect(found, `Toast „${text}“`).toBeDefined();
  });

const ballot = () => screen.findByRole('group', { name: /^Ihre Stimme zu/ });
const posts = (requests: { method: string; url: string; body: unknown }[]) =>
  requests
    .filter((request) => request.method !== 'GET')
    .map(({ method, url, body }) => ({ method, url, body }));

describe('/beschluesse/vorlagen/{id}: the ballot', () => {
  it('shows the text set apart and three large choices; an open vote is cast with one click', async () => {
    signIn(vertreterUser());
    const voted = runningMotion({ own: { voted: true, choice: 'ja' } });
    const { requests, set } = motionApi(runningMotion(), {
      'POST /api/v1/motions/21/votes': () => {
        set(voted);
        return json(200, { data: voted, message: 'Ihre Stimme wurde gezählt.' });
      },
    });
    const { user } = renderApp('/beschluesse/vorlagen/21');

    expect(
      await screen.findByRole('heading', { name: 'Erneuerung der Heizungsanlage', level: 1 }),
    ).toBeInTheDocument();
    const text = screen.getByText('Beschlusstext').closest('figure')!;
    expect(text).toHaveTextContent('Der Aufsichtsrat stimmt der Erneuerung');
    expect(screen.getByText('Abstimmung läuft')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Aufsichtsrat' })).toHaveAttribute('href', '/gremien/3');
    expect(screen.getByText('Sie haben noch nicht abgestimmt.')).toBeInTheDocument();

    const choices = within(await ballot()).getAllByRole('button');
    expect(choices.map((button) => button.textContent)).toEqual(['Ja', 'Nein', 'Enthaltung']);
    await user.click(within(await ballot()).getByRole('button', { name: 'Ja' }));

    expect(await screen.findByText('Ihre Stimme wurde gezählt. Ihre Stimme: Ja.')).toBeInTheDocument();
    expect(await screen.findByText('Ihre Stimme: Ja')).toBeInTheDocument();
    expect(within(await ballot()).getByRole('button', { name: 'Ja' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(posts(requests)).toEqual([
      { method: 'POST', url: '/api/v1/motions/21/votes', body: { choice: 'ja' } },
    ]);
    // Members lead nothing.
    expect(screen.queryByRole('region', { name: 'Leitung der Abstimmung' })).not.toBeInTheDocument();
  });

  it('asks before a secret ballot, which cannot be changed, and then shows only that the member voted', async () => {
    signIn(vertreterUser());
    const voted = runningMotion({ mode: 'geheim', own: { voted: true } });
    const { requests, set } = motionApi(runningMotion({ mode: 'geheim' }), {
      'POST /api/v1/motions/21/votes': () => {
        set(voted);
        return json(200, { data: voted, message: 'Ihre Stimme wurde gezählt.' });
      },
    });
    const { user } = renderApp('/beschluesse/vorlagen/21');
    expect(
      await screen.findByText('Ihre Stimme ist geheim; sie kann nicht geändert werden.'),
    ).toBeInTheDocument();

    await user.click(within(await ballot()).getByRole('button', { name: 'Nein' }));
    const dialog = await screen.findByRole('dialog', { name: 'Mit „Nein“ stimmen?' });
    expect(dialog).toHaveTextContent('Ihre Stimme ist geheim; sie kann nicht geändert werden.');
    expect(posts(requests)).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Mit „Nein“ stimmen' }));

    expect(await screen.findByText('Sie haben abgestimmt. Ihre Stimme ist geheim.')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByRole('group', { name: /^Ihre Stimme zu/ })).not.toBeInTheDocument(),
    );
    expect(posts(requests)).toEqual([
      { method: 'POST', url: '/api/v1/motions/21/votes', body: { choice: 'nein' } },
    ]);
  });

  it('shows the server’s German refusal of a vote', async () => {
    signIn(vertreterUser());
    motionApi(runningMotion(), {
      'POST /api/v1/motions/21/votes': json(409, { message: 'Die Abstimmung ist nicht geöffnet.' }),
    });
    const { user } = renderApp('/beschluesse/vorlagen/21');
    await user.click(within(await ballot()).getByRole('button', { name: 'Enthaltung' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Die Abstimmung ist nicht geöffnet.');
  });

  it('lets an elector object to an Umlaufverfahren with a reason, after saying what it means', async () => {
    signIn(vertreterUser());
    const objected = umlaufMotion({ own: { objected: true } });
    const { requests, set } = motionApi(
      umlaufMotion(),
      {
        'POST /api/v1/motions/21/objection': () => {
          set(objected);
          return json(200, { data: objected, message: 'Ihr Widerspruch wurde festgehalten.' });
        },
      },
      { slow: true },
    );
    const { user } = renderApp('/beschluesse/vorlagen/21');
    expect(await screen.findByText(/^Frist: .* \(noch \d+ Tage\)$/)).toBeInTheDocument();

    await user.click(
      await screen.findByRole('button', { name: 'Ich widerspreche der Beschlussfassung im Umlaufverfahren' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Widerspruch einlegen' });
    expect(dialog).toHaveTextContent('Das lässt sich nicht zurücknehmen.');
    await user.type(
      within(dialog).getByRole('textbox', { name: 'Begründung' }),
      'Erst in der Sitzung beraten.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Widerspruch einlegen' }));

    // The server's message as a toast, although the button and its dialog went with the new state.
    await toast('Ihr Widerspruch wurde festgehalten.');
    expect(
      await screen.findByText('Sie haben der Beschlussfassung im Umlaufverfahren widersprochen.'),
    ).toBeInTheDocument();
    expect(
      screen.queryByRole('button', { name: 'Ich widerspreche der Beschlussfassung im Umlaufverfahren' }),
    ).not.toBeInTheDocument();
    expect(posts(requests)).toEqual([
      {
        method: 'POST',
        url: '/api/v1/motions/21/objection',
        body: { reason: 'Erst in der Sitzung beraten.' },
      },
    ]);
  });

  it('says so when the objection ended the Umlaufverfahren, with the server’s message', async () => {
    signIn(vertreterUser());
    const ended = umlaufMotion({
      state: 'widersprochen',
      own: { objected: true },
      objections: [{ name: 'Greta Schmitz', reason: null }],
    });
    const { set } = motionApi(
      umlaufMotion(),
      {
        'POST /api/v1/motions/21/objection': () => {
          set(ended);
          return json(200, {
            data: ended,
            message: 'Ihr Widerspruch wurde festgehalten; das Umlaufverfahren ist damit beendet.',
          });
        },
      },
      { slow: true },
    );
    const { user } = renderApp('/beschluesse/vorlagen/21');
    await user.click(
      await screen.findByRole('button', { name: 'Ich widerspreche der Beschlussfassung im Umlaufverfahren' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Widerspruch einlegen' });
    await user.click(within(dialog).getByRole('button', { name: 'Widerspruch einlegen' }));
    await toast('Ihr Widerspruch wurde festgehalten; das Umlaufverfahren ist damit beendet.');
    expect(await screen.findByRole('region', { name: 'Ergebnis' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Ihre Stimme' })).not.toBeInTheDocument();
  });

  it('takes a declared conflict after asking; the member then sees no ballot', async () => {
    signIn(vertreterUser());
    const conflicted = runningMotion({ own: { conflicted: true } });
    const { requests, set } = motionApi(
      runningMotion(),
      {
        'POST /api/v1/motions/21/conflict': () => {
          set(conflicted);
          return json(200, { data: conflicted });
        },
      },
      { slow: true },
    );
    const { user } = renderApp('/beschluesse/vorlagen/21');
    await user.click(await screen.findByRole('button', { name: 'Befangenheit erklären' }));
    const dialog = await screen.findByRole('dialog', { name: 'Befangenheit erklären?' });
    await user.click(within(dialog).getByRole('button', { name: 'Befangenheit erklären' }));
    expect(
      await screen.findByText('Sie haben Befangenheit erklärt und nehmen an dieser Abstimmung nicht teil.'),
    ).toBeInTheDocument();
    await toast('Ihre Befangenheit ist festgehalten; Sie nehmen an dieser Abstimmung nicht teil.');
    expect(screen.queryByRole('group', { name: /^Ihre Stimme zu/ })).not.toBeInTheDocument();
    expect(posts(requests)).toEqual([{ method: 'POST', url: '/api/v1/motions/21/conflict', body: {} }]);
  });

  it('offers a voting member a written vote before the meeting’s vote opens', async () => {
    signIn(vertreterUser());
    const { requests } = motionApi(makeMotion(), {
      'GET /api/v1/account': json(200, { data: { memberships: [ownMembership(3, 'mitglied')] } }),
      'POST /api/v1/motions/21/votes': json(200, {
        data: makeMotion(),
        message: 'Ihre schriftliche Stimme ist eingegangen; sie zählt, sobald die Abstimmung geöffnet wird.',
      }),
    });
    const { user } = renderApp('/beschluesse/vorlagen/21');
    const section = await screen.findByRole('region', { name: 'Schriftliche Stimmabgabe' });
    await user.click(within(await ballot()).getByRole('button', { name: 'Nein' }));
    expect(
      await within(section).findByText(
        'Ihre schriftliche Stimme: Nein. Sie zählt, sobald die Abstimmung geöffnet wird.',
      ),
    ).toBeInTheDocument();
    expect(posts(requests)).toEqual([
      { method: 'POST', url: '/api/v1/motions/21/votes', body: { choice: 'nein' } },
    ]);
  });
});

describe('/beschluesse/vorlagen/{id}: the Vorsitz', () => {
  const chair = { manage: true, edit: true, establish: true };

  it('opens a draft as an Umlaufverfahren with a week’s deadline after asking, and edits or deletes it', async () => {
    signIn(adminUser());
    const { requests, set } = motionApi(
      makeMotion({ event_id: null, agenda_item_id: null, may: chair }),
      {
        'GET /api/v1/committees/3': json(200, { data: { id: 3, rules: { circular_allowed: true } } }),
        'POST /api/v1/motions/21/open': () => {
          const opened = umlaufMotion({ may: chair, own: { elector: false } });
          set(opened);
          return json(200, { data: opened });
        },
      },
      { slow: true },
    );
    const { user } = renderApp('/beschluesse/vorlagen/21');
    const lead = await screen.findByRole('region', { name: 'Leitung der Abstimmung' });
    expect(within(lead).getByRole('link', { name: 'Beschlussvorlage bearbeiten' })).toHaveAttribute(
      'href',
      '/beschluesse/vorlagen/21/bearbeiten',
    );
    expect(within(lead).getByRole('button', { name: 'Entwurf löschen' })).toBeInTheDocument();
    expect(within(lead).queryByRole('button', { name: 'Abstimmung schließen' })).not.toBeInTheDocument();
    // A motion without a meeting goes by Umlaufverfahren unless told otherwise.
    expect(
      within(lead).getByRole('radio', { name: 'Umlaufverfahren (schriftlich, mit Frist)' }),
    ).toBeChecked();
    expect(within(lead).getByRole('button', { name: /^Frist/ })).toBeInTheDocument();

    await user.click(within(lead).getByRole('button', { name: 'Umlaufverfahren starten' }));
    const dialog = await screen.findByRole('dialog', { name: 'Umlaufverfahren starten?' });
    expect(dialog).toHaveTextContent(
      'Alle Stimmberechtigten des Gremiums „Aufsichtsrat“ erhalten eine E-Mail',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Umlaufverfahren starten' }));

    expect(await screen.findByRole('button', { name: 'Erinnerung senden' })).toBeInTheDocument();
    // The form is gone with the running vote; the toast says what happened all the same.
    await toast('Das Umlaufverfahren läuft; die Stimmberechtigten wurden per E-Mail gebeten abzustimmen.');
    const [open] = posts(requests);
    expect(open).toMatchObject({ url: '/api/v1/motions/21/open', body: { procedure: 'umlauf' } });
    // A week from today, at 18:00 Berlin time.
    const deadline = (open!.body as { deadline: string }).deadline;
    expect(toBerlinLocal(deadline).slice(11)).toBe('18:00');
    expect(toBerlinLocal(deadline).slice(0, 10)).toBe(
      new Date(Date.parse(`${toBerlinLocal(new Date()).slice(0, 10)}T12:00:00Z`) + 7 * 86_400_000)
        .toISOString()
        .slice(0, 10),
    );
  });

  it('opens the vote in the meeting and says so, though the form goes with the running vote', async () => {
    signIn(adminUser());
    const { requests, set } = motionApi(
      makeMotion({ may: chair }),
      {
        'GET /api/v1/committees/3': json(200, { data: { id: 3, rules: { circular_allowed: true } } }),
        'POST /api/v1/motions/21/open': () => {
          const opened = runningMotion({ may: chair, own: { elector: false } });
          set(opened);
          return json(200, { data: opened });
        },
      },
      { slow: true },
    );
    const { user } = renderApp('/beschluesse/vorlagen/21');
    const lead = await screen.findByRole('region', { name: 'Leitung der Abstimmung' });
    // A motion of a meeting: the vote in the meeting is chosen already.
    expect(within(lead).getByRole('radio', { name: 'Abstimmung in der Sitzung' })).toBeChecked();
    await user.click(within(lead).getByRole('button', { name: 'Abstimmung öffnen' }));
    await toast('Die Abstimmung ist geöffnet.');
    await waitFor(() =>
      expect(within(lead).queryByRole('form', { name: 'Abstimmung öffnen' })).not.toBeInTheDocument(),
    );
    expect(posts(requests)).toEqual([
      { method: 'POST', url: '/api/v1/motions/21/open', body: { procedure: 'sitzung' } },
    ]);
  });

  it('counts hands, closes after asking, and shows the delivery table with who voted', async () => {
    signIn(adminUser());
    const electorate = [
      electorEntry(1, 'Anna Becker', { voted: true, first_opened_at: '2026-12-07T10:00:00.000Z' }),
      electorEntry(2, 'Dora Dietz'),
    ];
    const running = runningMotion({ may: chair, own: { elector: false }, electorate });
    const { requests, set } = motionApi(running, {
      'POST /api/v1/motions/21/hand-count': () => {
        const counted = { ...running, hand_count: { ja: 1, nein: 0, enthaltung: 0 } };
        set(counted);
        return json(200, { data: counted });
      },
      'POST /api/v1/motions/21/close': () => {
        const closed = {
          ...running,
          state: 'geschlossen' as const,
          counts: { ja: 2, nein: 0, enthaltung: 0 },
          hand_count: { ja: 1, nein: 0, enthaltung: 0 },
        };
        set(closed);
        return json(200, { data: closed });
      },
    });
    const { user } = renderApp('/beschluesse/vorlagen/21');
    const table = await screen.findByRole('region', { name: 'Stimmberechtigte und Zustellung' });
    expect(table).toHaveTextContent('1 von 2 Stimmberechtigten hat abgestimmt');
    expect(within(table).getByRole('rowheader', { name: 'Anna Becker' })).toBeInTheDocument();
    expect(
      within(table).getByRole('button', { name: 'Befangenheit von Dora Dietz vermerken' }),
    ).toBeInTheDocument();

    const lead = screen.getByRole('region', { name: 'Leitung der Abstimmung' });
    const ja = within(lead).getByRole('textbox', { name: 'Ja' });
    await user.clear(ja);
    await user.type(ja, '1');
    await user.click(within(lead).getByRole('button', { name: 'Handzeichen speichern' }));
    expect(
      await screen.findByText('Handzeichen gespeichert: 1 Ja · 0 Nein · 0 Enthaltungen.'),
    ).toBeInTheDocument();

    await user.click(within(lead).getByRole('button', { name: 'Abstimmung schließen' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Abstimmung schließen?' })).getByRole('button', {
        name: 'Abstimmung schließen',
      }),
    );
    const result = await screen.findByRole('region', { name: 'Ergebnis' });
    expect(result).toHaveTextContent('Die Abstimmung ist geschlossen. Das Ergebnis stellt der Vorsitz fest.');
    expect(
      within(result).getByRole('group', { name: 'Stimmen: 2 Ja · 0 Nein · 0 Enthaltungen' }),
    ).toBeInTheDocument();
    expect(result).toHaveTextContent('Darin per Handzeichen: 1 Ja · 0 Nein · 0 Enthaltungen.');
    expect(posts(requests)).toEqual([
      { method: 'POST', url: '/api/v1/motions/21/hand-count', body: { ja: 1, nein: 0, enthaltung: 0 } },
      { method: 'POST', url: '/api/v1/motions/21/close', body: {} },
    ]);
  });

  it('establishes the result with the authenticator code; a wrong code says so under the field', async () => {
    signIn(vertreterUser());
    const closed = makeMotion({
      state: 'geschlossen',
      procedure: 'sitzung',
      may: chair,
      counts: { ja: 5, nein: 2, enthaltung: 1 },
      electorate: Array.from({ length: 9 }, (_, index) =>
        electorEntry(index + 1, `Mitglied ${index + 1}`, { voted: index < 8 }),
      ),
    });
    let attempts = 0;
    const { requests, set } = motionApi(closed, {
      'POST /api/v1/motions/21/establish': () => {
        attempts += 1;
        if (attempts === 1) {
          return json(422, {
            message: 'Die Eingaben sind ungültig.',
            errors: {
              code: ['Der Code ist ungültig. Bitte den aktuellen Code Ihrer Authenticator-App eingeben.'],
            },
          });
        }
        set({
          ...closed,
          state: 'festgestellt',
          resolution: { id: 40, number: 'AR 2026/01', result: 'angenommen' },
        });
        return json(200, { data: makeResolution() });
      },
      'GET /api/v1/resolutions/40': json(200, { data: makeResolution() }),
      'GET /api/v1/committees/3': json(200, {
        data: { id: 3, name: 'Aufsichtsrat', rules: { abstentions_count: false, tie: 'rejected' } },
      }),
    });
    const { user } = renderApp('/beschluesse/vorlagen/21');
    await user.click(await screen.findByRole('button', { name: 'Ergebnis feststellen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ergebnis feststellen' });
    // The count the Feststellung will write, by the committee's rules.
    expect(
      await within(dialog).findByText(/^Angenommen mit 5 Ja- gegen 2 Nein-Stimmen bei 1 Enthaltung/),
    ).toBeInTheDocument();
    const code = within(dialog).getByRole('textbox', { name: /Code aus Ihrer Authenticator-App/ });
    await user.click(within(dialog).getByRole('button', { name: 'Feststellen' }));
    expect(
      await within(dialog).findByText('Bitte den Code Ihrer Authenticator-App eingeben.'),
    ).toBeInTheDocument();

    await user.type(code, '000000');
    await user.click(within(dialog).getByRole('button', { name: 'Feststellen' }));
    expect(await within(dialog).findByText(/Der Code ist ungültig/)).toBeInTheDocument();

    await user.type(code, '123 456');
    await user.click(within(dialog).getByRole('button', { name: 'Feststellen' }));
    expect(await screen.findByText('Festgestellt: AR 2026/01 – Angenommen.')).toBeInTheDocument();
    const result = await screen.findByRole('region', { name: 'Ergebnis' });
    expect(await within(result).findByText(/^Angenommen mit 5 Ja- gegen 2 Nein-Stimmen/)).toBeInTheDocument();
    expect(within(result).getByRole('link', { name: 'Im Beschlussbuch: AR 2026/01' })).toHaveAttribute(
      'href',
      '/beschluesse/40',
    );
    expect(posts(requests).map((request) => request.body)).toEqual([{ code: '000000' }, { code: '123456' }]);
    expect(screen.queryByRole('button', { name: 'Ergebnis feststellen' })).not.toBeInTheDocument();
  });

  it('shows a member the closed result with names and conflicts, and nothing to lead', async () => {
    signIn(vertreterUser());
    motionApi(
      makeMotion({
        state: 'geschlossen',
        mode: 'namentlich',
        procedure: 'sitzung',
        counts: { ja: 2, nein: 1, enthaltung: 0 },
        names: [
          { name: 'Anna Becker', choice: 'ja' },
          { name: 'Bernd Becker', choice: 'ja' },
          { name: 'Dora Dietz', choice: 'nein' },
        ],
        conflicts: ['Emre Şahin'],
      }),
    );
    renderApp('/beschluesse/vorlagen/21');
    const result = await screen.findByRole('region', { name: 'Ergebnis' });
    expect(result).toHaveTextContent('Ja: Anna Becker und Bernd Becker');
    expect(result).toHaveTextContent('Nein: Dora Dietz');
    expect(result).toHaveTextContent('Emre Şahin nahm wegen Befangenheit an der Abstimmung nicht teil.');
    expect(screen.queryByRole('region', { name: 'Leitung der Abstimmung' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Ihre Stimme' })).not.toBeInTheDocument();
  });

  it('shows the 404 page for a motion the member may not see', async () => {
    signIn(vertreterUser());
    mockApi({ 'GET /api/v1/motions/21': json(404, { message: 'Nicht gefunden.' }) });
    renderApp('/beschluesse/vorlagen/21');
    expect(await screen.findByRole('heading', { name: /nicht gefunden/i, level: 1 })).toBeInTheDocument();
  });
});
