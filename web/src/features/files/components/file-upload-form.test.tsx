import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FILE_MESSAGES } from '@gremienportal/contracts/file-messages';
import { ApiError } from '../../../lib/api-client';
import { mockApi } from '../../../testing/fetch-mock';
import { renderWithProviders } from '../../../testing/render';
import { FileUploadForm, type UploadSubmit } from './file-upload-form';

const ROLES = [
  { id: 1, name: 'Admin' },
  { id: 2, name: 'Super-Admin' },
  { id: 3, name: 'Aufsichtsrat' },
  { id: 4, name: 'Vertreter' },
];

const labelled = (name: string) => new RegExp(`^${name}( \\*)?$`);
const combobox = (name: string) => screen.getByRole('combobox', { name: labelled(name) });
/** The chosen values of a multi-select, as its pills show them. */
const pillsOf = (name: string) => {
  const root =
    combobox(name).closest('.mantine-MultiSelect-root') ?? combobox(name).parentElement!.parentElement!;
  return [...root.querySelectorAll('.mantine-Pill-label')].map((pill) => pill.textContent);
};

function renderFixed(breadcrumb: string, roles: string[], onSubmit: UploadSubmit = vi.fn()) {
  return renderWithProviders(
    <FileUploadForm
      roles={ROLES}
      target={{ kind: 'fixed', id: 10, breadcrumb, roles }}
      failureMessage={FILE_MESSAGES.createFailed}
      onSubmit={onSubmit}
    />,
    { signedIn: true },
  );
}

// The form lives in the signed-in part; its drop zone asks for the upload limit (default when unanswered).
beforeEach(() => {
  mockApi({});
});

describe('FileUploadForm: default "Zugriffsberechtigung" by path (product.md P4)', () => {
  it('preselects Aufsichtsrat under /Aufsichtsrat', () => {
    renderFixed('/Aufsichtsrat/Sitzungen 2026', ['Aufsichtsrat', 'Vertreter']);
    expect(pillsOf('Zugriffsberechtigung')).toEqual(['Aufsichtsrat']);
  });

  it('preselects Vertreter under /Mitgliedervertreter', () => {
    renderFixed('/Mitgliedervertreter/Versammlung', ['Aufsichtsrat']);
    expect(pillsOf('Zugriffsberechtigung')).toEqual(['Vertreter']);
  });

  it("takes the active folder's roles elsewhere", () => {
    renderFixed('/Allgemein/Satzung', ['Aufsichtsrat', 'Vertreter']);
    expect(pillsOf('Zugriffsberechtigung')).toEqual(['Aufsichtsrat', 'Vertreter']);
  });

  it('follows the chosen folder on /files/new until roles are chosen by hand', async () => {
    const { user } = renderWithProviders(
      <FileUploadForm
        roles={ROLES}
        target={{
          kind: 'choose',
          options: [
            { id: 2, breadcrumb: '/Aufsichtsrat', archived: false },
            { id: 3, breadcrumb: '/Mitgliedervertreter', archived: false },
            { id: 8, breadcrumb: '/Allgemein/Satzung', archived: false },
          ],
          rolesOf: (id) => (id === 8 ? ['Aufsichtsrat', 'Vertreter'] : []),
        }}
        failureMessage={FILE_MESSAGES.createFailedPage}
        onSubmit={vi.fn()}
      />,
      { signedIn: true },
    );
    expect(pillsOf('Zugriffsberechtigung')).toEqual([]);
    await user.click(combobox('Ordner'));
    await user.click(await screen.findByRole('option', { name: '/Mitgliedervertreter' }));
    expect(pillsOf('Zugriffsberechtigung')).toEqual(['Vertreter']);
    await user.click(combobox('Ordner'));
    await user.click(await screen.findByRole('option', { name: '/Allgemein/Satzung' }));
    expect(pillsOf('Zugriffsberechtigung')).toEqual(['Aufsichtsrat', 'Vertreter']);
  });
});

