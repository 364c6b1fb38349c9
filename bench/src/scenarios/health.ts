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
import { cpuFigure, metered } from '../lib/cpu.ts';
import { wrk, type LoadResult } from '../lib/load.ts';
import { startProcess, type Service } from '../lib/portal.ts';
import { percent, perSecond, type ScenarioResult } from '../lib/report.ts';

const CONNECTIONS = 10;
/**
 * Decision 185: health at least 90 % of bare node:http, the account at least 75 % of Fastify with
 * the same headers, JSON and a token check against a Map; p99 ≤ 2 ms (decision 137).
 */
const GOALS = { health: 0.9, account: 0.75, p99: 2 };

/** The headers the Fastify baseline must send as the portal does (its six security headers and the type). */
const COMPARED_HEADERS = [
  'cache-control',
  'content-security-policy',
  'cross-origin-resource-policy',
  'referrer-policy',
  'x-content-type-options',
  'x-frame-options',
  'content-type',
];

const ms2 = (value: number) => `${value.toFixed(2)} ms`;

async function baselineServer(
  ctx: BenchContext,
  script: string,
  env: NodeJS.ProcessEnv = {},
): Promise<Service> {
  const port = await ctx.port();
  return startProcess(process.execPath, [`bench/baselines/${script}`], {
    env: { PORT: String(port), ...env },
    log: join(ctx.workDir, `${script}.log`),
    readyUrl: `http://127.0.0.1:${port}/`,
    url: `http://127.0.0.1:${port}`,
  });
}

/**
 * The Fastify baseline answers the account exactly as the portal did: the same body, the same
 * security headers and type, and 401 without the token.
 */
async function checkFastifyBaseline(url: string, portal: Response, body: string, token: string) {
  const answer = await fetch(`${url}/api/v1/account`, { headers: { authorization: `Bearer ${token}` } });
  const text = await answer.text();
  const differing = COMPARED_HEADERS.filter((name) => answer.headers.get(name) !== portal.headers.get(name));
  if (answer.status !== 200 || text !== body || differing.length > 0)
    throw new Error(
      `Fastify-Basislinie antwortet anders als das Portal: ${answer.status}, ${text === body ? 'gleicher' : 'anderer'} Körper, Header ${differing.join(', ') || '–'}`,
    );
  const refused = await fetch(`${url}/api/v1/account`, { headers: { authorization: 'Bearer falsch' } });
  await refused.arrayBuffer();
  if (refused.status !== 401) throw new Error(`Fastify-Basislinie ohne gültiges Token: ${refused.status}`);
}

/**
 * `GET /api/v1/health` against a bare `node:http` hello world, and the signed-in
 * `GET /api/v1/account` against a Fastify server with the same headers, JSON body and a token
 * check against a Map (the goal) and against a bare `node:http` server answering the same body
 * (no goal: the figure of decisions 137 and 156, kept for comparison with earlier runs), all five
 * in the same alternating rounds. Every side also reports its server's CPU time per request.
 */
