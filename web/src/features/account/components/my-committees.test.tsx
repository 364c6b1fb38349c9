import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_UPDATED_MESSAGE,
  EMAIL_VISIBLE_TO_COMMITTEES_LABEL,
  MY_COMMITTEES_TITLE,
  NO_COMMITTEES_MESSAGE,
} from '@gremienportal/contracts/account';
import type { OwnMembership } from '@gremienportal/contracts/committees';
import type { Account } from '../account.api';
import { json, mockApi, type MockHandler, type MockReply } from '../../../testing/fetch-mock';
import { signIn, vertreterUser } from '../../../testing/factories';
import { renderApp } from '../../../testing/render';

const membership = (overrides: Partial<OwnMembership> = {}): OwnMembership => ({
  id: 1,
  committee: { id: 1, name: 'Aufsichtsrat' },
  term_title: 'Amtsperiode 2026–2030',
  function: 'vorsitz',
  rank: null,
  from: '2026-07-01',
  until: '2030-06-30',
  active: true,
  ...overrides,
});

const account = (overrides: Partial<Account> = {}): Account => ({
  id: 7,
  title: 'Frau',
  firstname: 'Erika',
  lastname: 'Mustermann',
  email: 'erika@example.org',
  roles: ['Aufsichtsrat'],
  roles_string: 'Aufsichtsrat',
  email_visible_to_committees: false,
  memberships: [],
  ...overrides,
});

async function openAccount(data: Account, routes: Record<string, MockHandler | MockReply> = {}) {
  signIn(vertreterUser());
  const api = mockApi({
    'GET /api/v1/account': json(200, { data }),
    'GET /api/v1/audit/my-logins': json(200, { data: [] }),
    'GET /api/v1/account/calendar-feed': json(200, {
      data: { active: false, created_at: null, last_used_at: null },
    }),
    'GET /api/v1/account/notifications': json(200, { data: { files: 'taeglich', events: 'sofort' } }),
    ...routes,
  });
  const app = renderApp('/account');
  const section = await screen.findByRole('region', { name: MY_COMMITTEES_TITLE });
  return { ...app, ...api, section };
}

describe('„Meine Gremien“ on the account page (decision 189)', () => {
  it('lists the memberships with Funktion, Amtsperiode and German dates, ended ones marked', async () => {
    const { section } = await openAccount(
      account({
        memberships: [
          membership(),
          membership({
            id: 2,
            committee: { id: 3, name: 'Vertreterversammlung' },
            term_title: 'Amtsperiode 2021–2026',
            function: 'ersatzmitglied',
            rank: 2,
            from: '2021-07-01',
            until: '2026-06-30',
            active: false,
          }),
        ],
      }),
    );
    const [current, past] = within(section).getAllByRole('listitem');
    expect(current).toHaveTextContent('Aufsichtsrat');
    expect(current).toHaveTextContent('Vorsitz · Amtsperiode 2026–2030');
    expect(current).toHaveTextContent('seit 01.07.2026, bis 30.06.2030');
    expect(within(current!).queryByText('beendet')).not.toBeInTheDocument();
    expect(past).toHaveTextContent('Vertreterversammlung');
    expect(past).toHaveTextContent('Ersatzmitglied (Rang 2) · Amtsperiode 2021–2026');
    expect(past).toHaveTextContent('vom 01.07.2021 bis 30.06.2026');
    expect(within(past!).getByText('beendet')).toBeInTheDocument();
    expect(within(section).queryByText(NO_COMMITTEES_MESSAGE)).not.toBeInTheDocument();
  });

  it('says so when the member belongs to no committee', async () => {
    const { section } = await openAccount(account());
    expect(within(section).getByText(NO_COMMITTEES_MESSAGE)).toBeInTheDocument();
    expect(within(section).queryAllByRole('listitem')).toHaveLength(0);
  });

  it('shows the e-mail visibility off by default and saves a change with PUT /account', async () => {
    let stored = account();
    const { section, user, requests } = await openAccount(stored, {
      'GET /api/v1/account': () => json(200, { data: stored }),
      'PUT /api/v1/account': (request) => {
        stored = { ...stored, ...(request.body as Partial<Account>) };
        const { memberships: _memberships, ...fields } = stored;
        return json(200, { user: fields });
      },
    });
    const toggle = within(section).getByRole('checkbox', { name: EMAIL_VISIBLE_TO_COMMITTEES_LABEL });
    expect(toggle).not.toBeChecked();
    expect(toggle).toHaveAccessibleDescription(/Mitglieder Ihrer Gremien/);
    const save = within(section).getByRole('button', { name: 'Speichern' });
    expect(save).toBeDisabled();

    await user.click(toggle);
    await user.click(save);
    expect(await within(section).findByRole('status')).toHaveTextContent(ACCOUNT_UPDATED_MESSAGE);
    expect(requests.filter((r) => r.method === 'PUT').map((r) => r.body)).toEqual([
      { email_visible_to_committees: true },
    ]);
    expect(toggle).toBeChecked();
    await waitFor(() => expect(save).toBeDisabled());
  });

  it('shows a stored „on“ and keeps the choice when saving fails', async () => {
    const { section, user } = await openAccount(account({ email_visible_to_committees: true }), {
      'PUT /api/v1/account': json(500, { message: 'Interner Fehler' }),
    });
    const toggle = within(section).getByRole('checkbox', { name: EMAIL_VISIBLE_TO_COMMITTEES_LABEL });
    expect(toggle).toBeChecked();
    await user.click(toggle);
    await user.click(within(section).getByRole('button', { name: 'Speichern' }));
    expect(await within(section).findByRole('alert')).toHaveTextContent('Interner Fehler');
    expect(toggle).not.toBeChecked();
  });
});
