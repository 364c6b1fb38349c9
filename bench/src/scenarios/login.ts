import autocannon from 'autocannon';
import type { BenchContext } from '../lib/context.ts';
import { load, type LoadResult } from '../lib/load.ts';
import { ms, perSecond, times, type ScenarioResult } from '../lib/report.ts';

const LOGINS = 4;
/** Health probes at a steady rate, as a load balancer or a member's page would send them. */
const PROBE_RATE = 50;

async function probe(ctx: BenchContext): Promise<LoadResult> {
  return load({
    url: `${ctx.portal.url}/api/v1/health`,
    connections: 1,
    seconds: ctx.seconds,
    rate: PROBE_RATE,
  });
}

/** Sign-ins with argon2id at OWASP's parameters, and what they do to everyone else's requests. */
export async function loginScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const idle = await probe(ctx);
  const member = ctx.dataset.members[0]!;
  let logins = 0;
  let failed = 0;
  const instance = autocannon({
    url: `${ctx.portal.url}/api/v1/auth/login`,
    connections: LOGINS,
    duration: ctx.seconds,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: member.email, password: member.password }),
  });
  instance.on('response', (_client: unknown, status: number) => {
    if (status === 200) logins += 1;
    else failed += 1;
  });
  const [busy, result] = await Promise.all([probe(ctx), instance]);
  const rate = logins / result.duration;
  const ratio = busy.p99 / idle.p99;
  return {
    name: 'Anmeldung (argon2id, m = 19 MiB, t = 2, p = 1)',
    setup: `autocannon: ${LOGINS} Verbindungen melden sich ${ctx.seconds} s lang an; gleichzeitig ${PROBE_RATE} Health-Anfragen/s über eine Verbindung. Basislinie: dieselben Health-Anfragen ohne Anmeldungen.`,
    figures: [
      { measure: 'Anmeldungen/s', value: perSecond(rate), goal: '≥ 15/s', met: rate >= 15 },
      {
        measure: 'Health p99 während der Anmeldungen',
        value: ms(busy.p99),
        baseline: ms(idle.p99),
        ratio: times(ratio),
        goal: '≤ 2×',
        met: ratio <= 2,
      },
      { measure: 'Health p50 während der Anmeldungen', value: ms(busy.p50), baseline: ms(idle.p50) },
      {
        measure: 'Fehlgeschlagene Anfragen',
        value: String(failed + busy.failed + result.errors),
        goal: '0',
        met: failed + busy.failed + result.errors === 0,
      },
    ],
  };
}
