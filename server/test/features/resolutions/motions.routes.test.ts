import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOTION_MESSAGES } from '@gremienportal/contracts/resolutions';
import type { Committee } from '@gremienportal/contracts/committees';
import { HOUR } from '../../../src/clock.ts';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createRoleUsers, createUser, sessionFor, type TestUser } from '../../support/factories.ts';
import { createTotpUser, freshCode, type TotpUser } from '../../support/two-factor.fixtures.ts';
import { readPdf } from '../../support/pdf-reader.ts';
import { createMeeting, fetchBook, putAgenda } from '../../support/book.fixtures.ts';

/**
 * The Beschlüsse over HTTP (decision 190): lists and the pending task, written votes before a
 * meeting's vote opens, what the Vorsitz sees of the delivery, the early close of an
 * Umlaufverfahren, reminders (by hand and 24 hours before the deadline), the Beschlussbuch with its
 * PDF, CSV, follow-up and correction, and 404 for a member of another committee.
 */
describe('Beschlüsse over HTTP', () => {
  let t: TestApp;
  let users: Awaited<ReturnType<typeof createRoleUsers>>;
  let ar: Committee;
  let termId: number;
  let chair: TotpUser;
  let secretary: TestUser;
  const members: TestUser[] = [];
  const call = (
    user: TestUser | null,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
  ) =>
    t.app.inject({
      method,
      url: `/api/v1${url}`,
      ...(user ? { headers: user.headers } : {}),
      ...(payload ? { payload } : {}),
    });
  const ok = async (
    user: TestUser,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
  ) => {
    const res = await call(user, method, url, payload);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res.json();
  };
  const draft = async (title: string, mode = 'offen', extra: object = {}) =>
    (
      await ok(secretary, 'POST', '/motions', {
        committee_id: ar.id,
        title,
        text: `Der Aufsichtsrat beschließt: ${title}.`,
        mode,
        ...extra,
      })
    ).data.id as number;
  let seenMails = 0;
  /** The mails sent since the last call, to whom, with `subject` in the subject. */
  const mailedTo = async (subject: string) => {
    const all = await t.flushMail();
    const fresh = all.slice(seenMails);
    seenMails = all.length;
    return fresh.filter((m) => m.subject.includes(subject)).map((m) => m.to);
  };
  /** After the clock jumps days ahead: fresh sessions, as members would sign in again. */
  const signInAgain = async () => {
    for (const user of [users.admin, users.vertreter, chair, secretary, ...members]) {
      const token = await sessionFor(t, user.id);
      user.token = token;
      user.headers = { authorization: `Bearer ${token}` };
    }
  };

  beforeAll(async () => {
    t = await buildTestApp();
    users = await createRoleUsers(t);
    ar = ((await ok(users.admin, 'GET', '/committees')).data as Committee[]).find(
      (c) => c.kind === 'aufsichtsrat',
    )!;
    termId = (
      await ok(users.admin, 'POST', `/committees/${ar.id}/terms`, { start: '2026-07-01', end: '2030-06-30' })
    ).data.id;
    chair = await createTotpUser(t);
    secretary = await createUser(t, { lastname: 'Schriftführer' });
    for (const name of ['Łucja Wąsowska', 'Şahin Öztürk', 'Bernd Zander']) {
      const [firstname, lastname] = name.split(' ');
      members.push(await createUser(t, { firstname, lastname }));
    }
    const add = (user: TestUser, fn: string) =>
      ok(users.admin, 'POST', `/committees/${ar.id}/members`, {
        term_id: termId,
        user_id: user.id,
        function: fn,
      });
    await add(chair, 'vorsitz');
    await add(secretary, 'schriftfuehrung');
    for (const member of members) await add(member, 'mitglied');
    await mailedTo('');
  });
  afterAll(() => t?.close());

  it('hides motions and resolutions of the Aufsichtsrat from a Vertreter (404) and lists them for members', async () => {
    const id = await draft('Jahresabschluss 2026 feststellen');
    for (const url of [`/motions/${id}`]) {
      const res = await call(users.vertreter, 'GET', url);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('Nicht gefunden.');
    }
    const vote = await call(users.vertreter, 'POST', `/motions/${id}/votes`, { choice: 'ja' });
    expect(vote.statusCode).toBe(404);
    expect((await ok(users.vertreter, 'GET', '/motions')).data).toEqual([]);
    const listed = (await ok(members[0]!, 'GET', `/motions?committee_id=${ar.id}`)).data as { id: number }[];
    expect(listed.map((m) => m.id)).toContain(id);
    const mine = (await ok(members[0]!, 'GET', `/motions/${id}`)).data;
    expect(mine.may).toEqual({ manage: false, edit: false, establish: false });
    expect(mine.electorate).toBeNull();
    expect((await ok(chair, 'GET', `/motions/${id}`)).data.may).toEqual({
      manage: true,
      edit: true,
      establish: true,
    });
    expect((await call(null, 'GET', `/motions/${id}`)).statusCode).toBe(401);
  });

  it('counts a written vote handed in before a meeting’s vote opens, and refuses it elsewhere', async () => {
    const event = await ok(users.admin, 'POST', '/events', {
      title: 'Sitzung des Aufsichtsrats',
      roles: ['Aufsichtsrat'],
      start: '2026-12-10T16:00',
      end: '2026-12-10T18:00',
      location: 'Sitzungssaal',
      description: 'Ordentliche Sitzung.',
    });
    const eventId = event.event.id as number;
    const standalone = await draft('Ohne Sitzung');
    const refused = await call(members[0]!, 'POST', `/motions/${standalone}/votes`, { choice: 'ja' });
    expect([refused.statusCode, refused.json().message]).toEqual([409, MOTION_MESSAGES.writtenOnlyMeeting]);
    const id = await draft('Vergabe des Prüfauftrags', 'namentlich', { event_id: eventId });
    const written = await ok(members[0]!, 'POST', `/motions/${id}/votes`, { choice: 'nein' });
    expect(written.message).toBe(MOTION_MESSAGES.writtenVoted);
    expect(written.data.own).toMatchObject({ choice: 'nein', voted: false });
    const outsider = await call(users.vertreter, 'POST', `/motions/${id}/votes`, { choice: 'ja' });
    expect(outsider.statusCode).toBe(404);
    await ok(chair, 'POST', `/motions/${id}/open`, { procedure: 'sitzung' });
    const seen = (await ok(members[0]!, 'GET', `/motions/${id}`)).data;
    expect(seen.own).toMatchObject({ elector: true, voted: true, choice: 'nein' });
    await ok(members[1]!, 'POST', `/motions/${id}/votes`, { choice: 'ja' });
    await ok(chair, 'POST', `/motions/${id}/hand-count`, { ja: 2, nein: 0, enthaltung: 0 });
    const closed = (await ok(chair, 'POST', `/motions/${id}/close`)).data;
    expect(closed.counts).toEqual({ ja: 3, nein: 1, enthaltung: 0 });
    expect(closed.names.map((n: { name: string }) => n.name)).toEqual(['Łucja Wąsowska', 'Şahin Öztürk']);
    const secret = await draft('Geheime Wahl', 'geheim', { event_id: eventId });
    const noWritten = await call(members[0]!, 'POST', `/motions/${secret}/votes`, { choice: 'ja' });
    expect([noWritten.statusCode, noWritten.json().message]).toEqual([409, MOTION_MESSAGES.writtenNotSecret]);
  });

  it('runs an Umlaufverfahren: pending task, delivery for the Vorsitz, reminders once a day, no early close', async () => {
    const id = await draft('Zustimmung zum Grundstückskauf');
    const deadline = new Date(t.clock.now().getTime() + 7 * 24 * HOUR).toISOString();
    await ok(chair, 'POST', `/motions/${id}/open`, { procedure: 'umlauf', deadline });
    expect((await mailedTo('Abstimmung im Umlaufverfahren')).length).toBe(5);

    const pending = (await ok(members[0]!, 'GET', '/motions?pending=1')).data as { id: number }[];
    expect(pending.map((m) => m.id)).toContain(id);
    await ok(members[0]!, 'GET', `/motions/${id}`);
    const vote = await ok(members[0]!, 'POST', `/motions/${id}/votes`, { choice: 'ja' });
    expect(vote.message).toBe(MOTION_MESSAGES.voted);
    expect(
      ((await ok(members[0]!, 'GET', '/motions?pending=1')).data as { id: number }[]).map((m) => m.id),
    ).not.toContain(id);

    const delivery = (await ok(chair, 'GET', `/motions/${id}`)).data.electorate as {
      user_id: number;
      mailed_at: string | null;
      first_opened_at: string | null;
      voted: boolean;
    }[];
    expect(delivery).toHaveLength(5);
    expect(delivery.every((e) => e.mailed_at !== null)).toBe(true);
    const first = delivery.find((e) => e.user_id === members[0]!.id)!;
    expect(first).toMatchObject({ voted: true });
    expect(first.first_opened_at).not.toBeNull();
    expect(delivery.find((e) => e.user_id === members[1]!.id)!.first_opened_at).toBeNull();

    const early = await call(chair, 'POST', `/motions/${id}/close`);
    expect([early.statusCode, early.json().message]).toEqual([409, MOTION_MESSAGES.umlaufNotComplete]);
    const memberRemind = await call(members[1]!, 'POST', `/motions/${id}/reminders`);
    expect(memberRemind.statusCode).toBe(403);

    const reminded = await ok(chair, 'POST', `/motions/${id}/reminders`);
    expect(reminded.message).toBe('4 Mitglieder wurden erinnert.');
    expect((await mailedTo('Erinnerung')).length).toBe(4);
    expect((await ok(chair, 'POST', `/motions/${id}/reminders`)).message).toMatch(/^Niemand war zu erinnern/);

    // 24 hours before the deadline the job reminds once more, once, whatever the instances.
    t.clock.advance(6 * 24 * HOUR + HOUR);
    await signInAgain();
    const runs = await Promise.all([t.app.votes.run(), t.app.votes.run()]);
    expect(runs[0]).toEqual(runs[1]);
    expect((await mailedTo('Erinnerung')).length).toBe(4);
    await t.app.votes.run();
    expect(await mailedTo('Erinnerung')).toEqual([]);

    for (const voter of [chair, secretary, ...members.slice(1)]) {
      await ok(voter, 'POST', `/motions/${id}/votes`, { choice: 'ja' });
    }
    const closed = (await ok(chair, 'POST', `/motions/${id}/close`)).data;
    expect(closed).toMatchObject({ state: 'geschlossen', counts: { ja: 5, nein: 0, enthaltung: 0 } });
  });

  it('keeps the Beschlussbuch: establish with TOTP, PDF and CSV, follow-up with its reminder, correction', async () => {
    const id = await draft('Wirtschaftsplan 2027');
    await ok(chair, 'POST', `/motions/${id}/open`, { procedure: 'sitzung' });
    for (const voter of [chair, secretary, ...members])
      await ok(voter, 'POST', `/motions/${id}/votes`, { choice: 'ja' });
    await ok(chair, 'POST', `/motions/${id}/close`);
    const adminTry = await call(users.admin, 'POST', `/motions/${id}/establish`, { code: '123456' });
    expect(adminTry.statusCode).toBe(403);
    const bad = await call(chair, 'POST', `/motions/${id}/establish`, { code: 'abc' });
    expect(bad.statusCode).toBe(422);
    const established = (
      await ok(chair, 'POST', `/motions/${id}/establish`, { code: await freshCode(t, chair.secret) })
    ).data;
    expect(established).toMatchObject({ result: 'angenommen', follow_up: null, files: [] });
    expect(established.number).toMatch(/^AR 2026\/\d{2}$/);
    expect((await mailedTo(established.number)).length).toBe(5);

    expect((await call(users.vertreter, 'GET', `/resolutions/${established.id}`)).statusCode).toBe(404);
    expect((await ok(users.vertreter, 'GET', '/resolutions')).data).toEqual([]);
    const list = (await ok(members[0]!, 'GET', `/resolutions?committee_id=${ar.id}&q=wirtschaftsplan`)).data;
    expect(list.map((r: { number: string }) => r.number)).toEqual([established.number]);

    const pdf = await call(members[0]!, 'GET', `/resolutions.pdf?committee_id=${ar.id}`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['cache-control']).toBe('private, no-store');
    const text = (await readPdf(pdf.rawPayload)).pages.join('\n');
    expect(text).toContain(established.number);
    expect(text).toContain(established.hash.slice(0, 16));
    expect(text).toContain('Łucja Wąsowska');
    const csv = await call(members[0]!, 'GET', '/resolutions.csv');
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.body).toContain(established.number);

    const memberEdit = await call(members[0]!, 'PUT', `/resolutions/${established.id}/follow-up`, {
      responsible_id: members[1]!.id,
      due_on: '2027-01-15',
      status: 'offen',
      note: '',
    });
    expect(memberEdit.statusCode).toBe(403);
    const badDay = await call(secretary, 'PUT', `/resolutions/${established.id}/follow-up`, {
      responsible_id: members[1]!.id,
      due_on: '2027-02-30',
      status: 'offen',
      note: '',
    });
    expect(badDay.statusCode).toBe(422);
    const followed = (
      await ok(secretary, 'PUT', `/resolutions/${established.id}/follow-up`, {
        responsible_id: members[1]!.id,
        due_on: '2027-01-15',
        status: 'offen',
        note: 'Angebote einholen',
      })
    ).data;
    expect(followed.follow_up).toMatchObject({
      status: 'offen',
      overdue: false,
      responsible: { id: members[1]!.id },
    });
    expect((await ok(users.admin, 'GET', '/resolutions?overdue=1')).data).toEqual([]);

    t.clock.set(new Date('2027-01-20T09:00:00.000Z'));
    await signInAgain();
    expect(
      (await ok(users.admin, 'GET', '/resolutions?overdue=1')).data.map((r: { id: number }) => r.id),
    ).toEqual([established.id]);
    await Promise.all([t.app.votes.run(), t.app.votes.run()]);
    expect(await mailedTo('Umsetzung überfällig')).toEqual([members[1]!.email]);
    await t.app.votes.run();
    expect(await mailedTo('Umsetzung überfällig')).toEqual([]);

    const corrected = await call(chair, 'POST', `/resolutions/${established.id}/correction`, {
      text: 'Der Aufsichtsrat beschließt den Wirtschaftsplan 2027 in der Fassung vom 1. Dezember.',
      reason: 'Fassung ergänzt',
    });
    expect(corrected.statusCode, corrected.body).toBe(201);
    expect(corrected.json().data.title).toBe(`Berichtigung zu ${established.number}`);
    expect(corrected.json().data.corrects).toEqual({ id: established.id, number: established.number });
    const again = (await ok(members[0]!, 'GET', `/resolutions/${established.id}`)).data;
    expect(again.hash).toBe(established.hash);
    expect(again.text).toBe(established.text);
  });

  it('announces the Umlaufbeschlüsse since the last meeting and prints motion texts in the Sitzungsmappe', async () => {
    const id = await draft('Spende an den Förderverein');
    const deadline = new Date(t.clock.now().getTime() + 2 * 24 * HOUR).toISOString();
    await ok(chair, 'POST', `/motions/${id}/open`, { procedure: 'umlauf', deadline });
    for (const voter of [chair, secretary, ...members])
      await ok(voter, 'POST', `/motions/${id}/votes`, { choice: 'ja' });
    await ok(chair, 'POST', `/motions/${id}/close`);
    const umlauf = (
      await ok(chair, 'POST', `/motions/${id}/establish`, { code: await freshCode(t, chair.secret) })
    ).data;
    expect(umlauf.procedure).toBe('umlauf');

    await createMeeting(t, users.admin, {
      roles: ['Aufsichtsrat'],
      start: '2027-01-05T18:00',
      end: '2027-01-05T20:00',
    });
    const meeting = await createMeeting(t, users.admin, { roles: ['Aufsichtsrat', 'Vertreter'] });
    const announcement = (await ok(users.admin, 'GET', `/events/${meeting}/agenda/circular-announcement`))
      .data;
    expect(announcement.title).toBe('Bekanntgabe der Umlaufbeschlüsse seit der letzten Sitzung');
    expect(announcement.resolutions.map((r: { number: string }) => r.number)).toEqual([umlauf.number]);
    expect(announcement.description).toContain('seit der Sitzung vom 05.01.2027');
    expect(announcement.description).toContain(`${umlauf.number} – Spende an den Förderverein: Angenommen`);
    expect(
      (await call(members[0]!, 'GET', `/events/${meeting}/agenda/circular-announcement`)).statusCode,
    ).toBe(403);

    await putAgenda(t, users.admin, meeting, [
      { title: announcement.title, description: announcement.description },
      { title: 'Jahresabschluss' },
    ]);
    const items = (await ok(users.admin, 'GET', `/events/${meeting}/agenda`)).data as {
      id: number;
      title: string;
    }[];
    const item = items.find((i) => i.title === 'Jahresabschluss')!;
    await draft('Feststellung des Jahresabschlusses', 'offen', { agenda_item_id: item.id });
    const inBook = async (user: TestUser) => {
      const { res, bytes } = await fetchBook(t, user, meeting);
      expect(res.statusCode, res.body).toBe(200);
      return (await readPdf(bytes)).pages.join('\n').replace(/\s+/g, ' ');
    };
    const memberBook = await inBook(members[0]!);
    expect(memberBook).toContain('Beschlussvorlage „Feststellung des Jahresabschlusses“');
    expect(memberBook).toContain('Der Aufsichtsrat beschließt: Feststellung des Jahresabschlusses.');
    expect(memberBook).toContain(umlauf.number);
    const vertreterBook = await inBook(users.vertreter);
    expect(vertreterBook).toContain('Jahresabschluss');
    expect(vertreterBook).not.toContain('Beschlussvorlage');
  });
});
