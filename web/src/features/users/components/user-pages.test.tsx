import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { OwnMembership } from '@gremienportal/contracts/committees';
import { TWO_FACTOR_MESSAGES } from '@gremienportal/contracts/two-factor-rules';
import {
  ADMIN_USER_CHANGE_FORBIDDEN_MESSAGE,
  EMAIL_TAKEN_MESSAGE,
  ROLES_REQUIRED_MESSAGE,
  USER_CREATED_MESSAGE,
  USER_UPDATE_FAILED_MESSAGE,
  type UserDetail,
} from '@gremienportal/contracts/users';
import { json, mockApi, type MockHandler } from '../../../testing/fetch-mock';
import { adminUser, signIn } from '../../../testing/factories';
import { renderApp } from '../../../testing/render';
import { ALL_ROLES_LABEL, DIRECT_ROLES_LABEL } from './edit-user-form';

const ROLES = [
  { id: 1, name: 'Admin' },
  { id: 2, name: 'Super-Admin' },
  { id: 3, name: 'Aufsichtsrat' },
  { id: 4, name: 'Vertreter' },
];

function makeUserRecord(overrides: Partial<UserDetail> = {}): UserDetail {
  const roles = overrides.roles ?? ['Vertreter'];
  return {
    id: 21,
    title: 'Frau',
    firstname: 'Clara',
    lastname: 'Conrad',
    email: 'clara.conrad@example.org',
    status: 'aktiv',
    two_factor: false,
    created_at: '2026-11-21T10:00:00.000Z',
    memberships: [],
    ...overrides,
    roles,
    roles_string: roles.join(', '),
    effective_roles:
      overrides.effective_roles ??
      roles.map((name) => ({
        id: ROLES.find((role) => role.name === name)?.id ?? 0,
        name,
        sources: ['direct' as const],
        committee: null,
      })),
  };
}

const superAdmin = () => adminUser({ id: 1, roles: ['Super-Admin'] });
const plainAdmin = () => adminUser({ id: 2, roles: ['Admin'] });

/** A form field by its label (Mantine may append the required marker " *"). */
const labelled = (name: string) => new RegExp(`^${name}( \\*)?$`);
const field = (name: string) => screen.getByRole('textbox', { name: labelled(name) });
const combobox = (name: string) => screen.getByRole('combobox', { name: labelled(name) });

async function choose(user: ReturnType<typeof renderApp>['user'], box: string, option: string) {
  // A multi-select stays open after a pick; clicking it again would close it.
  if (!screen.queryByRole('option', { name: option })) await user.click(combobox(box));
  await user.click(await screen.findByRole('option', { name: option }));
}

/** Opens /user and its create drawer, and waits until the roles are loaded and the form is there. */
async function openUsersPage() {
  const app = renderApp('/user');
  // The first render loads the page's chunk, which takes a moment on a cold start.
  await app.user.click(await screen.findByRole('button', { name: 'Nutzer anlegen' }));
  await screen.findByRole('combobox', { name: /^Anrede/ });
  return app;
}

function usersApi(overrides: Record<string, MockHandler | ReturnType<typeof json>> = {}) {
  return mockApi({
    'GET /api/v1/user': json(200, { data: [makeUserRecord()] }),
    'GET /api/v1/roles': json(200, { data: ROLES }),
    ...overrides,
  });
}

