import { writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { BenchContext } from '../lib/context.ts';
import { compareSides, ratioFigure, seriesFigure, spreadText, valuesOf } from '../lib/compare.ts';
import { cpuOfTree, cpuPerGiB, cpuSecondsOf, withCpu } from '../lib/cpu.ts';
import { curl, readThrough, withPeak, type Transfer } from '../lib/curl.ts';
import { startProcess } from '../lib/portal.ts';
import { nginxConfig } from '../lib/nginx-config.ts';
import { mib, mibPerSecond, percent, seconds, type ScenarioResult } from '../lib/report.ts';

const PARALLEL = 10;

const directConfig = (workDir: string, root: string, port: number) =>
  nginxConfig(
    workDir,
    'nginx',
    `  server {
    listen 127.0.0.1:${port};
    root ${root};
  }`,
  );

interface Run {
  transfer: Transfer;
  /** CPU seconds the server used for the transfer (nginx: master and workers). */
  cpuSeconds: number;
}

/**
 * The large document through the portal against nginx serving the same file from disk: the same
 * client (curl), the same file, read once before each side so that both find it in the page
 * cache alike; CPU time of each server per GiB next to the throughput.
 */
export async function downloadScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const { largeFile } = ctx.dataset;
  const port = await ctx.port();
  const config = join(ctx.workDir, 'nginx.conf');
  await writeFile(config, directConfig(ctx.workDir, dirname(largeFile.path), port));
  const nginx = await startProcess(
    '/usr/sbin/nginx',
    ['-e', join(ctx.workDir, 'nginx-error.log'), '-c', config],
    {
      log: join(ctx.workDir, 'nginx.log'),
      readyUrl: `http://127.0.0.1:${port}/`,
      url: `http://127.0.0.1:${port}`,
    },
  );
  const token = await ctx.token(ctx.dataset.vertreter);
  const portalUrl = `${ctx.portal.url}/api/v1/download/${largeFile.downloadKey}`;
  const auth = ['-H', `authorization: Bearer ${token}`];
  const measured = async (url: string, args: string[], cpu: () => number): Promise<Run> => {
    const { result, cpuSeconds } = await withCpu(cpu, () => curl(url, args));
    return { transfer: result, cpuSeconds };
  };
  let series;
  let parallel: { result: Transfer[]; peak: number };
  let before: number;
  try {
    series = await compareSides({
      label: 'Download',
      rounds: ctx.transferRounds,
      sides: {
        nginx: () =>
          measured(`${nginx.url}/${basename(largeFile.path)}`, [], () => cpuOfTree(nginx.pid, true)),
        portal: () => measured(portalUrl, auth, () => cpuSecondsOf(ctx.portal.pid)),
      },
      before: () => readThrough(largeFile.path),
      ratios: { rate: (r) => r.portal.transfer.rate / r.nginx.transfer.rate },
    });
    before = ctx.portal.rss();
    parallel = await withPeak(ctx.portal.rss, () =>
      Promise.all(Array.from({ length: PARALLEL }, () => curl(portalUrl, auth))),
    );
  } finally {
    await nginx.stop();
  }
  const { rounds, ratios } = series;
  const transfers = rounds.flatMap((r) => [r.nginx.transfer, r.portal.transfer]);
  const failures = [...transfers, ...parallel.result].filter(
    (t) => t.status !== 200 || t.bytes !== largeFile.bytes,
  ).length;
  const rate = (side: 'nginx' | 'portal') => valuesOf(rounds, (r) => r[side].transfer.rate).median;
  const cpu = (side: 'nginx' | 'portal') =>
    valuesOf(rounds, (r) => cpuPerGiB(r[side].cpuSeconds, r[side].transfer.bytes));
  const growth = parallel.peak - before;
  return {
    name: `Download einer Datei mit ${mib(largeFile.bytes)}`,
    setup:
      `curl nach /dev/null für beide Seiten, ${ctx.transferRounds} Runden im Wechsel nach einer Aufwärmrunde; vor jeder Seite wird die Datei einmal ganz gelesen (Seitencache für beide gleich warm). ` +
      'Basislinie: nginx (Debian) mit sendfile liefert dieselbe Datei von der Platte. Verhältnis: Median der Runden (kleinster–größter Wert). ' +
      `CPU-Zeit des Servers (utime + stime aus /proc, nginx mit seinen Workern) je übertragenem GiB. Danach ${PARALLEL} Downloads gleichzeitig, Speicher des Portals alle 50 ms gemessen.`,
    figures: [
      ratioFigure({
        measure: 'Durchsatz',
        value: mibPerSecond(rate('portal')),
        baseline: mibPerSecond(rate('nginx')),
        ratio: ratios.rate,
        format: percent,
        goal: '≥ 80 %',
        met: (median) => median >= 0.8,
      }),
      {
        measure: 'CPU-Zeit des Servers je GiB',
        value: spreadText(cpu('portal'), seconds),
        baseline: spreadText(cpu('nginx'), seconds),
      },
      {
        measure: `Durchsatz, ${PARALLEL} parallel (gesamt)`,
        value: mibPerSecond(
          (PARALLEL * largeFile.bytes) / Math.max(...parallel.result.map((transfer) => transfer.seconds)),
        ),
      },
      {
        measure: `Zuwachs Resident Set bei ${PARALLEL} parallelen Downloads`,
        value: mib(growth),
        baseline: mib(before),
        goal: '≤ 64 MiB',
        met: growth <= 64 * 1024 ** 2,
      },
      { measure: 'Fehlgeschlagene Downloads', value: String(failures), goal: '0', met: failures === 0 },
      seriesFigure('Download', series),
    ],
  };
}
