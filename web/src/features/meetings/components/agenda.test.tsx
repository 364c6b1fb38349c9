import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { json, mockApi } from '../../../testing/fetch-mock';
import { adminUser, signIn, vertreterUser } from '../../../testing/factories';
import { renderApp } from '../../../testing/render';
import { makeAgenda } from './agenda-fixtures';
import { makeMeeting } from './meeting-fixtures';

beforeEach(() => {
  URL.createObjectURL = vi.fn(() => 'blob:test');
  URL.revokeObjectURL = vi.fn();
});

const agendaSection = () => screen.findByRole('region', { name: 'Tagesordnung' });
const entries = (section: HTMLElement) => within(section).getAllByRole('heading', { level: 3 });

describe('Tagesordnung on the event page', () => {
  it('shows members the numbered items with presenter, description and the documents they may see', async () => {
    signIn(vertreterUser());
    mockApi({
      'GET /api/v1/events/5': json(200, { data: makeMeeting({ agenda_count: 5 }) }),
      'GET /api/v1/events/5/agenda': json(200, { data: makeAgenda() }),
    });
    renderApp('/events/show/5');
    const section = await agendaSection();
    await within(section).findByText('5 Punkte · 3 Dokumente');
    expect(entries(section).map((heading) => heading.textContent)).toEqual([
      '1 Begrüßung',
      '2 Jahresabschluss 2025',
      '3 Verschiedenes',
    ]);
    expect(
      within(section)
        .getAllByRole('heading', { level: 4 })
        .map((heading) => heading.textContent),
    ).toEqual(['2.1 Bericht der Kassenprüfung', '2.2 Verwendung des Bilanzgewinns']);
    expect(section).toHaveTextContent('Vortragende Person: Dr. Maria Vorsitz');
    expect(within(section).getByText(/Vorlage und Aussprache\.\s+Beschluss\./)).toBeInTheDocument();

    const documents = within(section).getByRole('list', { name: 'Dokumente zu 2' });
    const rows = within(documents).getAllByRole('listitem');
    // The server left out what the member may not see: nothing hints at it.
    expect(rows).toHaveLength(1);
    expect(rows[0]).toHaveTextContent('Bilanz 2025.pdf');
    expect(rows[0]).toHaveTextContent('PDF-Dokument · 1,25 MB');
    expect(rows[0]!.querySelector('svg[data-format="pdf"]')).not.toBeNull();
    expect(within(section).getByText('Kassenbericht.docx')).toBeInTheDocument();
    expect(section).toHaveTextContent('Word-Dokument · 2 KB');
    expect(section).not.toHaveTextContent('nicht sichtbar');
    expect(within(section).queryByRole('link', { name: /Tagesordnung/ })).not.toBeInTheDocument();
  });

  it('opens and saves a document as the file dialog does: with the bearer header, saved as title.format', async () => {
    signIn(vertreterUser(), 'member-token');
    const file = makeAgenda()[1]!.files[0]!;
    const { requests } = mockApi({
      'GET /api/v1/events/5': json(200, { data: makeMeeting({ agenda_count: 5 }) }),
      'GET /api/v1/events/5/agenda': json(200, { data: makeAgenda() }),
      [`GET /api/v1/download/${file.external}`]: new Response('%PDF-1.7', {
        headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': 'inline; filename="x.pdf"' },
      }),
    });
    const open = vi.spyOn(window, 'open').mockReturnValue({ opener: {} } as Window);
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const { user } = renderApp('/events/show/5');
    const section = await agendaSection();

    await user.click(await within(section).findByRole('button', { name: '„Bilanz 2025.pdf“ ansehen' }));
    await waitFor(() => expect(open).toHaveBeenCalledWith('blob:test', '_blank'));
    await user.click(within(section).getByRole('button', { name: '„Bilanz 2025.pdf“ herunterladen' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('Bilanz 2025.pdf');
    const downloads = requests.filter((r) => r.url.startsWith('/api/v1/download/'));
    expect(downloads.map((r) => r.url)).toEqual([
      `/api/v1/download/${file.external}?purpose=view`,
      `/api/v1/download/${file.external}`,
    ]);
    expect(downloads.every((r) => r.headers.get('Authorization') === 'Bearer member-token')).toBe(true);
  });

  it('is not there for members, and not asked for, while the event has no agenda', async () => {
    signIn(vertreterUser());
    const { requests } = mockApi({ 'GET /api/v1/events/5': json(200, { data: makeMeeting() }) });
    renderApp('/events/show/5');
    await screen.findByRole('region', { name: 'Ihre Antwort' });
    expect(screen.queryByRole('region', { name: 'Tagesordnung' })).not.toBeInTheDocument();
    expect(requests.some((r) => r.url.endsWith('/agenda'))).toBe(false);
  });

  it('offers admins "Tagesordnung anlegen" while there is none', async () => {
    signIn(adminUser());
    mockApi({ 'GET /api/v1/events/5': json(200, { data: makeMeeting() }) });
    renderApp('/events/show/5');
    const section = await agendaSection();
    expect(within(section).getByText(/Noch keine Tagesordnung/)).toBeInTheDocument();
    expect(within(section).getByRole('link', { name: 'Tagesordnung anlegen' })).toHaveAttribute(
      'href',
      '/events/agenda/5',
    );
  });

  it('tells admins which roles miss a document, and leads to the editor', async () => {
    signIn(adminUser());
    mockApi({
      'GET /api/v1/events/5': json(200, { data: makeMeeting({ agenda_count: 5 }) }),
      'GET /api/v1/events/5/agenda': json(200, { data: makeAgenda({ admin: true }) }),
    });
    renderApp('/events/show/5');
    const section = await agendaSection();
    await within(section).findByText('5 Punkte · 4 Dokumente · noch nicht an die Mitglieder gesendet');
    const row = within(section).getByText('Bericht des Aufsichtsrats.pdf').closest('li')!;
    expect(row).toHaveTextContent('Für die Rolle Vertreter nicht sichtbar');
    expect(within(section).getAllByText(/nicht sichtbar/)).toHaveLength(1);
    expect(within(section).getByRole('link', { name: 'Tagesordnung bearbeiten' })).toHaveAttribute(
      'href',
      '/events/agenda/5',
    );
  });

  it('says so when the agenda cannot be loaded, with another try', async () => {
    signIn(vertreterUser());
    let calls = 0;
    mockApi({
      'GET /api/v1/events/5': json(200, { data: makeMeeting({ agenda_count: 5 }) }),
      'GET /api/v1/events/5/agenda': () =>
        (calls += 1) === 1 ? json(500, { message: 'Fehler' }) : json(200, { data: makeAgenda() }),
    });
    const { user } = renderApp('/events/show/5');
    const section = await agendaSection();
    expect(await within(section).findByText('Daten konnten nicht geladen werden')).toBeInTheDocument();
    await user.click(within(section).getByRole('button', { name: 'Erneut versuchen' }));
    expect(await within(section).findByText('5 Punkte · 3 Dokumente')).toBeInTheDocument();
  });
});
