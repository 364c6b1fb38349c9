import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, mockApi } from '../../../../testing/fetch-mock';
import { adminUser, signIn } from '../../../../testing/factories';
import { renderApp } from '../../../../testing/render';
import { makeAgenda } from '../agenda-fixtures';
import { makeMeeting } from '../meeting-fixtures';

const ANNOUNCEMENT = {
  title: 'Bekanntgabe der Umlaufbeschlüsse seit der letzten Sitzung',
  description:
    'Aufsichtsrat seit der Sitzung vom 05.01.2027:\n• AR 2026/01 – Spende an den Förderverein: Angenommen',
  resolutions: [{ id: 1, number: 'AR 2026/01', title: 'Spende an den Förderverein', result: 'angenommen' }],
};

describe('the agenda editor’s Bekanntgabe der Umlaufbeschlüsse', () => {
  it('appends the item the server lists with one click, and saves it with the agenda', async () => {
    signIn(adminUser());
    const { requests } = mockApi({
      'GET /api/v1/events/5': json(200, { data: makeMeeting({ agenda_count: 5 }) }),
      'GET /api/v1/events/5/agenda': json(200, { data: makeAgenda({ admin: true }) }),
      'GET /api/v1/events/5/agenda/circular-announcement': json(200, { data: ANNOUNCEMENT }),
      'PUT /api/v1/events/5/agenda': json(200, { data: makeAgenda({ admin: true }) }),
    });
    const { user } = renderApp('/events/agenda/5');
    await user.click(
      await screen.findByRole('button', { name: 'Bekanntgabe der Umlaufbeschlüsse einfügen' }),
    );
    const item = await screen.findByRole('group', { name: `4 ${ANNOUNCEMENT.title}` });
    expect(within(item).getAllByRole('textbox', { name: /^Beschreibung/ })[0]).toHaveValue(
      ANNOUNCEMENT.description,
    );
    expect(await screen.findByText('Punkt eingefügt mit einem Umlaufbeschluss.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /Speichern/ }));
    await waitFor(() => expect(requests.some((r) => r.method === 'PUT')).toBe(true));
    const body = requests.find((r) => r.method === 'PUT')!.body as {
      items: { title: string; description: string }[];
    };
    expect(body.items.at(-1)).toMatchObject({
      title: ANNOUNCEMENT.title,
      description: ANNOUNCEMENT.description,
    });
  });
});
