import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createUser, type TestUser } from '../../support/factories.ts';

// Folder writes check the tree and then write it; two at the same moment must behave as if one
// came after the other.
const ROUNDS = 25;

describe('concurrent folder changes', () => {
  let t: TestApp;
  let first: TestUser;
  let second: TestUser;

  beforeAll(async () => {
    t = await buildTestApp();
    first = await createUser(t, { roles: ['Admin'] });
    second = await createUser(t, { roles: ['Admin'] });
  });
  afterAll(() => t.close());

  const createFolder = async (title: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/folders',
      headers: first.headers,
      payload: { title },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().folder.id as number;
  };
  const put = (actor: TestUser, id: number, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'PUT', url: `/api/v1/folders/${id}`, headers: actor.headers, payload });

  it(`two folders moved into each other never form a cycle (${ROUNDS} rounds)`, async () => {
    const problems: string[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const x = await createFolder(`Kreis X ${round}`);
      const y = await createFolder(`Kreis Y ${round}`);
      const responses = await Promise.all([
        put(first, x, { title: `Kreis X ${round}`, parent_id: y }),
        put(second, y, { title: `Kreis Y ${round}`, parent_id: x }),
      ]);
      const statuses = responses.map((res) => res.statusCode).sort();
      const rows = await t.db.kysely
        .selectFrom('folders')
        .select(['id', 'parent_id'])
        .where('id', 'in', [x, y])
        .execute();
      const parentOf = new Map(rows.map((row) => [row.id, row.parent_id]));
      const cycle = parentOf.get(x) === y && parentOf.get(y) === x;
      if (cycle || statuses[0] !== 200 || statuses[1] !== 422) {
        problems.push(`Runde ${round}: Status ${statuses.join(', ')}${cycle ? ', Kreis entstanden' : ''}`);
      }
    }
    expect(problems).toEqual([]);
  }, 60_000);

  it(`two folders renamed to the same title at once: one wins, one 422 (${ROUNDS} rounds)`, async () => {
    const problems: string[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const x = await createFolder(`Name X ${round}`);
      const y = await createFolder(`Name Y ${round}`);
      const title = `Gleich ${round}`;
      const responses = await Promise.all([put(first, x, { title }), put(second, y, { title })]);
      const statuses = responses.map((res) => res.statusCode).sort();
      const same = await t.db.kysely.selectFrom('folders').select('id').where('title', '=', title).execute();
      if (same.length !== 1 || statuses[0] !== 200 || statuses[1] !== 422) {
        problems.push(`Runde ${round}: Status ${statuses.join(', ')}, ${same.length} Ordner „${title}“`);
      }
    }
    expect(problems).toEqual([]);
  }, 60_000);
});
