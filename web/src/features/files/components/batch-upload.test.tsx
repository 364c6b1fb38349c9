import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { StoredFile } from '@gremienportal/contracts/files';
import { FILE_MESSAGES } from '@gremienportal/contracts/file-messages';
import { UPLOAD_BATCH_MESSAGES } from '@gremienportal/contracts/file-messages';
import { json, mockApi, type MockHandler } from '../../../testing/fetch-mock';
import { renderWithProviders } from '../../../testing/render';
import { FileUploadForm } from './file-upload-form';

/*
 * Several documents in one go (decision 182): titles from the file names, the same roles and
 * notification for all, one batch id, two uploads at a time with their own progress and result,
 * failed ones retried without the others, and the batch completed once at the end.
 */

const ROLES = [
  { id: 1, name: 'Admin' },
  { id: 2, name: 'Super-Admin' },
  { id: 3, name: 'Aufsichtsrat' },
  { id: 4, name: 'Vertreter' },
];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

interface PendingUpload {
  fields: FormData;
  progress(percent: number): void;
  answer(status: number, body?: unknown): void;
}

/** Uploads go through XMLHttpRequest: each one waits here until the test answers it. */
function holdUploads() {
  const pending: PendingUpload[] = [];
  const sent: FormData[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  class HeldXhr {
    status = 0;
    responseText = '';
    timeout = 0;
    private listeners: Record<string, (() => void)[]> = {};
    private progressListeners: ((event: ProgressEvent) => void)[] = [];
    readonly upload = {
      addEventListener: (_type: string, listener: (event: ProgressEvent) => void) =>
        this.progressListeners.push(listener),
    };
    open() {}
    setRequestHeader() {}
    getResponseHeader(name: string) {
      return name.toLowerCase() === 'content-type' ? 'application/json' : null;
    }
    addEventListener(type: string, listener: () => void) {
      (this.listeners[type] ??= []).push(listener);
    }
    abort() {}
    send(body: FormData) {
      sent.push(body);
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
      pending.push({
        fields: body,
        progress: (percent) => {
          for (const listener of this.progressListeners) {
            listener({ lengthComputable: true, loaded: percent, total: 100 } as ProgressEvent);
          }
        },
        answer: (status, answer) => {
          inFlight -= 1;
          this.status = status;
          this.responseText = answer === undefined ? '' : JSON.stringify(answer);
          for (const listener of this.listeners.load ?? []) listener();
        },
      });
    }
  }
  vi.stubGlobal('XMLHttpRequest', HeldXhr);
  return { pending, sent, mostInFlight: () => mostInFlight };
}

const pdf = (name: string) => new File([`%PDF-1.4 ${name}`], name, { type: 'application/pdf' });
let nextId = 100;
const created = (fields: FormData): { file: Partial<StoredFile> } => ({
  file: { id: (nextId += 1), title: String(fields.get('title')), folder_id: 10 },
});

let completions: string[] = [];
const completeRoute: MockHandler = (request) => {
  const id = request.url.split('/')[5]!;
  completions.push(id);
  return json(200, {
    message: UPLOAD_BATCH_MESSAGES.completed(3, 1),
    batch: { id, files: 3, mails: 1, completed_at: '2026-12-03T10:00:00.000Z' },
  });
};

/** Answers the uploads as they come, with `status(upload)`; returns how many it answered. */
async function answerAll(held: ReturnType<typeof holdUploads>, count: number, status: (i: number) => number) {
  for (let i = 0; i < count; i += 1) {
    await waitFor(() => expect(held.pending.length).toBeGreaterThan(0));
    const upload = held.pending.shift()!;
    const code = status(i);
    upload.answer(
      code,
      code === 201
        ? created(upload.fields)
        : code === 422
          ? { message: 'Die Eingaben sind ungültig.', errors: { title: ['Der Titel ist schon vergeben.'] } }
          : { message: 'Interner Fehler' },
    );
  }
}

function renderBatchForm() {
  const onBatchUploaded = vi.fn();
  const onSubmit = vi.fn();
  const view = renderWithProviders(
    <FileUploadForm
      roles={ROLES}
      target={{ kind: 'fixed', id: 10, breadcrumb: '/Aufsichtsrat/2026', roles: ['Aufsichtsrat'] }}
      failureMessage={FILE_MESSAGES.createFailed}
      onSubmit={onSubmit}
      onBatchUploaded={onBatchUploaded}
    />,
    { signedIn: true },
  );
  const choose = (files: File[]) =>
    view.user.upload(screen.getByLabelText('Datei', { selector: 'input' }), files);
  return { ...view, onBatchUploaded, onSubmit, choose };
}

beforeEach(() => {
  completions = [];
  // Any batch id: the route is looked up by its path.
  mockApi(
    new Proxy({} as Record<string, MockHandler>, {
      get: (_routes, key: string) =>
        /^POST \/api\/v1\/files\/batches\/[^/]+\/complete$/.test(key) ? completeRoute : undefined,
    }),
  );
});

describe('FileUploadForm with several files (decision 182)', () => {
  it('titles each file from its name, sends them two at a time with one batch id and completes it once', async () => {
    const held = holdUploads();
    const { user, choose, onBatchUploaded, onSubmit } = renderBatchForm();
    await user.click(screen.getByRole('combobox', { name: /^Benachrichtigung an/ }));
    await user.click(await screen.findByRole('option', { name: 'Aufsichtsrat' }));
    await choose([pdf('Protokoll März.pdf'), pdf('Anlage_1.pdf'), pdf('Bericht.2026.pdf')]);

    // "Titel" became the list, one title per file from its name.
    expect(screen.queryByRole('textbox', { name: /^Titel( \*)?$/ })).not.toBeInTheDocument();
    const titleOf = (name: string) =>
      screen.getByRole('textbox', { name: new RegExp(`^${UPLOAD_BATCH_MESSAGES.titleOf(name)}`) });
    expect(titleOf('Protokoll März.pdf')).toHaveValue('Protokoll März');
    expect(titleOf('Anlage_1.pdf')).toHaveValue('Anlage_1');
    expect(titleOf('Bericht.2026.pdf')).toHaveValue('Bericht.2026');
    await user.clear(titleOf('Anlage_1.pdf'));
    await user.type(titleOf('Anlage_1.pdf'), 'Anlage 1: Haushalt');

    await user.click(screen.getByRole('button', { name: UPLOAD_BATCH_MESSAGES.submit(3) }));
    await waitFor(() => expect(held.pending).toHaveLength(2));
    expect(screen.getAllByText(UPLOAD_BATCH_MESSAGES.waiting)).toHaveLength(1);
    held.pending[0]!.progress(40);
    expect(await screen.findByText('Wird hochgeladen … 40 %')).toBeInTheDocument();
    await answerAll(held, 3, () => 201);

    await waitFor(() => expect(onBatchUploaded).toHaveBeenCalledTimes(1));
    expect(held.mostInFlight()).toBe(2);
    expect(held.sent.map((fields) => fields.get('title'))).toEqual([
      'Protokoll März',
      'Anlage 1: Haushalt',
      'Bericht.2026',
    ]);
    const batchIds = new Set(held.sent.map((fields) => fields.get('batch_id')));
    expect(batchIds.size).toBe(1);
    const [batchId] = [...batchIds] as string[];
    expect(batchId).toMatch(UUID);
    for (const fields of held.sent) {
      expect(fields.getAll('permissions')).toEqual(['3']);
      expect(fields.getAll('notifications')).toEqual(['3']);
      expect(fields.get('folder_id')).toBe('10');
    }
    expect(completions).toEqual([batchId]);
    expect(screen.getAllByText(UPLOAD_BATCH_MESSAGES.succeeded)).toHaveLength(3);
    expect(onBatchUploaded.mock.calls[0]![0].map((file: StoredFile) => file.title)).toHaveLength(3);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('checks every title with the contract rule before sending anything', async () => {
    const held = holdUploads();
    const { user, choose } = renderBatchForm();
    await choose([pdf('ab.pdf'), pdf('Satzung.pdf')]);
    await user.click(screen.getByRole('button', { name: UPLOAD_BATCH_MESSAGES.submit(2) }));
    expect(await screen.findByText('Titel muss mindestens 3 Zeichen lang sein.')).toBeInTheDocument();
    expect(held.sent).toHaveLength(0);
  });

  it('shows each failure in its row and retries only the failed ones, in the same batch', async () => {
    const held = holdUploads();
    const { user, choose, onBatchUploaded } = renderBatchForm();
    await choose([pdf('Einladung.pdf'), pdf('Tagesordnung.pdf'), pdf('Haushalt.pdf')]);
    await user.click(screen.getByRole('button', { name: UPLOAD_BATCH_MESSAGES.submit(3) }));
    await answerAll(held, 3, (i) => (i === 1 ? 422 : 201));

    expect(await screen.findByText('Der Titel ist schon vergeben.')).toBeInTheDocument();
    expect(screen.getAllByText(UPLOAD_BATCH_MESSAGES.succeeded)).toHaveLength(2);
    expect(screen.getByRole('alert')).toHaveTextContent(UPLOAD_BATCH_MESSAGES.someFailed(1, 3));
    expect(completions).toEqual([]);
    expect(onBatchUploaded).not.toHaveBeenCalled();

    const failed = screen.getByRole('textbox', { name: /^Titel von Tagesordnung\.pdf/ });
    await user.clear(failed);
    await user.type(failed, 'Tagesordnung Dezember');
    await user.click(screen.getByRole('button', { name: UPLOAD_BATCH_MESSAGES.retry(1) }));
    await answerAll(held, 1, () => 201);
    await waitFor(() => expect(onBatchUploaded).toHaveBeenCalledTimes(1));
    expect(held.sent).toHaveLength(4);
    expect(held.sent[3]!.get('title')).toBe('Tagesordnung Dezember');
    expect(new Set(held.sent.map((fields) => fields.get('batch_id'))).size).toBe(1);
    expect(completions).toHaveLength(1);
    expect(onBatchUploaded.mock.calls[0]![0]).toHaveLength(3);
  });

  it('completes the batch without the failed ones when asked, with the general text for a server error', async () => {
    const held = holdUploads();
    const { user, choose, onBatchUploaded } = renderBatchForm();
    await choose([pdf('Einladung.pdf'), pdf('Beschluss.pdf')]);
    await user.click(screen.getByRole('button', { name: UPLOAD_BATCH_MESSAGES.submit(2) }));
    await answerAll(held, 2, (i) => (i === 0 ? 500 : 201));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(UPLOAD_BATCH_MESSAGES.someFailed(1, 2));
    expect(screen.getByText(FILE_MESSAGES.createFailed)).toBeInTheDocument();
    expect(screen.queryByText('Interner Fehler')).not.toBeInTheDocument();
    await user.click(within(alert).getByRole('button', { name: UPLOAD_BATCH_MESSAGES.finishWithout }));
    await waitFor(() => expect(onBatchUploaded).toHaveBeenCalledTimes(1));
    expect(completions).toHaveLength(1);
    expect(onBatchUploaded.mock.calls[0]![0].map((file: StoredFile) => file.title)).toEqual(['Beschluss']);
  });

  it('goes back to the single form when files are removed down to one', async () => {
    const { user, choose } = renderBatchForm();
    await choose([pdf('Einladung.pdf'), pdf('Beschluss.pdf')]);
    expect(screen.getByText(UPLOAD_BATCH_MESSAGES.listLabel)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: UPLOAD_BATCH_MESSAGES.remove('Beschluss.pdf') }));
    expect(screen.getByRole('textbox', { name: /^Titel( \*)?$/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Hochladen' })).toBeInTheDocument();
    expect(screen.getByText(/Einladung\.pdf/)).toBeInTheDocument();
  });
});
