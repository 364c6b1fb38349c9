import { writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { BenchContext } from '../lib/context.ts';
import { bestRate, curl, withPeak, type Transfer } from '../lib/curl.ts';
import { startProcess } from '../lib/portal.ts';
import { mib, mibPerSecond, percent, type ScenarioResult } from '../lib/report.ts';

const PARALLEL = 10;

function nginxConfig(workDir: string, root: string, port: number): string {
  return `
user root;
daemon off;
worker_processes auto;
pid ${join(workDir, 'nginx.pid')};
error_log ${join(workDir, 'nginx-error.log')} warn;
events { worker_connections 256; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  default_type application/pdf;
  client_body_temp_path ${workDir}/nginx-body;
  proxy_temp_path ${workDir}/nginx-proxy;
  fastcgi_temp_path ${workDir}/nginx-fastcgi;
  uwsgi_temp_path ${workDir}/nginx-uwsgi;
  scgi_temp_path ${workDir}/nginx-scgi;
  server {
    listen 127.0.0.1:${port};
    root ${root};
  }
}
`;
}

/** The large document through the portal against nginx serving the same file from disk. */
export async function downloadScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const { largeFile } = ctx.dataset;
  const port = await ctx.port();
  const config = join(ctx.workDir, 'nginx.conf');
  await writeFile(config, nginxConfig(ctx.workDir, dirname(largeFile.path), port));
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
  const nginxRuns: Transfer[] = [];
  const portalRuns: Transfer[] = [];
  let parallel: { result: Transfer[]; peak: number };
  let before: number;
  try {
    for (let round = 0; round < 3; round += 1) {
      nginxRuns.push(await curl(`${nginx.url}/${basename(largeFile.path)}`));
      portalRuns.push(await curl(portalUrl, auth));
    }
    before = ctx.portal.rss();
    parallel = await withPeak(ctx.portal.rss, () =>
      Promise.all(Array.from({ length: PARALLEL }, () => curl(portalUrl, auth))),
    );
  } finally {
    await nginx.stop();
  }
  const failures = [...nginxRuns, ...portalRuns, ...parallel.result].filter(
    (t) => t.status !== 200 || t.bytes !== largeFile.bytes,
  ).length;
  const ratio = bestRate(portalRuns) / bestRate(nginxRuns);
  const growth = parallel.peak - before;
  return {
    name: `Download einer Datei mit ${mib(largeFile.bytes)}`,
    setup: `curl nach /dev/null, je 3 Läufe im Wechsel (bester zählt); Basislinie: nginx ${'(Debian)'} mit sendfile liefert dieselbe Datei von der Platte. Danach ${PARALLEL} Downloads gleichzeitig, Speicher des Portals alle 50 ms gemessen.`,
    figures: [
      {
        measure: 'Durchsatz',
        value: mibPerSecond(bestRate(portalRuns)),
        baseline: mibPerSecond(bestRate(nginxRuns)),
        ratio: percent(ratio),
        goal: '≥ 80 %',
        met: ratio >= 0.8,
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
    ],
  };
}