describe('FileUploadForm: "Benachrichtigung an" (product.md P4)', () => {
  it('offers only the chosen roles and is cleared when the roles change', async () => {
    const { user } = renderFixed('/Allgemein', ['Aufsichtsrat', 'Vertreter']);
    await user.click(combobox('Benachrichtigung an'));
    const listbox = await screen.findByRole('listbox');
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Aufsichtsrat', 'Vertreter']);
    await user.click(within(listbox).getByRole('option', { name: 'Vertreter' }));
    expect(pillsOf('Benachrichtigung an')).toEqual(['Vertreter']);

    // A change of the roles clears the notification choice …
    await user.click(combobox('Zugriffsberechtigung'));
    await user.click(await screen.findByRole('option', { name: 'Admin' }));
    expect(pillsOf('Benachrichtigung an')).toEqual([]);
    // … and the options follow the roles.
    await user.click(combobox('Benachrichtigung an'));
    const options = within(await screen.findByRole('listbox', { name: /Benachrichtigung/ }))
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(options).toEqual(['Admin', 'Aufsichtsrat', 'Vertreter']);
  });

  it('is disabled until a role is chosen', () => {
    renderFixed('/Projekte', []);
    expect(combobox('Benachrichtigung an')).toBeDisabled();
    expect(screen.getByText('Zuerst die Zugriffsberechtigung wählen')).toBeInTheDocument();
  });
});

describe('FileUploadForm: submit', () => {
  it('reports every missing field at once with the contract messages and sends nothing', async () => {
    const onSubmit = vi.fn();
    const { user } = renderFixed('/Projekte', [], onSubmit);
    await user.click(screen.getByRole('button', { name: 'Hochladen' }));
    expect(await screen.findByText('Titel ist erforderlich.')).toBeInTheDocument();
    expect(screen.getByText('Bitte mindestens eine Rolle wählen.')).toBeInTheDocument();
    expect(screen.getByText(FILE_MESSAGES.fileRequired)).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('sends title, roles, notifications, folder and the first file', async () => {
    const onSubmit = vi.fn<UploadSubmit>().mockResolvedValue(undefined);
    const { user } = renderFixed('/Aufsichtsrat/2026', ['Aufsichtsrat'], onSubmit);
    await user.type(screen.getByRole('textbox', { name: labelled('Titel') }), '  Protokoll März ');
    await user.click(combobox('Benachrichtigung an'));
    await user.click(await screen.findByRole('option', { name: 'Aufsichtsrat' }));
    const pdf = new File(['%PDF-1.4'], 'protokoll.pdf', { type: 'application/pdf' });
    await user.upload(screen.getByLabelText('Datei', { selector: 'input' }), pdf);
    expect(screen.getByText(/protokoll\.pdf/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Hochladen' }));

    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    const [body, file] = onSubmit.mock.calls[0]!;
    expect(body).toMatchObject({
      title: 'Protokoll März',
      permissions: ['3'],
      notifications: ['3'],
      folder_id: 10,
    });
    expect(file).toBe(pdf);
  });

  it("shows the server's 422 message and puts field errors under the fields", async () => {
    const onSubmit = vi.fn<UploadSubmit>().mockRejectedValue(
      new ApiError(422, 'Die Eingaben sind nicht gültig.', {
        errors: { title: ['Der Titel ist schon vergeben.'], folder_id: ['In den Hauptordner nicht.'] },
      }),
    );
    const { user } = renderFixed('/Aufsichtsrat/2026', ['Aufsichtsrat'], onSubmit);
    await user.type(screen.getByRole('textbox', { name: labelled('Titel') }), 'Protokoll');
    await user.upload(
      screen.getByLabelText('Datei', { selector: 'input' }),
      new File(['x'], 'a.pdf', { type: 'application/pdf' }),
    );
    await user.click(screen.getByRole('button', { name: 'Hochladen' }));
    expect(await screen.findByText('Der Titel ist schon vergeben.')).toBeInTheDocument();
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent(FILE_MESSAGES.createFailed);
    expect(alert).toHaveTextContent('In den Hauptordner nicht.');
  });

  it('shows the generic text for other failures', async () => {
    const onSubmit = vi.fn<UploadSubmit>().mockRejectedValue(new ApiError(500, 'Interner Fehler'));
    const { user } = renderFixed('/Aufsichtsrat/2026', ['Aufsichtsrat'], onSubmit);
    await user.type(screen.getByRole('textbox', { name: labelled('Titel') }), 'Protokoll');
    await user.upload(
      screen.getByLabelText('Datei', { selector: 'input' }),
      new File(['x'], 'a.pdf', { type: 'application/pdf' }),
    );
    await user.click(screen.getByRole('button', { name: 'Hochladen' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(FILE_MESSAGES.createFailed);
    expect(alert).not.toHaveTextContent('Interner Fehler');
  });
});
