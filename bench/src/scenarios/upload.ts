import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { promisify } from 'node:util';
import { join } from 'node:path';
import type { BenchContext } from '../lib/context.ts';
import { compareSides, ratioFigure, seriesFigure, spreadText, valuesOf } from '../lib/compare.ts';
import { cpuPerGiB, cpuSecondsOf, withCpu } from '../lib/cpu.ts';
import { curl, readThrough, withPeak, type Transfer } from '../lib/curl.ts';
import { onServerCore } from '../lib/pinning.ts';
import { startProcess } from '../lib/portal.ts';
import { mib, mibPerSecond, percent, seconds, type ScenarioResult } from '../lib/report.ts';

const execFileAsync = promisify(execFile);

interface Run {
  transfer: Transfer;
  /** CPU seconds the receiving server used for the upload. */
  cpuSeconds: number;
}

/**
 * Writes as many bytes as the upload to the data folder's disk with dd and fsync, on the server
 * core, and removes them again: what the disk allows a durable upload in the same round. The
 * portal must wait for it (fsync before its answer, decision 004), the pipe baseline does not.
 */
async function diskWrite(dir: string, bytes: number): Promise<Run> {
  const file = join(dir, 'dd-reference');
  const count = `count=${Math.ceil(bytes / 1024 ** 2)}`;
  let seconds: number;
  try {
    const started = performance.now();
    await execFileAsync(...onServerCore('dd', ['if=/dev/zero', `of=${file}`, 'bs=1M', count, 'conv=fsync']));
    seconds = (performance.now() - started) / 1000;
  } finally {
    // Also after a failed dd: a gigabyte left behind would fill the next rounds' disk.
    await rm(file, { force: true });
  }
  // No HTTP status: dd is no server (the failures counted are the uploads').
  return { transfer: { status: 0, bytes, seconds, rate: bytes / seconds }, cpuSeconds: 0 };
}

/**
 * A multipart upload of the large file into the portal against a Node server piping to a file:
 * the same client (curl -F), the same file, read once before each side so that both send it from
 * a page cache warmed alike; CPU time of each server per GiB next to the throughput. Each upload
 * is removed again (the portal's through its Papierkorb), so the rounds do not fill the disk.
 */
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
  const admin = { authorization: `Bearer ${await ctx.token(ctx.dataset.admins[0]!)}` };
  const superAdmin = { authorization: `Bearer ${await ctx.token(ctx.dataset.superAdmin)}` };
  let upload = 0;
  const form = () => {
    upload += 1;
    return [
      '-F',
      `title=Großer Scan ${upload}`,
      '-F',
      'permissions=Vertreter',
      '-F',
      `folder_id=${ctx.dataset.smallFolderId}`,
      '-F',
      `file=@${largeFile.path};type=application/pdf;filename=scan-${upload}.pdf`,
    ];
  };
  const answer = join(ctx.workDir, 'upload-answer.json');
  const remove = async (path: string, headers: Record<string, string>) => {
    const res = await fetch(`${ctx.portal.url}/api/v1${path}`, { method: 'DELETE', headers });
    if (res.status !== 204) throw new Error(`DELETE ${path}: ${res.status} ${await res.text()}`);
  };
  const before = ctx.portal.rss();
  let peak = before;
  const pipe = async (): Promise<Run> => {
    const { result, cpuSeconds } = await withCpu(
      () => cpuSecondsOf(baseline.pid),
      () => curl(`${baseline.url}/`, form(), true),
    );
    for (const name of await readdir(uploadDir)) await rm(join(uploadDir, name), { force: true });
    return { transfer: result, cpuSeconds };
  };
  const portal = async (): Promise<Run> => {
    const measured = await withPeak(ctx.portal.rss, () =>
      withCpu(
        () => cpuSecondsOf(ctx.portal.pid),
        () =>
          curl(
            `${ctx.portal.url}/api/v1/files`,
            ['-H', `authorization: ${admin.authorization}`, ...form()],
            true,
            answer,
          ),
      ),
    );
    peak = Math.max(peak, measured.peak);
    const { result, cpuSeconds } = measured.result;
    if (result.status === 201) {
      const { file } = JSON.parse(await readFile(answer, 'utf8')) as { file: { id: number } };
      await remove(`/files/${file.id}`, admin);
      await remove(`/trash/file/${file.id}`, superAdmin);
    }
    return { transfer: result, cpuSeconds };
  };
  let series;
  try {
    series = await compareSides({
      label: 'Upload',
      rounds: ctx.transferRounds,
      sides: { pipe, portal, disk: () => diskWrite(ctx.dataset.dataDir, largeFile.bytes) },
      before: (side) => (side === 'disk' ? Promise.resolve() : readThrough(largeFile.path)),
      ratios: { rate: (r) => r.portal.transfer.rate / r.pipe.transfer.rate },
    });
  } finally {
    await baseline.stop();
  }
  const { rounds, ratios } = series;
  const failures = rounds
    .flatMap((r) => [r.pipe.transfer, r.portal.transfer])
    .filter((transfer) => transfer.status !== 201);
  const rate = (side: 'pipe' | 'portal') => valuesOf(rounds, (r) => r[side].transfer.rate).median;
  const cpu = (side: 'pipe' | 'portal') =>
    valuesOf(rounds, (r) => cpuPerGiB(r[side].cpuSeconds, r[side].transfer.bytes));
  const growth = peak - before;
  return {
    name: `Upload einer Datei mit ${mib(largeFile.bytes)} (multipart)`,
    setup:
      `curl -F für beide Seiten, ${ctx.transferRounds} Runden im Wechsel nach einer Aufwärmrunde; vor jeder Seite wird die Datei einmal ganz gelesen (Seitencache für beide gleich warm). ` +
      'Basislinie: ein Node-Server, der den Anfragekörper mit `pipeline` in eine Datei schreibt. Das Portal prüft dazu Anmeldung und Rolle, zählt und hasht (SHA-256) die Bytes, schreibt in eine temporäre Datei (alle 32 MiB im Hintergrund auf die Platte, Entscheidung 145), erzwingt fsync, benennt um und trägt die Zeile ein. ' +
      'Verhältnis: Median der Runden (kleinster–größter Wert). In denselben Runden schreibt dd dieselbe Menge mit fsync auf die Platte des Portals: die Grenze, die die Platte dem Portal in dieser Runde setzt (die Basislinie wartet auf keine Platte). CPU-Zeit des Servers (utime + stime aus /proc) je empfangenem GiB. Jede Datei wird nach ihrer Runde wieder gelöscht.',
    figures: [
      ratioFigure({
        measure: 'Durchsatz',
        value: mibPerSecond(rate('portal')),
        baseline: mibPerSecond(rate('pipe')),
        ratio: ratios.rate,
        format: percent,
        goal: '≥ 70 %',
        met: (median) => median >= 0.7,
      }),
      {
        measure: 'Zum Vergleich: dieselbe Menge auf die Platte des Portals mit fsync (dd)',
        value: spreadText(
          valuesOf(rounds, (r) => r.disk.transfer.rate),
          mibPerSecond,
        ),
      },
      {
        measure: 'CPU-Zeit des Servers je GiB',
        value: spreadText(cpu('portal'), seconds),
        baseline: spreadText(cpu('pipe'), seconds),
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
      seriesFigure('Upload', series),
    ],
  };
}
