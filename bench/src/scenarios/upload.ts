import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { BenchContext } from '../lib/context.ts';
import { bestRate, curl, withPeak, type Transfer } from '../lib/curl.ts';
import { startProcess } from '../lib/portal.ts';
import { mib, mibPerSecond, percent, type ScenarioResult } from '../lib/report.ts';

/** A multipart upload of the large file into the portal against a Node server piping to a file. */
export async function uploadScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const { largeFile } = ctx.dataset;
  const port = await ctx.port();
  const uploadDir = join(ctx.workDir, 'pipe-uploads');
  await mkdir(uploadDir, { recursive: true });
  const baseline = await startProcess(process.execPath, ['bench/baselines/pipe-upload-server.mjs'], {
    env: { PORT: String(port), UPLOAD_DIR: uploadDir },
    log: join(ctx.workDir, 'pipe-upload.log'),
    readyUrl: `http://127.0.0.1:${port}/`,
    url: `http://127.0.0.1:${port}`,
  });
  const token = await ctx.token(ctx.dataset.admins[0]!);
  const form = (round: number) => [
    '-F',
    `title=Großer Scan ${round}`,
    '-F',
    'permissions=Vertreter',
    '-F',
    `folder_id=${ctx.dataset.smallFolderId}`,
    '-F',
    `file=@${largeFile.path};type=application/pdf;filename=scan-${round}.pdf`,
  ];
  const pipeRuns: Transfer[] = [];
  const portalRuns: Transfer[] = [];
  let peak = 0;
  const before = ctx.portal.rss();
  try {
    for (let round = 0; round < 3; round += 1) {
      pipeRuns.push(await curl(`${baseline.url}/`, form(round), true));
      await rm(join(uploadDir, `upload-${round + 1}`), { force: true });
      const measured = await withPeak(ctx.portal.rss, () =>
        curl(
          `${ctx.portal.url}/api/v1/files`,
          ['-H', `authorization: Bearer ${token}`, ...form(round)],
          true,
        ),
      );
      portalRuns.push(measured.result);
      peak = Math.max(peak, measured.peak);
    }
  } finally {
    await baseline.stop();
  }
  const failures = [
    ...pipeRuns.filter((t) => t.status !== 201),
    ...portalRuns.filter((t) => t.status !== 201),
  ];
  const ratio = bestRate(portalRuns) / bestRate(pipeRuns);
  const growth = peak - before;
  return {
    name: `Upload einer Datei mit ${mib(largeFile.bytes)} (multipart)`,
    setup:
      'curl -F, je 3 Läufe im Wechsel (bester zählt); Basislinie: ein Node-Server, der den Anfragekörper mit `pipeline` in eine Datei schreibt. Das Portal prüft dazu Anmeldung und Rolle, zählt und hasht (SHA-256) die Bytes, schreibt in eine temporäre Datei, erzwingt fsync, benennt um und trägt die Zeile ein.',
    figures: [
      {
        measure: 'Durchsatz',
        value: mibPerSecond(bestRate(portalRuns)),
        baseline: mibPerSecond(bestRate(pipeRuns)),
        ratio: percent(ratio),
        goal: '≥ 70 %',
        met: ratio >= 0.7,
      },
      {
        measure: 'Zuwachs Resident Set während des Uploads',
        value: mib(growth),
        baseline: mib(before),
        goal: '≤ 64 MiB',
        met: growth <= 64 * 1024 ** 2,
      },
      {
        measure: 'Fehlgeschlagene Uploads',
        value: String(failures.length),
        goal: '0',
        met: failures.length === 0,
      },
    ],
  };
}
