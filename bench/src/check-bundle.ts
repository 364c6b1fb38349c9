/**
 * Bundle budget check (decision 024): `tsx bench/src/check-bundle.ts [distDir]` (default web/dist,
 * built with `npm run build`). Prints the initial JavaScript per route and exits with 1 when a
 * route is over its budget, with 2 when it cannot measure. BUNDLE_BUDGET_SCALE=0.5 halves every
 * budget, to see the check fail.
 */
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSize, KIB, measureInitialJs, type InitialJs } from './bundle.ts';

const kib = (bytes: number) => (bytes / KIB).toFixed(1);

/** Text left-aligned in the first column, numbers right-aligned in the others. */
function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const pad = (cell: string, column: number) =>
    column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!);
  return rows.map((row) => row.map(pad).join('  ').trimEnd()).join('\n');
}

async function report(distDir: string, results: InitialJs[]): Promise<string> {
  const rows = [['Route', 'Dateien', 'JS KiB gzip', 'Budget KiB', 'Ergebnis', 'Ziel KiB', 'CSS KiB gzip']];
  for (const { route, files, gzipBytes, budgetBytes, goalBytes, cssGzipBytes } of results) {
    rows.push([
      route,
      String(files.length),
      kib(gzipBytes),
      kib(budgetBytes),
      gzipBytes <= budgetBytes ? 'ok' : 'ÜBER BUDGET',
      goalBytes === undefined ? '–' : `${kib(goalBytes)} ${gzipBytes <= goalBytes ? 'erreicht' : 'verfehlt'}`,
      kib(cssGzipBytes),
    ]);
  }
  const details: string[] = [];
  for (const { route, files } of results) {
    details.push(`\n${route}:`);
    for (const file of files)
      details.push(`  ${kib(await gzipSize(join(distDir, file))).padStart(6)}  ${file}`);
  }
  return `${table(rows)}\n${details.join('\n')}`;
}

async function main(): Promise<number> {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const distDir = resolve(process.argv[2] ?? join(root, 'web/dist'));
  let results: InitialJs[];
  try {
    results = await measureInitialJs(distDir);
  } catch (error) {
    console.error(`Bundle-Prüfung nicht möglich: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
  console.log(`Initiales JavaScript (gzip -9) je Route, aus ${distDir}\n`);
  console.log(await report(distDir, results));
  const over = results.filter((result) => result.gzipBytes > result.budgetBytes);
  if (over.length === 0) return 0;
  console.error(
    `\nÜber Budget: ${over.map((r) => `${r.route} um ${kib(r.gzipBytes - r.budgetBytes)} KiB`).join(', ')}`,
  );
  return 1;
}

process.exitCode = await main();
