import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createUser, type TestUser } from '../../support/factories.ts';

// Two Admins change one event at the same moment, repeated: each update is applied whole and
// counted (the calendar SEQUENCE rises once per update, so calendar apps take the last one).
const ROUNDS = 30;

const body = (title: string, roles: string[]) => ({
  title,
  roles,
  start: '2026-07-15T18:00',
  end: '2026-07-15T20:00',
  location: 'Saal 1, Hauptstraße 5',
  description: 'Ordentliche Versammlung mit Tagesordnung.',
});

describe('concurrent updates of one event', () => {
  let t: TestApp;
  let first: TestUser;
  let second: TestUser;

  beforeAll(async () => {
    t = await buildTestApp();
    first = await createUser(t, { roles: ['Admin'] });
    second = await createUser(t, { roles: ['Admin'] });
  });
  afterAll(() => t.close());

  it(`are applied one after the other, never mixed (${ROUNDS} rounds)`, async () => {
    const problems: string[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/v1/events',
        headers: first.headers,
        payload: body(`Sitzung ${round}`, ['Vertreter']),
      });
      expect(created.statusCode, created.body).toBe(201);
      const id = created.json().event.id as number;
      const a = body(`Sitzung ${round} A`, ['Aufsichtsrat']);
      const b = body(`Sitzung ${round} B`, ['Aufsichtsrat', 'Vertreter']);
      const put = (actor: TestUser, payload: ReturnType<typeof body>) =>
        t.app.inject({ method: 'PUT', url: `/api/v1/events/${id}`, headers: actor.headers, payload });
      const responses = await Promise.all([put(first, a), put(second, b)]);
      const statuses = responses.map((res) => res.statusCode);

      const event = await t.db.kysely
        .selectFrom('events')
        .select(['title', 'sequence'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      const roles = (
        await t.db.kysely
          .selectFrom('event_roles')
          .innerJoin('roles', 'roles.id', 'event_roles.role_id')
          .select('roles.name')
          .where('event_roles.event_id', '=', id)
          .execute()
      )
        .map((row) => row.name)
        .sort();
      const winner = [a, b].find((candidate) => candidate.title === event.title);
      const reasons: string[] = [];
      if (statuses.some((status) => status !== 200)) reasons.push(`Status ${statuses.join(', ')}`);
      if (event.sequence !== 2) reasons.push(`SEQUENCE ${event.sequence} statt 2`);
      if (!winner || JSON.stringify([...winner.roles].sort()) !== JSON.stringify(roles)) {
        reasons.push(`Rollen ${roles.join(', ')} passen nicht zu „${event.title}“`);
      }
      if (reasons.length > 0) problems.push(`Runde ${round}: ${reasons.join('; ')}`);
    }
    expect(problems).toEqual([]);
  }, 60_000);
});
