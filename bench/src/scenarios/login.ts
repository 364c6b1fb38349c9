import autocannon from 'autocannon';
import type { BenchContext } from '../lib/context.ts';
import {
  compareSides,
  percentileOver,
  percentileRatio,
  ratioFigure,
  seriesFigure,
  spreadText,
  valuesOf,
} from '../lib/compare.ts';
import type { LoadResult } from '../lib/load.ts';
import { probeInOwnProcess } from '../lib/probe-process.ts';
import { pinning } from '../lib/pinning.ts';
import { ms, perSecond, times, type ScenarioResult } from '../lib/report.ts';

const LOGINS = 4;
/**
 * Health probes at a steady rate, as a load balancer or a member's page would send them: 200/s
 * give 2,000 answers per round and side, so that twenty, not five, make up the p99.
 */
const PROBE_RATE = 200;
/** Decision 165: health p99 during the storm at most twice idle, at least 15 sign-ins/s. */
const GOALS = { ratio: 2, logins: 15 };
/**
 * The storm the goal is measured with offers twice the goal's sign-ins per second. The flood
 * offers as many as four connections can send (about 100/s on two cores) and is reported beside
 * it without a goal: there the load generator, the probes, argon2 and the event loop share two
 * cores, and the figure tells more about that than about the portal (decision 139, session 14).
 */
const STORM_RATE = 2 * GOALS.logins;

interface Side {
  probe: LoadResult;
  logins: number;
  /** 429 from a full password-check queue or a limit: refused, not failed. */
  refused: number;
  failed: number;
  seconds: number;
}

/**
 * Sign-ins with argon2id at OWASP's parameters, and what they do to everyone else's requests: in
 * alternating rounds health probes alone, and the same probes while a storm of sign-ins runs.
 */
export async function loginScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const seconds = ctx.quick ? 2 : 10;
  // A storm is many members signing in, as before a meeting: one after another in turn, so that
  // no member collects thousands of sessions, which no real member has.
  const members = ctx.dataset.members;
  let next = 0;
  const probe = async () =>
    (await probeInOwnProcess({ url: `${ctx.portal.url}/api/v1/health`, seconds, rate: PROBE_RATE })).start();
  const idle = async (): Promise<Side> => ({
    probe: await probe(),
    logins: 0,
    refused: 0,
    failed: 0,
    seconds,
  });
  const storm = (rate?: number) => async (): Promise<Side> => {
    let logins = 0;
    let refused = 0;
    let failed = 0;
    // Loaded before the storm starts, so that both run for the whole round.
    const probes = await probeInOwnProcess({
      url: `${ctx.portal.url}/api/v1/health`,
      seconds,
      rate: PROBE_RATE,
    });
    const instance = autocannon({
      url: ctx.portal.url,
      connections: LOGINS,
      duration: seconds,
      ...(rate ? { overallRate: rate } : {}),
      requests: [
        {
          method: 'POST',
          path: '/api/v1/auth/login',
          headers: { 'content-type': 'application/json' },
          setupRequest: (request) => {
            const member = members[next++ % members.length]!;
            return { ...request, body: JSON.stringify({ email: member.email, password: member.password }) };
          },
        },
      ],
    });
    instance.on('response', (_client: unknown, status: number) => {
      if (status === 200) logins += 1;
      else if (status === 429) refused += 1;
      else failed += 1;
    });
    const [busy, result] = await Promise.all([probes.start(), instance]);
    return {
      probe: busy,
      logins,
      refused,
      failed: failed + result.errors + result.timeouts,
      seconds: result.duration,
    };
  };
  const series = await compareSides({
    label: 'Anmeldung',
    rounds: ctx.rounds,
    sides: { idle, storm: storm(STORM_RATE), flood: storm() },
    ratios: {
      p99: percentileRatio<Record<'idle' | 'storm' | 'flood', Side>>(
        99,
        (r) => r.storm.probe,
        (r) => r.idle.probe,
      ),
      flood: percentileRatio<Record<'idle' | 'storm' | 'flood', Side>>(
        99,
        (r) => r.flood.probe,
        (r) => r.idle.probe,
      ),
    },
    // The flood has no goal: its spread does not make the series repeat.
    decide: ['p99'],
  });
  const { rounds, ratios } = series;
  const rate = (side: 'storm' | 'flood') => valuesOf(rounds, (r) => r[side].logins / r[side].seconds);
  const refused = rounds.reduce((sum, r) => sum + r.storm.refused + r.flood.refused, 0);
  const failed = rounds.reduce(
    (sum, r) =>
      sum +
      r.storm.failed +
      r.flood.failed +
      r.storm.probe.failed +
      r.flood.probe.failed +
      r.idle.probe.failed,
    0,
  );
  const p50 = (side: 'idle' | 'storm') => ms(percentileOver(rounds, (r) => r[side].probe, 50));
  const p99 = (side: 'idle' | 'storm' | 'flood') => ms(percentileOver(rounds, (r) => r[side].probe, 99));
  return {
    name: 'Anmeldung (argon2id, m = 19 MiB, t = 2, p = 1)',
    setup:
      `autocannon: ${LOGINS} Verbindungen melden ${members.length} Mitglieder reihum je Runde ${seconds} s lang an, im Sturm mit ${STORM_RATE} Anmeldungen/s (das Doppelte des Ziels), in der Flut so schnell sie können (ohne Ziel); gleichzeitig ${PROBE_RATE} Health-Anfragen/s über eine Verbindung. ` +
      `Basislinie: dieselben Health-Anfragen ohne Anmeldungen. ${ctx.rounds} Runden je Seite (Ruhe, Sturm, Flut) im Wechsel nach einer Aufwärmrunde; Verhältnis: p99 der Proben aller Runden zusammen (kleinster–größter Wert der einzelnen Runden). ` +
      `429 (Warteschlange der Passwortprüfung voll, mit Retry-After) zählen als abgewiesen, nicht als fehlgeschlagen. ` +
      // run.ts gives the portal every core for this scenario.
      (pinning().enabled
        ? 'Ohne Kernbindung des Portals: argon2 rechnet auf einem eigenen Kern neben der Ereignisschleife, wie auf einem Server (Anmeldungen aus dem Benchmark-Prozess, Health-Proben aus einem eigenen Prozess).'
        : 'Ohne Kernbindung.'),
    figures: [
      {
        measure: `Anmeldungen/s im Sturm (erfolgreich, ${STORM_RATE}/s angeboten)`,
        value: spreadText(rate('storm'), perSecond),
        goal: `≥ ${GOALS.logins}/s`,
        met: rate('storm').median >= GOALS.logins,
      },
      ratioFigure({
        measure: 'Health p99 während des Sturms',
        value: p99('storm'),
        baseline: p99('idle'),
        ratio: ratios.p99,
        format: times,
        goal: `≤ ${GOALS.ratio}×`,
        met: (median) => median <= GOALS.ratio,
      }),
      { measure: 'Health p50 während des Sturms', value: p50('storm'), baseline: p50('idle') },
      {
        measure: 'Anmeldungen/s in der Flut (erfolgreich, unbegrenzt)',
        value: spreadText(rate('flood'), perSecond),
      },
      ratioFigure({
        measure: 'Health p99 während der Flut (ohne Ziel)',
        value: p99('flood'),
        baseline: p99('idle'),
        ratio: ratios.flood,
        format: times,
      }),
      { measure: 'Abgewiesene Anmeldungen (429)', value: String(refused) },
      { measure: 'Fehlgeschlagene Anfragen', value: String(failed), goal: '0', met: failed === 0 },
      seriesFigure('Anmeldung', series),
    ],
  };
}
