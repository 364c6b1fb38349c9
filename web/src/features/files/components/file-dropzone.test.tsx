import { useState } from 'react';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../testing/render';
import { DROPZONE_MESSAGES, FileDropzone } from './file-dropzone';

function Harness() {
  const [file, setFile] = useState<File | null>(null);
  return (
    <>
      <FileDropzone value={file} onChange={setFile} required />
      <output>{file ? `gewählt: ${file.name}` : 'keine Datei'}</output>
    </>
  );
}

const input = () => screen.getByLabelText('Datei', { selector: 'input' }) as HTMLInputElement;
const pdf = (name = 'a.pdf') => new File(['%PDF-1.4'], name, { type: 'application/pdf' });

/** What a drop or a pick of several files looks like to the zone. */
function pick(...files: File[]) {
  Object.defineProperty(input(), 'files', { value: files, configurable: true });
  fireEvent.change(input());
}

describe('FileDropzone', () => {
  it('offers a button to pick the file and keeps the input out of the accessibility tree', () => {
    renderWithProviders(<Harness />);
    expect(screen.getByRole('button', { name: 'Datei auswählen' })).toBeInTheDocument();
    expect(input()).toHaveAttribute('aria-hidden', 'true');
    expect(screen.getByTestId('file-dropzone')).not.toHaveAttribute('role', 'button');
    expect(screen.getByTestId('file-dropzone')).not.toHaveAttribute('tabindex');
  });

  it('takes a picked document and can let go of it again', async () => {
    const { user } = renderWithProviders(<Harness />);
    pick(pdf('protokoll.pdf'));
    expect(await screen.findByText('gewählt: protokoll.pdf')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Auswahl „protokoll.pdf“ entfernen' }));
    expect(screen.getByText('keine Datei')).toBeInTheDocument();
  });

  it('uses only the first of several files and says so', async () => {
    renderWithProviders(<Harness />);
    pick(pdf('erste.pdf'), pdf('zweite.pdf'));
    expect(await screen.findByText('gewählt: erste.pdf')).toBeInTheDocument();
    expect(screen.getByText(DROPZONE_MESSAGES.tooMany)).toBeInTheDocument();
  });

  it('refuses a type it does not take, with a German message', async () => {
    renderWithProviders(<Harness />);
    pick(new File(['<script>'], 'seite.html', { type: 'text/html' }));
    expect(await screen.findByText(DROPZONE_MESSAGES.type)).toBeInTheDocument();
    expect(screen.getByText('keine Datei')).toBeInTheDocument();
  });

  it('refuses an empty file and one over the limit', async () => {
    renderWithProviders(<Harness />);
    const huge = pdf('riesig.pdf');
    Object.defineProperty(huge, 'size', { value: 101 * 1024 * 1024 });
    pick(huge);
    expect(await screen.findByText(DROPZONE_MESSAGES.tooLarge)).toBeInTheDocument();
    expect(DROPZONE_MESSAGES.tooLarge).toBe('Die Datei ist größer als 100 MB.');
    await waitFor(() => expect(screen.getByText('keine Datei')).toBeInTheDocument());
  });
});
