import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { VERSION_MESSAGES, type FileVersion } from '@gremienportal/contracts/versions';
import { json, mockApi } from '../../../testing/fetch-mock';
import { adminUser, signIn, vertreterUser, makeStoredFile } from '../../../testing/factories';
import { onDesktop } from '../../../testing/media';
import { renderApp } from '../../../testing/render';
import { restoreQuestion } from './file-versions';
import { personName } from './version-table';

const FILE = makeStoredFile({
  updated_at: '2026-03-14T10:00:00.000Z',
});

function version(overrides: Partial<FileVersion> & Pick<FileVersion, 'version'>): FileVersion {
  return {
    current: false,
    date: '2026-03-12T10:00:00.000Z',
    stored_by: 'Anna Admin <admin@example.org>',
    replaced_at: '2026-03-14T10:00:00.000Z',
    replaced_by: 'Gesa Schäfer <gs@example.org>',
    restored_from: null,
    format: 'pdf',
    mime_type: 'application/pdf',
    size_bytes: 2048,
    size: 0,
    ...overrides,
  };
}

const TWO_VERSIONS = [
  version({
    version: 2,
    current: true,
    date: '2026-03-14T10:00:00.000Z',
    stored_by: 'Gesa Schäfer <gs@example.org>',
    replaced_at: null,
    replaced_by: null,
    format: 'docx',
    mime_type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    size_bytes: 1_310_720,
  }),
  version({ version: 1 }),
];

async function openFilePage(routes: Parameters<typeof mockApi>[0] = {}) {
  onDesktop();
  signIn(adminUser());
  const api = mockApi({
    'GET /api/v1/files/31': json(200, { data: FILE }),
    'GET /api/v1/files/31/versions': json(200, { data: TWO_VERSIONS }),
    ...routes,
  });
  const app = renderApp('/files/show/31');
  const section = await screen.findByRole('region', { name: 'Versionen' });
  await within(section).findByText('Version 1');
  return { ...app, ...api, section };
}

describe('versions on the file page', () => {
  it('lists every version with who stored and replaced it; only older ones can be restored', async () => {
    const { section } = await openFilePage();
    const rows = within(section).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Version 2');
    expect(rows[0]).toHaveTextContent('aktuell');
    expect(rows[0]).toHaveTextContent('14.03.2026, 11:00');
    expect(rows[0]).toHaveTextContent('von Gesa Schäfer');
    expect(rows[0]).toHaveTextContent('1,25 MB');
    expect(within(rows[0]!).queryByRole('button', { name: /wiederherstellen/ })).not.toBeInTheDocument();
    // Word files are not shown in the browser: no "Ansehen" for them.
    expect(within(rows[0]!).queryByRole('button', { name: /ansehen/ })).not.toBeInTheDocument();
    expect(rows[1]).toHaveTextContent('von Anna Admin');
    expect(rows[1]).toHaveTextContent('2 KB');
    expect(within(rows[1]!).getByRole('button', { name: 'Version 1 ansehen' })).toBeInTheDocument();
    expect(
      within(rows[1]!).getByRole('button', { name: `${VERSION_MESSAGES.restore}: Version 1` }),
    ).toBeInTheDocument();
  });

  it('restores an older version after asking, then shows the new list', async () => {
    const restored = { ...FILE, format: 'pdf', updated_at: '2026-03-15T10:00:00.000Z' };
    let calls = 0;
    const { user, section, requests } = await openFilePage({
      'POST /api/v1/files/31/versions/1/restore': json(200, { file: restored }),
      'GET /api/v1/files/31/versions': () => {
        calls += 1;
        return json(200, {
          data:
            calls === 1
              ? TWO_VERSIONS
              : [
                  version({ version: 3, current: true, replaced_at: null, restored_from: 1 }),
                  ...TWO_VERSIONS.map((entry) => ({ ...entry, current: false })),
                ],
        });
      },
    });

    await user.click(within(section).getByRole('button', { name: `${VERSION_MESSAGES.restore}: Version 1` }));
    const dialog = await screen.findByRole('dialog', { name: 'Version 1 wiederherstellen' });
    expect(dialog).toHaveTextContent(restoreQuestion(1, 2));
    expect(requests.some((r) => r.method === 'POST')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Wiederherstellen' }));

    expect(await screen.findByText(VERSION_MESSAGES.restored)).toBeInTheDocument();
    expect(await within(section).findByText('Version 3')).toBeInTheDocument();
    expect(within(section).getByText('wiederhergestellt aus Version 1')).toBeInTheDocument();
    const post = requests.find((r) => r.method === 'POST');
    expect(post?.url).toBe('/api/v1/files/31/versions/1/restore');
    await waitFor(() => expect(requests.filter((r) => r.url === '/api/v1/files/31').length).toBe(2));
  });

  it('shows the server message when the restore fails', async () => {
    const { user, section } = await openFilePage({
      'POST /api/v1/files/31/versions/1/restore': json(422, { message: VERSION_MESSAGES.alreadyCurrent }),
    });
    await user.click(within(section).getByRole('button', { name: `${VERSION_MESSAGES.restore}: Version 1` }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Wiederherstellen' }),
    );
    expect(await screen.findByText(VERSION_MESSAGES.restoreFailed)).toBeInTheDocument();
    expect(screen.getByText(VERSION_MESSAGES.alreadyCurrent)).toBeInTheDocument();
  });

  it('downloads a version as title.format of that version', async () => {
    const saved: string[] = [];
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:http://localhost/1');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const { user, section, requests } = await openFilePage({
      'GET /api/v1/files/31/versions/2/download': () =>
        new Response('inhalt', { status: 200, headers: { 'Content-Type': 'application/octet-stream' } }),
    });
    await user.click(within(section).getByRole('button', { name: 'Version 2 herunterladen' }));
    await waitFor(() => expect(saved).toEqual(['Protokoll März.docx']));
    const download = requests.find((r) => r.url.startsWith('/api/v1/files/31/versions/2/download'));
    expect(download?.headers.get('Authorization')).toBe('Bearer test-token');
  });

  it('is not there for members', async () => {
    signIn(vertreterUser());
    const { requests } = mockApi({ 'GET /api/v1/files/31': json(200, { data: FILE }) });
    renderApp('/files/show/31');
    await screen.findByRole('heading', { level: 1, name: 'Protokoll März' });
    expect(screen.queryByRole('region', { name: 'Versionen' })).not.toBeInTheDocument();
    expect(requests.some((r) => r.url.includes('/versions'))).toBe(false);
  });
});

describe('version texts', () => {
  it('names the restored and the kept version', () => {
    expect(restoreQuestion(1, 3)).toBe(
      'Der Inhalt von Version 1 wird als neue aktuelle Version gespeichert. Die bisherige aktuelle Version 3 bleibt erhalten.',
    );
    expect(personName('Anna Admin <admin@example.org>')).toBe('Anna Admin');
    expect(personName(null)).toBe('unbekannt');
  });
});
