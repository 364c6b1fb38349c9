import { join } from 'node:path';
import type { BenchContext } from '../lib/context.ts';
import { wrk, type LoadResult } from '../lib/load.ts';
import { startProcess } from '../lib/portal.ts';
import { ms, percent, perSecond, type ScenarioResult } from '../lib/report.ts';

const CONNECTIONS = 10;

/** `GET /api/v1/health` against a bare `node:http` hello world, alternating to even out noise. */
export async function healthScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const port = await ctx.port();
  const baseline = await startProcess(process.execPath, ['bench/baselines/hello-server.mjs'], {
    env: { PORT: String(port) },
    log: join(ctx.workDir, 'hello-server.log'),
    readyUrl: `http://127.0.0.1:${port}/`,
    url: `http://127.0.0.1:${port}`,
  });
  const portal: LoadResult[] = [];
  const bare: LoadResult[] = [];
  const rounds = ctx.quick ? 2 : 6;
  const phase = ctx.quick ? 2 : 3;
  try {
    // Warm-up: both servers reach their compiled steady state before anything counts.
    await wrk({ url: `${baseline.url}/`, connections: CONNECTIONS, seconds: 2 });
    await wrk({ url: `${ctx.portal.url}/api/v1/health`, connections: CONNECTIONS, seconds: 2 });
    // Short phases in turn: a shared machine's speed drifts, each pair sees the same drift.
    for (let round = 0; round < rounds; round += 1) {
      bare.push(await wrk({ url: `${baseline.url}/`, connections: CONNECTIONS, seconds: phase }));
      portal.push(
        await wrk({ url: `${ctx.portal.url}/api/v1/health`, connections: CONNECTIONS, seconds: phase }),
      );
    }
  } finally {
    await baseline.stop();
  }
  const mean = (results: LoadResult[], key: 'rps' | 'p50' | 'p99') =>
    results.reduce((sum, r) => sum + r[key], 0) / results.length;
  const ratios = portal.map((r, i) => r.rps / bare[i]!.rps).sort((a, b) => a - b);
  const ratio = ratios[Math.floor(ratios.length / 2)]!;
  return {
    name: 'GET /api/v1/health',
    setup: `wrk, ${CONNECTIONS} Verbindungen, ${rounds} Runden zu je ${phase} s je Seite im Wechsel; Verhältnis: Median der Verhältnisse je Runde. Basislinie: \`node:http\` mit derselben JSON-Antwort.`,
    figures: [
      {
        measure: 'Anfragen/s',
        value: perSecond(mean(portal, 'rps')),
        baseline: perSecond(mean(bare, 'rps')),
        ratio: percent(ratio),
        goal: '≥ 70 %',
        met: ratio >= 0.7,
      },
      { measure: 'p50', value: ms(mean(portal, 'p50')), baseline: ms(mean(bare, 'p50')) },
      { measure: 'p99', value: ms(mean(portal, 'p99')), baseline: ms(mean(bare, 'p99')) },
      {
        measure: 'Fehlgeschlagene Anfragen',
        value: String(portal.reduce((sum, r) => sum + r.failed, 0)),
        goal: '0',
        met: portal.every((r) => r.failed === 0),
      },
    ],
  };
}
