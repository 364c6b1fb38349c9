import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BenchContext } from '../lib/context.ts';
import {
  centre,
  compareSides,
  percentileOver,
  percentileSpread,
  ratioFigure,
  seriesFigure,
  spreadText,
  valuesOf,
} from '../lib/compare.ts';
import { wrk, type LoadResult } from '../lib/load.ts';
import { startProcess, type Service } from '../lib/portal.ts';
import { percent, perSecond, type ScenarioResult } from '../lib/report.ts';

const CONNECTIONS = 10;
/** Decision 137: health at least 80 %, the account at least 60 % of bare node:http, p99 ≤ 2 ms. */
const GOALS = { health: 0.8, account: 0.6, p99: 2 };

const ms2 = (value: number) => `${value.toFixed(2)} ms`;

async function bareServer(ctx: BenchContext, script: string, env: NodeJS.ProcessEnv = {}): Promise<Service> {
  const port = await ctx.port();
  return startProcess(process.execPath, [`bench/baselines/${script}`], {
    env: { PORT: String(port), ...env },
    log: join(ctx.workDir, `${script}.log`),
    readyUrl: `http://127.0.0.1:${port}/`,
    url: `http://127.0.0.1:${port}`,
  });
}

/**
 * `GET /api/v1/health` against a bare `node:http` hello world, and the signed-in
 * `GET /api/v1/account` against a bare `node:http` server answering the same JSON body, all four
 * in the same alternating rounds.
 */
export async function healthScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const token = await ctx.token(ctx.dataset.vertreter);
  const auth = { authorization: `Bearer ${token}` };
  const account = await fetch(`${ctx.portal.url}/api/v1/account`, { headers: auth });
  const body = await account.text();
  if (account.status !== 200) throw new Error(`GET /api/v1/account: ${account.status} ${body}`);
  const bodyFile = join(ctx.workDir, 'account.json');
  await writeFile(bodyFile, body);

  const hello = await bareServer(ctx, 'hello-server.mjs');
  const json = await bareServer(ctx, 'json-server.mjs', { BODY_FILE: bodyFile }).catch(async (error) => {
    await hello.stop();
    throw error;
  });
  const run = (url: string, headers?: Record<string, string>) => () =>
    wrk({ url, connections: CONNECTIONS, seconds: ctx.phase, headers });
  let series;
  try {
    series = await compareSides({
      label: 'Health und Konto',
      rounds: ctx.rounds,
      sides: {
        bare: run(`${hello.url}/`),
        health: run(`${ctx.portal.url}/api/v1/health`),
        bareJson: run(`${json.url}/`),
        account: run(`${ctx.portal.url}/api/v1/account`, auth),
      },
      ratios: {
        health: (round) => round.health.rps / round.bare.rps,
        account: (round) => round.account.rps / round.bareJson.rps,
      },
    });
  } finally {
    await hello.stop();
    await json.stop();
  }
  const { rounds, ratios } = series;
  const rps = (side: keyof (typeof rounds)[number]) => perSecond(valuesOf(rounds, (r) => r[side].rps).median);
  const p99 = (side: keyof (typeof rounds)[number]) => percentileSpread(rounds, (r) => r[side], 99);
  const p50 = (side: keyof (typeof rounds)[number]) => ms2(percentileOver(rounds, (r) => r[side], 50));
  const failed = rounds.reduce(
    (sum, round) => sum + (Object.values(round) as LoadResult[]).reduce((all, r) => all + r.failed, 0),
    0,
  );
  const latency = (label: string, side: 'health' | 'account', bare: 'bare' | 'bareJson') => [
    {
      measure: `${label}: p99`,
      value: spreadText(p99(side), ms2),
      baseline: ms2(centre(p99(bare))),
      goal: `≤ ${GOALS.p99} ms`,
      met: centre(p99(side)) <= GOALS.p99,
    },
    { measure: `${label}: p50`, value: p50(side), baseline: p50(bare) },
  ];
  return {
    name: 'GET /api/v1/health und GET /api/v1/account',
    setup:
      `wrk (ein Thread), ${CONNECTIONS} Verbindungen, ${ctx.rounds} Runden zu je ${ctx.phase} s je Seite im Wechsel (jede zweite Runde umgekehrt) nach einer Aufwärmrunde. ` +
      'Basislinien: `node:http` mit `{"status":"ok"}` für Health; `node:http` mit genau dem JSON, das das Portal dem Vertreter auf `/api/v1/account` schickt ' +
      `(${body.length} Bytes, einmal abgeholt), für das Konto, das das Portal mit Bearer-Token prüft. Verhältnis: Median der Runden (kleinster–größter Wert); p50 und p99 über die Antworten aller Runden zusammen (in Klammern die einzelnen Runden).`,
    figures: [
      ratioFigure({
        measure: 'Health: Anfragen/s',
        value: rps('health'),
        baseline: rps('bare'),
        ratio: ratios.health,
        format: percent,
        goal: `≥ ${percent(GOALS.health)}`,
        met: (median) => median >= GOALS.health,
      }),
      ...latency('Health', 'health', 'bare'),
      ratioFigure({
        measure: 'Konto (angemeldet): Anfragen/s',
        value: rps('account'),
        baseline: rps('bareJson'),
        ratio: ratios.account,
        format: percent,
        goal: `≥ ${percent(GOALS.account)}`,
        met: (median) => median >= GOALS.account,
      }),
      ...latency('Konto (angemeldet)', 'account', 'bareJson'),
      { measure: 'Fehlgeschlagene Anfragen', value: String(failed), goal: '0', met: failed === 0 },
      seriesFigure('Health und Konto', series),
    ],
  };
}
