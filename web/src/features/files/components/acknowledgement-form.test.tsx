import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ACKNOWLEDGEMENT_MESSAGES } from '@gremienportal/contracts/file-messages';
import { FILE_MESSAGES } from '@gremienportal/contracts/file-messages';
import { mockApi } from '../../../testing/fetch-mock';
import { renderWithProviders } from '../../../testing/render';
import { fileFormData } from '../files.api';
import { FileEditForm, type EditSubmit } from './file-edit-form';
import { FileUploadForm, type UploadSubmit } from './file-upload-form';
import { makeInvitationFile } from '../../../testing/factories';

const ROLES = [
  { id: 3, name: 'Aufsichtsrat' },
  { id: 4, name: 'Vertreter' },
];

const FILE = makeInvitationFile({
  acknowledged_at: null,
});

const pdf = () => new File(['%PDF-1.4'], 'einladung.pdf', { type: 'application/pdf' });

beforeEach(() => {
  mockApi({});
});

describe('Kenntnisnahme in the upload form', () => {
  it('asks for it with an optional date "bis" and sends both', async () => {
    const onSubmit = vi.fn<UploadSubmit>().mockResolvedValue(undefined);
    const { user } = renderWithProviders(
      <FileUploadForm
        roles={ROLES}
        target={{ kind: 'fixed', id: 3, breadcrumb: '/Mitgliedervertreter', roles: ['Vertreter'] }}
        failureMessage={FILE_MESSAGES.createFailed}
        onSubmit={onSubmit}
      />,
      { signedIn: true },
    );
    await user.type(screen.getByRole('textbox', { name: /^Titel/ }), 'Einladung');
    // The date shows only with the checkbox.
    expect(screen.queryByLabelText(/^bis/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: ACKNOWLEDGEMENT_MESSAGES.required }));
    await user.type(screen.getByLabelText(/^bis/), '2026-12-01');
    await user.upload(screen.getByLabelText('Datei', { selector: 'input' }), pdf());
    await user.click(screen.getByRole('button', { name: 'Hochladen' }));

    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    const [body, file] = onSubmit.mock.calls[0]!;
    expect(body).toMatchObject({ acknowledgement_required: true, acknowledgement_due: '2026-12-01' });
    const sent = fileFormData(body, file);
    expect(sent.get('acknowledgement_required')).toBe('true');
    expect(sent.get('acknowledgement_due')).toBe('2026-12-01');
  });

  it('sends "false" and no date when it is not asked for, and unticking clears the date', async () => {
    const onSubmit = vi.fn<UploadSubmit>().mockResolvedValue(undefined);
    const { user } = renderWithProviders(
      <FileUploadForm
        roles={ROLES}
        target={{ kind: 'fixed', id: 3, breadcrumb: '/Mitgliedervertreter', roles: ['Vertreter'] }}
        failureMessage={FILE_MESSAGES.createFailed}
        onSubmit={onSubmit}
      />,
      { signedIn: true },
    );
    await user.type(screen.getByRole('textbox', { name: /^Titel/ }), 'Einladung');
    const box = screen.getByRole('checkbox', { name: ACKNOWLEDGEMENT_MESSAGES.required });
    await user.click(box);
    await user.type(screen.getByLabelText(/^bis/), '2026-12-01');
    await user.click(box);
    await user.upload(screen.getByLabelText('Datei', { selector: 'input' }), pdf());
    await user.click(screen.getByRole('button', { name: 'Hochladen' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    const [body, file] = onSubmit.mock.calls[0]!;
    const sent = fileFormData(body, file);
    expect(sent.get('acknowledgement_required')).toBe('false');
    expect(sent.get('acknowledgement_due')).toBe('');
  });
});

describe('Kenntnisnahme in the edit form', () => {
  function renderEdit(onSubmit: EditSubmit) {
    return renderWithProviders(
      <FileEditForm
        file={FILE}
        roles={ROLES}
        folderOptions={[{ id: 3, breadcrumb: '/Mitgliedervertreter', archived: false }]}
        failureMessage={FILE_MESSAGES.updateFailed}
        onSubmit={onSubmit}
      />,
      { signedIn: true },
    );
  }

  it('starts with the stored choice; "Erneut um Kenntnisnahme bitten" appears with a new file', async () => {
    const onSubmit = vi.fn<EditSubmit>().mockResolvedValue(undefined);
    const { user } = renderEdit(onSubmit);
    expect(screen.getByRole('checkbox', { name: ACKNOWLEDGEMENT_MESSAGES.required })).toBeChecked();
    expect(screen.getByLabelText(/^bis/)).toHaveValue('2026-12-01');
    expect(screen.queryByRole('checkbox', { name: ACKNOWLEDGEMENT_MESSAGES.reset })).not.toBeInTheDocument();

    await user.upload(screen.getByLabelText('Neue Datei', { selector: 'input' }), pdf());
    const reset = screen.getByRole('checkbox', { name: ACKNOWLEDGEMENT_MESSAGES.reset });
    expect(reset).toBeChecked();
    await user.click(reset);
    await user.click(screen.getByRole('button', { name: 'Speichern' }));

    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    const [body, file] = onSubmit.mock.calls[0]!;
    const sent = fileFormData(body, file);
    expect(sent.get('acknowledgement_required')).toBe('true');
    expect(sent.get('acknowledgement_due')).toBe('2026-12-01');
    expect(sent.get('acknowledgement_reset')).toBe('false');
  });

  it('sends no reset without a new file', async () => {
    const onSubmit = vi.fn<EditSubmit>().mockResolvedValue(undefined);
    const { user } = renderEdit(onSubmit);
    await user.click(screen.getByRole('button', { name: 'Speichern' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    const [body, file] = onSubmit.mock.calls[0]!;
    expect(fileFormData(body, file).has('acknowledgement_reset')).toBe(false);
  });
});
