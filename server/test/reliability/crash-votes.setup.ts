import { expect } from 'vitest';
import type { VoteMode } from '@gremienportal/contracts/resolutions';
import { hashToken, newToken } from '../../src/credentials/tokens.ts';
import { totpCode } from '../../src/features/two-factor/totp.ts';
import { ADMIN_EMAIL, ADMIN_PASSWORD, type ApiClient } from './portal-process.ts';
import type { PortalPlace } from './crash-rounds.ts';
import { answerOf, VOTERS, type MotionModel, type Voter } from './crash-votes.model.ts';

/** What crash-votes.test.ts sets up: the committee, its voters, the motions, the Vorsitz's codes. */

/**
 * The committee of the test: a Gremium with a running Amtsperiode, `VOTERS` members (written
 * straight into the tables with a session each, as a sign-in would leave them; the memberships go
 * through the API), and the admin as its Vorsitz with an authenticator app for the Feststellung.
 */
export async function setUpCommittee(place: PortalPlace, admin: ApiClient) {
  const created = await admin.request('POST', '/committees', {
    name: 'Wahlprüfungsausschuss',
    kind: 'ausschuss',
  });
  expect(created.status, await created.clone().text()).toBe(201);
  const { data: committee } = (await created.json()) as { data: { id: number } };
  const year = new Date().getUTCFullYear();
  const termRes = await admin.request('POST', `/committees/${committee.id}/terms`, {
    start: `${year - 1}-01-01`,
    end: `${year + 3}-12-31`,
  });
  expect(termRes.status, await termRes.clone().text()).toBe(201);
  const { data: term } = (await termRes.json()) as { data: { id: number } };

  const db = place.inspect(true);
  const voters: Voter[] = [];
  let adminId: number;
  try {
    const now = new Date().toISOString();
    adminId = (
      await db.kysely
        .selectFrom('users')
        .select('id')
        .where('email', '=', ADMIN_EMAIL)
        .executeTakeFirstOrThrow()
    ).id;
    for (let i = 1; i <= VOTERS; i += 1) {
      const number = String(i).padStart(2, '0');
      const { id } = await db.kysely
        .insertInto('users')
        .values({
          title: i % 2 ? 'Frau' : 'Herr',
          firstname: 'Wahl',
          lastname: `Mitglied ${number}`,
          email: `wahl-${number}@example.org`,
          password_hash: null,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const token = newToken();
      await db.kysely
        .insertInto('sessions')
        .values({ user_id: id, token_hash: hashToken(token), created_at: now, last_seen_at: now })
        .execute();
      voters.push({ userId: id, name: '', token });
    }
  } finally {
    await db.close();
  }
  for (const [userId, fn] of [[adminId, 'vorsitz'], ...voters.map((v) => [v.userId, 'mitglied'])] as const) {
    const res = await admin.request('POST', `/committees/${committee.id}/members`, {
      term_id: term.id,
      user_id: userId,
      function: fn,
    });
    expect(res.status, await res.clone().text()).toBe(201);
  }
  const reader = place.inspect();
  try {
    const seats = await reader.kysely
      .selectFrom('committee_memberships')
      .select(['user_id', 'holder_name', 'state'])
      .where('committee_id', '=', committee.id)
      .execute();
    expect(seats.every((seat) => seat.state === 'active')).toBe(true);
    for (const voter of voters) voter.name = seats.find((seat) => seat.user_id === voter.userId)!.holder_name;
  } finally {
    await reader.close();
  }

  const setup = await admin.request('POST', '/account/two-factor/totp');
  expect(setup.status, await setup.clone().text()).toBe(200);
  const { secret } = (await setup.json()) as { secret: string };
  const confirmed = await admin.request('POST', '/account/two-factor/totp/confirm', {
    code: await totpCode(secret, new Date()),
    current_password: ADMIN_PASSWORD,
  });
  expect(confirmed.status, await confirmed.clone().text()).toBe(200);
  return { committeeId: committee.id, adminId, voters, members: VOTERS + 1 };
}

/**
 * The Vorsitz's recovery codes, one per Feststellung: fresh ones (the earlier stop working) at the
 * start and whenever they are used up.
 */
export function recoveryCodes(chair: ApiClient, signal?: AbortSignal): () => Promise<string> {
  let codes: string[] = [];
  return async () => {
    if (codes.length === 0) {
      const res = await chair.request('POST', '/account/two-factor/recovery-codes', undefined, signal);
      codes = (await answerOf<{ recovery_codes: string[] }>(res, 200, 'Wiederherstellungscodes'))
        .recovery_codes;
    }
    return codes.shift()!;
  };
}

/** A motion of the committee, opened for a vote in the meeting. */
export async function openMotion(
  admin: ApiClient,
  committeeId: number,
  mode: VoteMode,
  title: string,
): Promise<MotionModel> {
  const created = await admin.request('POST', '/motions', {
    committee_id: committeeId,
    title,
    text: `Der Wahlprüfungsausschuss beschließt: ${title}.`,
    mode,
  });
  expect(created.status, await created.clone().text()).toBe(201);
  const { data } = (await created.json()) as { data: { id: number } };
  const opened = await admin.request('POST', `/motions/${data.id}/open`, { procedure: 'sitzung' });
  expect(opened.status, await opened.clone().text()).toBe(200);
  expect(((await opened.json()) as { data: { state: string } }).data.state).toBe('abstimmung');
  return { id: data.id, mode, casts: new Map(), closed: false, establishing: false };
}
