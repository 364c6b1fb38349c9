import { useState } from 'react';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, mockApi } from '../testing/fetch-mock';
import { renderWithProviders } from '../testing/render';
import { UploadDropzone, type UploadDropzoneProps } from './upload-dropzone';

const SETTINGS = {
  imprint_url: 'https://example.org/impressum',
  privacy_url: 'https://example.org/datenschutz',
  contacts: { Aufsichtsrat: 'ar@example.org', Vertreter: 'vertreter@example.org' },
  max_upload_mb: 5,
};
const MB = 1024 * 1024;

function Harness(props: Partial<UploadDropzoneProps>) {
  const [file, setFile] = useState<File | null>(null);
  return (
    <>
      <UploadDropzone value={file} onChange={setFile} extensions={['pdf', 'docx']} required {...props} />
      <output>{file ? `gewählt: ${file.name}` : 'keine Datei'}</output>
    </>
  );
}

/** Renders the zone signed in; the server's settings answer `max_upload_mb`. */
function renderZone(props: Partial<UploadDropzoneProps> = {}, settings = json(200, { data: SETTINGS })) {
  mockApi({ 'GET /api/v1/settings': settings });
  return renderWithProviders(<Harness {...props} />, { signedIn: true });
}

const input = (label = 'Datei') => screen.getByLabelText(label, { selector: 'input' }) as HTMLInputElement;
const pdf = (name = 'a.pdf', size?: number) => {
  const file = new File(['%PDF-1.4'], name, { type: 'application/pdf' });
  if (size !== undefined) Object.defineProperty(file, 'size', { value: size });
  return file;
};

/** What a drop or a pick of several files looks like to the zone. */
function pick(files: File[], label?: string) {
  Object.defineProperty(input(label), 'files', { value: files, configurable: true });
  fireEvent.change(input(label));
}

describe('UploadDropzone', () => {
  it('is a labelled group with a button to pick the file; the input stays out of the accessibility tree', async () => {
    renderZone();
    const button = screen.getByRole('button', { name: 'Datei auswählen' });
    expect(await screen.findByText('Eine Datei bis 5 MB (PDF, DOCX).')).toBeInTheDocument();
    expect(button).toHaveAccessibleDescription('Eine Datei bis 5 MB (PDF, DOCX).');
    expect(input()).toHaveAttribute('aria-hidden', 'true');
    const zone = screen.getByTestId('file-dropzone');
    expect(zone).toHaveAttribute('role', 'group');
    expect(zone).toHaveAccessibleName(/^Datei/);
    expect(zone).not.toHaveAttribute('tabindex');
  });

  it('names the button after its label and says when the file is optional', async () => {
    renderZone({ label: 'Informationsdatei', optional: true, required: false, emptyNote: 'Bisher: a.pdf' });
    expect(screen.getByRole('button', { name: 'Informationsdatei auswählen' })).toBeInTheDocument();
    expect(await screen.findByText('Optional, eine Datei bis 5 MB (PDF, DOCX).')).toBeInTheDocument();
    expect(screen.getByText('Bisher: a.pdf')).toBeInTheDocument();
    expect(input('Informationsdatei')).toBeInTheDocument();
  });

  it('takes a picked document and can let go of it again', async () => {
    const { user } = renderZone();
    pick([pdf('protokoll.pdf')]);
    expect(await screen.findByText('gewählt: protokoll.pdf')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Auswahl „protokoll.pdf“ entfernen' }));
    expect(screen.getByText('keine Datei')).toBeInTheDocument();
  });

  it('uses only the first of several files and says so', async () => {
    renderZone();
    pick([pdf('erste.pdf'), pdf('zweite.pdf')]);
    expect(await screen.findByText('gewählt: erste.pdf')).toBeInTheDocument();
    expect(
      screen.getByText('Es kann nur eine Datei hochgeladen werden – die erste wurde übernommen.'),
    ).toBeInTheDocument();
  });

  it('refuses a type it does not take, naming the types it does', async () => {
    renderZone();
    pick([new File(['<script>'], 'seite.html', { type: 'text/html' })]);
    expect(
      await screen.findByText('Dieser Dateityp ist nicht erlaubt. Erlaubt sind: PDF, DOCX.'),
    ).toBeInTheDocument();
    expect(screen.getByText('keine Datei')).toBeInTheDocument();
  });

  it('refuses an empty file', async () => {
    renderZone();
    pick([new File([], 'leer.pdf', { type: 'application/pdf' })]);
    expect(await screen.findByText('Die Datei ist leer.')).toBeInTheDocument();
    expect(screen.getByText('keine Datei')).toBeInTheDocument();
  });

  it('follows max_upload_mb from the settings: a file over 5 MB is refused in German', async () => {
    renderZone();
    await screen.findByText('Eine Datei bis 5 MB (PDF, DOCX).');
    pick([pdf('gross.pdf', 5 * MB + 1)]);
    expect(await screen.findByText('Die Datei ist größer als 5 MB.')).toBeInTheDocument();
    expect(screen.getByText('keine Datei')).toBeInTheDocument();
    // Exactly at the limit is still fine.
    pick([pdf('passt.pdf', 5 * MB)]);
    expect(await screen.findByText('gewählt: passt.pdf')).toBeInTheDocument();
    expect(screen.queryByText('Die Datei ist größer als 5 MB.')).not.toBeInTheDocument();
  });

  it('assumes the server default of 100 MB while the settings cannot be loaded', async () => {
    renderZone({}, json(500, { message: 'Ein interner Fehler ist aufgetreten.' }));
    expect(screen.getByText('Eine Datei bis 100 MB (PDF, DOCX).')).toBeInTheDocument();
    pick([pdf('riesig.pdf', 100 * MB + 1)]);
    expect(await screen.findByText('Die Datei ist größer als 100 MB.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText('keine Datei')).toBeInTheDocument());
  });
});