export async function healthScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const token = await ctx.token(ctx.dataset.vertreter);
  const auth = { authorization: `Bearer ${token}` };
  const account = await fetch(`${ctx.portal.url}/api/v1/account`, { headers: auth });
  const body = await account.text();
  if (account.status !== 200) throw new Error(`GET /api/v1/account: ${account.status} ${body}`);
  const bodyFile = join(ctx.workDir, 'account.json');
  await writeFile(bodyFile, body);

  const servers: Service[] = [];
  const start = async (script: string, env?: NodeJS.ProcessEnv) => {
    const server = await baselineServer(ctx, script, env);
    servers.push(server);
    return server;
  };
  let series;
  try {
    const hello = await start('hello-server.mjs');
    const json = await start('json-server.mjs', { BODY_FILE: bodyFile });
    const fastify = await start('fastify-account-server.mjs', { BODY_FILE: bodyFile, TOKEN: token });
    await checkFastifyBaseline(fastify.url, account, body, token);
    // Each side with the CPU time of the server it loads.
    const run = (server: Service, url: string, headers?: Record<string, string>) => () =>
      metered(server.pid, () => wrk({ url, connections: CONNECTIONS, seconds: ctx.phase, headers }));
    series = await compareSides({
      label: 'Health und Konto',
      rounds: ctx.rounds,
      sides: {
        bare: run(hello, `${hello.url}/`),
        health: run(ctx.portal, `${ctx.portal.url}/api/v1/health`),
        fastify: run(fastify, `${fastify.url}/api/v1/account`, auth),
        account: run(ctx.portal, `${ctx.portal.url}/api/v1/account`, auth),
        bareJson: run(json, `${json.url}/`),
      },
      ratios: {
        health: (round) => round.health.rps / round.bare.rps,
        account: (round) => round.account.rps / round.fastify.rps,
        accountBare: (round) => round.account.rps / round.bareJson.rps,
      },
      // The comparison with bare node:http has no goal and decides no rerun.
      decide: ['health', 'account'],
    });
  } finally {
    for (const server of servers) await server.stop();
  }
  const { rounds, ratios } = series;
  const rps = (side: keyof (typeof rounds)[number]) => perSecond(valuesOf(rounds, (r) => r[side].rps).median);
  const p99 = (side: keyof (typeof rounds)[number]) => percentileSpread(rounds, (r) => r[side], 99);
  const p50 = (side: keyof (typeof rounds)[number]) => ms2(percentileOver(rounds, (r) => r[side], 50));
  const failed = rounds.reduce(
    (sum, round) => sum + (Object.values(round) as LoadResult[]).reduce((all, r) => all + r.failed, 0),
    0,
  );
  const latency = (label: string, side: 'health' | 'account', bare: 'bare' | 'fastify') => [
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
      'Basislinien: `node:http` mit `{"status":"ok"}` für Health; für das Konto, das das Portal mit Bearer-Token prüft, Fastify mit denselben sechs Sicherheits-Headern, genau dem JSON, das das Portal dem Vertreter auf `/api/v1/account` schickt ' +
      `(${body.length} Bytes, einmal abgeholt und verglichen), und einer Token-Prüfung gegen eine Map (\`baselines/fastify-account-server.mjs\`, das Ziel), daneben ohne Ziel \`node:http\` mit demselben JSON. Verhältnis: Median der Runden (kleinster–größter Wert); p50 und p99 über die Antworten aller Runden zusammen (in Klammern die einzelnen Runden). ` +
      'CPU-Zeit je Anfrage: `utime + stime` des jeweiligen Servers aus `/proc` vor und nach jeder Runde durch ihre beantworteten Anfragen, Median der Runden (kleinster–größter Wert).',
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
      cpuFigure({
        measure: 'Health: CPU-Zeit je Anfrage',
        rounds,
        side: (r) => r.health,
        baseline: (r) => r.bare,
      }),
      ratioFigure({
        measure: 'Konto (angemeldet): Anfragen/s gegen Fastify',
        value: rps('account'),
        baseline: `${rps('fastify')} (Fastify)`,
        ratio: ratios.account,
        format: percent,
        goal: `≥ ${percent(GOALS.account)}`,
        met: (median) => median >= GOALS.account,
      }),
      ...latency('Konto (angemeldet)', 'account', 'fastify'),
      cpuFigure({
        measure: 'Konto (angemeldet): CPU-Zeit je Anfrage gegen Fastify',
        rounds,
        side: (r) => r.account,
        baseline: (r) => r.fastify,
      }),
      ratioFigure({
        measure: 'Konto (angemeldet): Anfragen/s gegen `node:http` (ohne Ziel)',
        value: rps('account'),
        baseline: `${rps('bareJson')} (\`node:http\`)`,
        ratio: ratios.accountBare,
        format: percent,
      }),
      cpuFigure({
        measure: 'Konto (angemeldet): CPU-Zeit je Anfrage gegen `node:http` (ohne Ziel)',
        rounds,
        side: (r) => r.account,
        baseline: (r) => r.bareJson,
      }),
      { measure: 'Fehlgeschlagene Anfragen', value: String(failed), goal: '0', met: failed === 0 },
      seriesFigure('Health und Konto', series),
    ],
  };
}