describe('/user: create form "Nutzer anlegen"', () => {
  it('validates every field on submit with the contract messages and sends nothing', async () => {
    signIn(superAdmin());
    const { requests } = usersApi();
    const { user } = await openUsersPage();
    await user.click(screen.getByRole('button', { name: 'Anlegen' }));

    expect(await screen.findByText('Bitte Herr oder Frau wählen.')).toBeInTheDocument();
    expect(screen.getByText('Vorname ist erforderlich.')).toBeInTheDocument();
    expect(screen.getByText('Nachname ist erforderlich.')).toBeInTheDocument();
    expect(screen.getByText('E-Mail-Adresse ist erforderlich.')).toBeInTheDocument();
    expect(screen.getByText(ROLES_REQUIRED_MESSAGE)).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('validates a filled field on blur (min 3 characters)', async () => {
    signIn(superAdmin());
    usersApi();
    const { user } = await openUsersPage();
    await user.type(field('Nachname'), 'Al');
    await user.tab();
    expect(await screen.findByText('Nachname muss mindestens 3 Zeichen lang sein.')).toBeInTheDocument();
  });

  it('creates the user with role ids, shows a toast, closes and empties the form and the selects', async () => {
    signIn(superAdmin());
    const created = makeUserRecord({
      id: 99,
      title: 'Herr',
      firstname: 'Bernd',
      lastname: 'Becker',
      email: 'bernd@example.org',
      roles: ['Aufsichtsrat', 'Vertreter'],
      status: 'eingeladen',
    });
    const { requests } = usersApi({ 'POST /api/v1/user': json(201, { user: created }) });
    const { user } = await openUsersPage();

    await choose(user, 'Anrede', 'Herr');
    await user.type(field('Vorname'), 'Bernd');
    await user.type(field('Nachname'), 'Becker');
    await user.type(field('E-Mail'), 'Bernd@Example.org');
    await choose(user, 'Rollen', 'Aufsichtsrat');
    await choose(user, 'Rollen', 'Vertreter');
    await user.click(screen.getByRole('button', { name: 'Anlegen' }));

    expect(await screen.findByText(USER_CREATED_MESSAGE)).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({
      title: 'Herr',
      firstname: 'Bernd',
      lastname: 'Becker',
      email: 'bernd@example.org',
      roles: [3, 4],
    });
    // The drawer closes onto the table; opened again, the form and its selects are empty.
    await waitFor(() =>
      expect(screen.queryByRole('form', { name: 'Nutzer anlegen' })).not.toBeInTheDocument(),
    );
    await user.click(screen.getByRole('button', { name: 'Nutzer anlegen' }));
    await waitFor(() => expect(field('Vorname')).toHaveValue(''));
    expect(field('Nachname')).toHaveValue('');
    expect(field('E-Mail')).toHaveValue('');
    expect(combobox('Anrede')).toHaveValue('');
    expect(screen.queryByText('Aufsichtsrat', { selector: '.mantine-Pill-label' })).not.toBeInTheDocument();
  });

  it('shows the server field errors under the fields', async () => {
    signIn(superAdmin());
    usersApi({
      'POST /api/v1/user': json(422, {
        message: EMAIL_TAKEN_MESSAGE,
        errors: { email: [EMAIL_TAKEN_MESSAGE] },
      }),
    });
    const { user } = await openUsersPage();
    await choose(user, 'Anrede', 'Frau');
    await user.type(field('Vorname'), 'Clara');
    await user.type(field('Nachname'), 'Conrad');
    await user.type(field('E-Mail'), 'clara.conrad@example.org');
    await choose(user, 'Rollen', 'Vertreter');
    await user.click(screen.getByRole('button', { name: 'Anlegen' }));

    expect(await screen.findByText(EMAIL_TAKEN_MESSAGE)).toBeInTheDocument();
    expect(field('E-Mail')).toHaveAttribute('aria-invalid', 'true');
    // Nothing was created: the entered values stay for correction.
    expect(field('Vorname')).toHaveValue('Clara');
  });

  it('offers the roles Admin and Super-Admin only to a Super-Admin', async () => {
    signIn(plainAdmin());
    usersApi();
    const { user } = await openUsersPage();
    expect(
      screen.getByText('Die Rollen Admin und Super-Admin kann nur ein Super-Admin vergeben.'),
    ).toBeInTheDocument();
    await user.click(combobox('Rollen'));
    expect(await screen.findByRole('option', { name: 'Admin' })).toHaveAttribute(
      'data-combobox-disabled',
      'true',
    );
    expect(screen.getByRole('option', { name: 'Super-Admin' })).toHaveAttribute(
      'data-combobox-disabled',
      'true',
    );
    expect(screen.getByRole('option', { name: 'Vertreter' })).not.toHaveAttribute('data-combobox-disabled');
  });

  it('says so when the users cannot be loaded', async () => {
    signIn(superAdmin());
    usersApi({ 'GET /api/v1/user': json(500, { message: 'Ein interner Fehler ist aufgetreten.' }) });
    renderApp('/user');
    expect(await screen.findByText('Daten konnten nicht geladen werden')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Übersicht Benutzerkonten' })).toBeInTheDocument();
  });

  it('is not offered to non-admins', async () => {
    signIn(adminUser({ id: 5, roles: ['Vertreter'] }));
    const { requests } = usersApi();
    renderApp('/user');
    expect(await screen.findByText(/Seite wurde nicht gefunden/)).toBeInTheDocument();
    expect(requests.filter((r) => r.url === '/api/v1/user')).toHaveLength(0);
  });
});

describe('/user/show/{id}', () => {
  it('shows Anrede, Vorname, Nachname, E-Mail and Rollen, and the admin controls', async () => {
    signIn(superAdmin());
    usersApi({
      'GET /api/v1/user/21': json(200, { data: makeUserRecord({ roles: ['Aufsichtsrat', 'Vertreter'] }) }),
    });
    renderApp('/user/show/21');
    expect(await screen.findByRole('heading', { name: 'Clara Conrad' })).toBeInTheDocument();
    const entry = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling;
    expect(entry('Anrede')).toHaveTextContent('Frau');
    expect(entry('Vorname')).toHaveTextContent('Clara');
    expect(entry('Nachname')).toHaveTextContent('Conrad');
    expect(entry('E-Mail')).toHaveTextContent('clara.conrad@example.org');
    expect(entry('Rollen')).toHaveTextContent('Aufsichtsrat — direkt vergeben');
    expect(entry('Rollen')).toHaveTextContent('Vertreter — direkt vergeben');
    expect(screen.getByRole('link', { name: /Bearbeiten/ })).toHaveAttribute('href', '/user/update/21');
  });

  it('resets a lost second factor after asking for the admin’s own code, and offers it only when one is set up', async () => {
    signIn(superAdmin());
    let twoFactor = true;
    let attempts = 0;
    const { requests } = usersApi({
      'GET /api/v1/user/21': () => json(200, { data: makeUserRecord({ two_factor: twoFactor }) }),
      'DELETE /api/v1/user/21/two-factor': () => {
        attempts += 1;
        if (attempts === 1) {
          return json(422, {
            message: TWO_FACTOR_MESSAGES.codeInvalid,
            errors: { code: [TWO_FACTOR_MESSAGES.codeInvalid] },
          });
        }
        twoFactor = false;
        return new Response(null, { status: 204 });
      },
    });
    const { user } = renderApp('/user/show/21');
    const entry = async () =>
      (await screen.findByText('Zwei-Faktor-Anmeldung', { selector: 'dt' })).nextElementSibling;
    expect(await entry()).toHaveTextContent('Eingerichtet');
    await user.click(screen.getByRole('button', { name: 'Zwei-Faktor-Anmeldung zurücksetzen' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('alle Sitzungen beendet');
    const code = within(dialog).getByRole('textbox', { name: /Ihr eigener Bestätigungscode/ });
    expect(code).toHaveAccessibleDescription(/Authenticator-App oder einen Ihrer Wiederherstellungscodes/);
    // Nothing goes out without the admin's own code.
    await user.click(within(dialog).getByRole('button', { name: 'Zurücksetzen' }));
    expect(
      await within(dialog).findByText(
        'Bitte Ihren eigenen Bestätigungscode oder einen Ihrer Wiederherstellungscodes eingeben.',
      ),
    ).toBeInTheDocument();
    expect(requests.some((r) => r.method === 'DELETE')).toBe(false);
    // A wrong code is shown at the field; the dialog stays open.
    await user.type(code, '000 000');
    await user.click(within(dialog).getByRole('button', { name: 'Zurücksetzen' }));
    expect(await within(dialog).findByText(TWO_FACTOR_MESSAGES.codeInvalid)).toBeInTheDocument();
    await user.type(code, '123456');
    await user.click(within(dialog).getByRole('button', { name: 'Zurücksetzen' }));
    expect(
      await screen.findByText('Die Zwei-Faktor-Anmeldung von Clara Conrad wurde zurückgesetzt.'),
    ).toBeInTheDocument();
    expect(
      requests
        .filter((r) => r.method === 'DELETE' && r.url === '/api/v1/user/21/two-factor')
        .map((r) => r.body),
    ).toEqual([{ code: '000000' }, { code: '123456' }]);
    await waitFor(async () => expect(await entry()).toHaveTextContent('Nicht eingerichtet'));
    expect(
      screen.queryByRole('button', { name: 'Zwei-Faktor-Anmeldung zurücksetzen' }),
    ).not.toBeInTheDocument();
  });

  it('shows the load error for an id that does not exist', async () => {
    signIn(superAdmin());
    usersApi();
    renderApp('/user/show/77');
    expect(await screen.findByText('Daten konnten nicht geladen werden')).toBeInTheDocument();
  });
});

describe('/user/update/{id}', () => {
  it('shows the stored values, sends the changes and goes back to /user', async () => {
    signIn(superAdmin());
    const stored = makeUserRecord({ roles: ['Vertreter'] });
    const { requests } = usersApi({
      'GET /api/v1/user/21': json(200, { data: stored }),
      'PUT /api/v1/user/21': (request) =>
        json(200, { user: { ...stored, ...(request.body as object), roles: ['Aufsichtsrat'] } }),
    });
    const { user, router } = renderApp('/user/update/21');
    await waitFor(() => expect(field('Vorname')).toHaveValue('Clara'));
    expect(combobox('Titel \\(Anrede\\)')).toHaveValue('Frau');
    expect(field('E-Mail')).toHaveValue('clara.conrad@example.org');
    const roles = combobox(DIRECT_ROLES_LABEL).closest('.mantine-MultiSelect-root') as HTMLElement;
    expect(within(roles).getByText('Vertreter')).toBeInTheDocument();

    await user.clear(field('Nachname'));
    await user.type(field('Nachname'), 'Conrad-Berg');
    // Picking a chosen option again removes it.
    await choose(user, DIRECT_ROLES_LABEL, 'Vertreter');
    await choose(user, DIRECT_ROLES_LABEL, 'Aufsichtsrat');
    await user.click(screen.getByRole('button', { name: 'Aktualisieren' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/user'));
    expect(requests.find((r) => r.method === 'PUT')?.body).toEqual({
      title: 'Frau',
      firstname: 'Clara',
      lastname: 'Conrad-Berg',
      email: 'clara.conrad@example.org',
      roles: [3],
    });
  });

  it('shows "Fehler beim Aktualisieren eines Nutzers" when the server refuses for another reason', async () => {
    signIn(superAdmin());
    usersApi({
      'GET /api/v1/user/21': json(200, { data: makeUserRecord() }),
      'PUT /api/v1/user/21': json(500, { message: 'Ein interner Fehler ist aufgetreten.' }),
    });
    const { user, router } = renderApp('/user/update/21');
    await waitFor(() => expect(field('Vorname')).toHaveValue('Clara'));
    await user.click(screen.getByRole('button', { name: 'Aktualisieren' }));
    // Toasts of earlier tests may still be around; this alert is the form's.
    const alert = (await screen.findByText(USER_UPDATE_FAILED_MESSAGE)).closest('[role="alert"]');
    expect(alert).not.toBeNull();
    expect(alert).toHaveTextContent('Ein interner Fehler ist aufgetreten.');
    expect(router.state.location.pathname).toBe('/user/update/21');
  });

  it('lets only a Super-Admin edit a holder of an admin role', async () => {
    signIn(plainAdmin());
    usersApi({ 'GET /api/v1/user/21': json(200, { data: makeUserRecord({ roles: ['Admin'] }) }) });
    renderApp('/user/update/21');
    expect(await screen.findByText(ADMIN_USER_CHANGE_FORBIDDEN_MESSAGE)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Aktualisieren' })).not.toBeInTheDocument();
  });
});

describe('/user: roles from committees (decision 189)', () => {
  const AUFSICHTSRAT = { id: 3, name: 'Aufsichtsrat' };
  const membership = (overrides: Partial<OwnMembership> = {}): OwnMembership => ({
    id: 1,
    committee: { id: 1, name: 'Aufsichtsrat' },
    term_title: 'Amtsperiode 2026–2030',
    function: 'mitglied',
    rank: null,
    from: '2026-07-01',
    until: '2030-06-30',
    active: true,
    ...overrides,
  });
  /** Direct Vertreter, Aufsichtsrat through the committee of that name. */
  const member = (direct: string[] = ['Vertreter']) =>
    makeUserRecord({
      roles: direct,
      effective_roles: [
        { ...AUFSICHTSRAT, sources: ['committee'], committee: { id: 1, name: 'Aufsichtsrat' } },
        ...(direct.includes('Vertreter')
          ? [{ id: 4, name: 'Vertreter', sources: ['direct' as const], committee: null }]
          : []),
      ],
      memberships: [
        membership(),
        membership({
          id: 2,
          committee: { id: 2, name: 'Bauausschuss' },
          term_title: 'Amtsperiode 2018–2022',
          function: 'ersatzmitglied',
          rank: 1,
          from: '2018-07-01',
          until: '2022-06-30',
          active: false,
        }),
      ],
    });

  it('shows every role with its source and the memberships on the user page', async () => {
    signIn(superAdmin());
    usersApi({ 'GET /api/v1/user/21': json(200, { data: member() }) });
    renderApp('/user/show/21');
    const rolesEntry = (await screen.findByText('Rollen', { selector: 'dt' })).nextElementSibling;
    expect(rolesEntry).toHaveTextContent('Aufsichtsrat — über Gremium Aufsichtsrat');
    expect(rolesEntry).toHaveTextContent('Vertreter — direkt vergeben');
    const committees = screen.getByRole('region', { name: 'Gremien' });
    const [current, past] = within(committees).getAllByRole('listitem');
    expect(current).toHaveTextContent('Aufsichtsrat');
    expect(current).toHaveTextContent('Mitglied · Amtsperiode 2026–2030');
    expect(current).toHaveTextContent('seit 01.07.2026, bis 30.06.2030');
    expect(current).not.toHaveTextContent('beendet');
    expect(past).toHaveTextContent('Ersatzmitglied (Rang 1) · Amtsperiode 2018–2022');
    expect(past).toHaveTextContent('vom 01.07.2018 bis 30.06.2022');
    expect(past).toHaveTextContent('beendet');
  });

  it('edits only the direct roles: the committee role is shown beside them and never sent', async () => {
    signIn(superAdmin());
    const stored = member();
    const { requests } = usersApi({
      'GET /api/v1/user/21': json(200, { data: stored }),
      'PUT /api/v1/user/21': () => json(200, { user: stored }),
    });
    const { user, router } = renderApp('/user/update/21');
    await waitFor(() => expect(field('Vorname')).toHaveValue('Clara'));
    const select = combobox(DIRECT_ROLES_LABEL).closest('.mantine-MultiSelect-root') as HTMLElement;
    expect(within(select).getByText('Vertreter')).toBeInTheDocument();
    expect(within(select).queryByText('Aufsichtsrat')).not.toBeInTheDocument();
    const all = screen.getByRole('group', { name: ALL_ROLES_LABEL });
    expect(all).toHaveTextContent('Aufsichtsrat — über Gremium Aufsichtsrat');
    expect(all).toHaveTextContent('Vertreter — direkt vergeben');
    expect(within(screen.getByRole('region', { name: 'Gremien' })).getAllByRole('listitem')).toHaveLength(2);

    await user.click(screen.getByRole('button', { name: 'Aktualisieren' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/user'));
    expect(requests.find((r) => r.method === 'PUT')?.body).toMatchObject({ roles: [4] });
  });

  it('lets the direct roles be emptied while a committee gives a role', async () => {
    signIn(superAdmin());
    const { requests } = usersApi({
      'GET /api/v1/user/21': json(200, { data: member() }),
      'PUT /api/v1/user/21': () => json(200, { user: member([]) }),
    });
    const { user, router } = renderApp('/user/update/21');
    await waitFor(() => expect(field('Vorname')).toHaveValue('Clara'));
    // Picking the chosen option again removes it.
    await choose(user, DIRECT_ROLES_LABEL, 'Vertreter');
    await user.click(screen.getByRole('button', { name: 'Aktualisieren' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/user'));
    expect(requests.find((r) => r.method === 'PUT')?.body).toMatchObject({ roles: [] });
  });

  it('still asks for a role when no committee gives one', async () => {
    signIn(superAdmin());
    const { requests } = usersApi({ 'GET /api/v1/user/21': json(200, { data: makeUserRecord() }) });
    const { user } = renderApp('/user/update/21');
    await waitFor(() => expect(field('Vorname')).toHaveValue('Clara'));
    // Picking the chosen option again removes it.
    await choose(user, DIRECT_ROLES_LABEL, 'Vertreter');
    await user.click(screen.getByRole('button', { name: 'Aktualisieren' }));
    expect(await screen.findByText(ROLES_REQUIRED_MESSAGE)).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'PUT')).toHaveLength(0);
  });
});
