import { writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { nginxConfig } from '../lib/nginx-config.ts';
import type { BenchContext } from '../lib/context.ts';
import { curl, withPeak, type Transfer } from '../lib/curl.ts';
import { startPortal, startProcess } from '../lib/portal.ts';
import { compareSides, median, ratioFigure, seriesFigure, type Series } from '../lib/compare.ts';
import { mib, mibPerSecond, percent, type Figure, type ScenarioResult } from '../lib/report.ts';

const PARALLEL = 10;

/**
 * One nginx for both sides: `/direct/` serves the document folder itself (the baseline), every
 * other path goes to the portal, whose downloads come back through the offload location of
 * docs/deployment.md (X-Accel-Redirect, decision 135).
 */
function offloadConfig(workDir: string, filesDir: string, port: number, portalPort: number): string {
  return nginxConfig(
    workDir,
    'offload-nginx',
    `  upstream portal {
    server 127.0.0.1:${portalPort};
    keepalive 16;
  }
  server {
    listen 127.0.0.1:${port};
    location /direct/ {
      alias ${filesDir}/;
    }
    location / {
      proxy_pass http://portal;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
    }
    location /_offload/ {
      internal;
      alias ${filesDir}/;
      max_ranges 1;
      etag off;
      if_modified_since off;
      add_header Last-Modified "";
      add_header ETag $upstream_http_etag;
      add_header X-Content-Type-Options $upstream_http_x_content_type_options always;
      add_header Content-Security-Policy $upstream_http_content_security_policy always;
    }
  }`,
  );
}

/**
 * Decision 135: the large document through the portal with DOWNLOAD_OFFLOAD=nginx (token, roles,
 * audit entry, then nginx sends the file) against nginx alone sending the same file, in the same
 * run and through the same nginx.
 */
export async function downloadOffloadScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const { largeFile } = ctx.dataset;
  const filesDir = dirname(largeFile.path);
  // A second portal on the same data, offloading; the first keeps serving the other scenarios.
  const portal = await startPortal(ctx.dataset.dataDir, { DOWNLOAD_OFFLOAD: 'nginx' });
  const port = await ctx.port();
  const config = join(ctx.workDir, 'offload-nginx.conf');
  await writeFile(config, offloadConfig(ctx.workDir, filesDir, port, Number(new URL(portal.url).port)));
  const nginx = await startProcess(
    '/usr/sbin/nginx',
    ['-e', join(ctx.workDir, 'offload-nginx-error.log'), '-c', config],
    {
      log: join(ctx.workDir, 'offload-nginx.log'),
      readyUrl: `http://127.0.0.1:${port}/api/v1/health`,
      url: `http://127.0.0.1:${port}`,
    },
  );
  const token = await ctx.token(ctx.dataset.vertreter);
  const auth = ['-H', `authorization: Bearer ${token}`];
  const offloadUrl = `${nginx.url}/api/v1/download/${largeFile.downloadKey}`;
  const directUrl = `${nginx.url}/direct/${basename(largeFile.path)}`;
  const transfers: Transfer[] = [];
  const transfer = async (...args: Parameters<typeof curl>) => {
    const result = await curl(...args);
    transfers.push(result);
    return result;
  };
  let series: Series<Record<'direct' | 'offload', Transfer>, 'rate'>;
  let parallel: { offload: { result: Transfer[]; peak: number }; direct: Transfer[] };
  let before: number;
  try {
    // The warm-up round puts the file in the page cache and opens the connections; each side goes
    // first every other round, and a spread wider than ±15 % is measured once more (compare.ts).
    series = await compareSides({
      label: 'Download mit nginx-Offload',
      rounds: ctx.transferRounds,
      sides: { direct: () => transfer(directUrl), offload: () => transfer(offloadUrl, auth) },
      ratios: { rate: (r) => r.offload.rate / r.direct.rate },
    });
    before = portal.rss();
    const offload = await withPeak(portal.rss, () =>
      Promise.all(Array.from({ length: PARALLEL }, () => curl(offloadUrl, auth))),
    );
    const direct = await Promise.all(Array.from({ length: PARALLEL }, () => curl(directUrl)));
    parallel = { offload, direct };
    transfers.push(...offload.result, ...direct);
  } finally {
    await nginx.stop();
    await portal.stop();
  }
  const failures = transfers.filter((t) => t.status !== 200 || t.bytes !== largeFile.bytes).length;
  const total = (runs: Transfer[]) => (PARALLEL * largeFile.bytes) / Math.max(...runs.map((t) => t.seconds));
  const parallelRatio = total(parallel.offload.result) / total(parallel.direct);
  const growth = parallel.offload.peak - before;
  const rate = (side: 'direct' | 'offload') => median(series.rounds.map((round) => round[side].rate));
  const figures: Figure[] = [
    ratioFigure({
      measure: 'Durchsatz, ein Download',
      value: mibPerSecond(rate('offload')),
      baseline: mibPerSecond(rate('direct')),
      ratio: series.ratios.rate,
      format: percent,
      goal: '≥ 95 %',
      met: (ratio) => ratio >= 0.95,
    }),
    {
      measure: `Durchsatz, ${PARALLEL} parallel (gesamt)`,
      value: mibPerSecond(total(parallel.offload.result)),
      baseline: mibPerSecond(total(parallel.direct)),
      ratio: percent(parallelRatio),
    },
    {
      measure: `Zuwachs Resident Set des Portals bei ${PARALLEL} parallelen Downloads`,
      value: mib(growth),
      baseline: mib(before),
      goal: '≤ 16 MiB',
      met: growth <= 16 * 1024 ** 2,
    },
    { measure: 'Fehlgeschlagene Downloads', value: String(failures), goal: '0', met: failures === 0 },
    seriesFigure('Download mit nginx-Offload', series),
  ];
  return {
    name: `Download mit nginx-Offload: Portal + nginx gegen nginx allein (${mib(largeFile.bytes)})`,
    setup:
      `curl nach /dev/null über dasselbe nginx (Debian, sendfile), ${ctx.transferRounds} Runden im Wechsel (jede Seite abwechselnd zuerst): nginx liefert die Datei ` +
      'direkt aus dem Speicherordner (Basislinie) gegen `/api/v1/download/…` bei einem zweiten Portal mit ' +
      '`DOWNLOAD_OFFLOAD=nginx` (Token, Rollen, Audit-Eintrag, dann `X-Accel-Redirect`). Verhältnis: Median der Runden ' +
      `(kleinster–größter Wert). Danach je ${PARALLEL} Downloads gleichzeitig, Speicher des Portals alle 50 ms gemessen.`,
    figures,
  };
}
