import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DAY, HOUR } from '../../../src/clock.ts';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { recordAudit } from '../../../src/features/audit/audit-log.service.ts';
import { runAuditRetention, shortenAddress } from '../../../src/features/audit/audit-retention.ts';

describe('shortenAddress', () => {
  it.each([
    ['203.0.113.7', '203.0.113.0'],
    ['203.0.113.255', '203.0.113.0'],
    ['10.0.0.0', '10.0.0.0'],
    ['203.0.113.0', '203.0.113.0'],
    ['::ffff:203.0.113.7', '203.0.113.0'],
    ['::FFFF:198.51.100.23', '198.51.100.0'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1::/48'],
    ['2001:0db8:00ab:ffff::1', '2001:db8:ab::/48'],
    ['2001:db8::1', '2001:db8::/48'],
    ['2001:0:5::1', '2001:0:5::/48'],
    ['2001:db8:1:2::', '2001:db8:1::/48'],
    ['2001:DB8:1::abcd', '2001:db8:1::/48'],
    ['fe80::1%eth0', 'fe80::/48'],
    ['::1', '::/48'],
    ['::', '::/48'],
    ['64:ff9b::192.0.2.33', '64:ff9b::/48'],
    ['1:2:3:4:5:6:1.2.3.4', '1:2:3::/48'],
    ['2001:db8:1::/48', '2001:db8:1::/48'],
    ['unbekannt', null],
    ['', null],
    ['300.1.2.3', null],
    ['2001:db8::1::2', null],
  ])('%s → %s', (input, expected) => {
    expect(shortenAddress(input)).toBe(expected);
  });

  it('is idempotent', () => {
    for (const ip of ['203.0.113.7', '2001:db8:abcd:12:1::9', '::1', '::ffff:192.0.2.1']) {
      const once = shortenAddress(ip)!;
      expect(shortenAddress(once)).toBe(once);
    }
  });
});

describe('runAuditRetention', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await buildTestApp();
  });
  afterEach(() => t.close());

  async function entry(ageMs: number, ip: string | null, action = 'auth.login') {
    const at = new Date(t.clock.now().getTime() - ageMs);
    await recordAudit(t.db.kysely, { now: () => at }, { action, objectLabel: `${ageMs}`, ip });
  }
  const rows = () =>
    t.db.kysely.selectFrom('audit_log').select(['object_label', 'ip']).orderBy('id').execute();

  it('purges entries older than 365 days and shortens addresses older than 30 days', async () => {
    await entry(400 * DAY, '203.0.113.1');
    await entry(365 * DAY + 1, '203.0.113.2');
    await entry(365 * DAY - HOUR, '203.0.113.3');
    await entry(31 * DAY, '2001:db8:1:2::5');
    await entry(30 * DAY + 1, '::ffff:198.51.100.4');
    await entry(30 * DAY + 2, 'kaputt');
    await entry(30 * DAY + 3, null);
    await entry(30 * DAY - 1, '203.0.113.5');
    await entry(0, '2001:db8:1:2::6');

    const result = await runAuditRetention(t.app.context);
    expect(result).toEqual({ deleted: 2, shortened: 4 });
    expect(await rows()).toEqual([
      { object_label: `${365 * DAY - HOUR}`, ip: '203.0.113.0' },
      { object_label: `${31 * DAY}`, ip: '2001:db8:1::/48' },
      { object_label: `${30 * DAY + 1}`, ip: '198.51.100.0' },
      { object_label: `${30 * DAY + 2}`, ip: null },
      { object_label: `${30 * DAY + 3}`, ip: null },
      { object_label: `${30 * DAY - 1}`, ip: '203.0.113.5' },
      { object_label: '0', ip: '2001:db8:1:2::6' },
    ]);

    // A second run finds nothing left to do.
    expect(await runAuditRetention(t.app.context)).toEqual({ deleted: 0, shortened: 0 });
  });

  it('follows the clock: an entry is shortened after 30 days and purged after the retention', async () => {
    await entry(0, '192.0.2.77');
    t.clock.advance(29 * DAY);
    expect(await runAuditRetention(t.app.context)).toEqual({ deleted: 0, shortened: 0 });
    expect((await rows())[0]!.ip).toBe('192.0.2.77');
    t.clock.advance(1 * DAY + 1);
    expect(await runAuditRetention(t.app.context)).toEqual({ deleted: 0, shortened: 1 });
    expect((await rows())[0]!.ip).toBe('192.0.2.0');
    t.clock.advance(335 * DAY);
    expect(await runAuditRetention(t.app.context)).toEqual({ deleted: 1, shortened: 0 });
    expect(await rows()).toEqual([]);
  });

  it('shortens many addresses in batches', async () => {
    const at = new Date(t.clock.now().getTime() - 40 * DAY).toISOString();
    const values = Array.from({ length: 1234 }, (_, i) => ({
      at,
      actor_id: null,
      actor_label: null,
      action: 'file.viewed',
      object_type: null,
      object_id: null,
      object_label: null,
      details: null,
      ip: i % 2 === 0 ? `198.51.${i % 200}.${(i % 250) + 1}` : `2001:db8:${i.toString(16)}:1::${i % 9}`,
    }));
    for (let i = 0; i < values.length; i += 200) {
      await t.db.kysely
        .insertInto('audit_log')
        .values(values.slice(i, i + 200))
        .execute();
    }
    expect(await runAuditRetention(t.app.context)).toEqual({ deleted: 0, shortened: 1234 });
    const ips = (await rows()).map((row) => row.ip!);
    expect(ips.every((ip) => /^198\.51\.\d+\.0$/.test(ip) || /^2001:db8:[0-9a-f]+::\/48$/.test(ip))).toBe(
      true,
    );
  });
});

describe('runAuditRetention with AUDIT_RETENTION_DAYS', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { AUDIT_RETENTION_DAYS: '90' } });
  });
  afterAll(() => t.close());

  it('keeps entries only as long as configured', async () => {
    const old = new Date(t.clock.now().getTime() - 91 * DAY);
    const young = new Date(t.clock.now().getTime() - 89 * DAY);
    await recordAudit(t.db.kysely, { now: () => old }, { action: 'auth.logout', ip: '203.0.113.9' });
    await recordAudit(t.db.kysely, { now: () => young }, { action: 'auth.login', ip: '203.0.113.9' });
    expect(await runAuditRetention(t.app.context)).toEqual({ deleted: 1, shortened: 1 });
    const left = await t.db.kysely.selectFrom('audit_log').select(['action', 'ip']).execute();
    expect(left).toEqual([{ action: 'auth.login', ip: '203.0.113.0' }]);
  });
});
