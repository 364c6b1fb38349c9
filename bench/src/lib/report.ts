import { cpus, totalmem } from 'node:os';
import { readFile, writeFile } from 'node:fs/promises';

/** One measured figure, with its baseline and goal where the issue sets them. */
export interface Figure {
  measure: string;
  value: string;
  baseline?: string;
  ratio?: string;
  /** The ratio as a number (median of the rounds), to compare two runs. */
  ratioMedian?: number;
  goal?: string;
  /** Whether the goal is met; undefined when the figure has no goal of its own. */
  met?: boolean;
  /** The rounds spread wider than ±15 % around their median: neither met nor missed. */
  unstable?: boolean;
}

/**
 * Whether ratios of several rounds spread wider than ±15 % around their median. A round without
 * a finite positive ratio (no answer measured, a p99 of zero) cannot be judged: unstable too.
 */
export function isUnstable(ratios: number[]): boolean {
  if (ratios.length === 0 || ratios.some((ratio) => !Number.isFinite(ratio) || ratio <= 0)) return true;
  const sorted = [...ratios].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return sorted[0]! < median * 0.85 || sorted[sorted.length - 1]! > median * 1.15;
}

export interface ScenarioResult {
  name: string;
  setup: string;
  figures: Figure[];
  notes?: string[];
}

export const ms = (value: number) => `${value.toFixed(1)} ms`;
export const perSecond = (value: number) => `${value.toFixed(0)}/s`;
export const mib = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
export const mibPerSecond = (bytesPerSecond: number) => `${mib(bytesPerSecond)}/s`;
export const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
export const percent = (ratio: number) => `${(ratio * 100).toFixed(0)} %`;
export const times = (ratio: number) => `${ratio.toFixed(2)}×`;
export const seconds = (value: number) => `${value.toFixed(2)} s`;

export function machine(): string {
  const cpu = cpus();
  return `${cpu.length} × ${cpu[0]?.model.trim() ?? 'CPU'}, ${(totalmem() / 1024 ** 3).toFixed(0)} GiB RAM, Node ${process.version}, ${process.platform}`;
}

function table(figures: Figure[]): string {
  const rows = figures.map((f) =>
    [
      f.measure,
      f.value,
      f.baseline ?? '',
      f.ratio ?? '',
      f.goal ?? '',
      f.unstable ? 'unstabil' : f.met === undefined ? '' : f.met ? 'erfüllt' : '**verfehlt**',
    ]
      .map((cell) => cell.replace(/\|/g, '\\|'))
      .join(' | '),
  );
  return [
    '| Messung | Wert | Basislinie | Verhältnis | Ziel | |',
    '|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r} |`),
  ].join('\n');
}

export function renderScenarios(results: ScenarioResult[]): string {
  return results
    .map((result) =>
      [
        `### ${result.name}`,
        '',
        result.setup,
        '',
        table(result.figures),
        ...(result.notes?.length ? ['', ...result.notes] : []),
      ].join('\n'),
    )
    .join('\n\n');
}

/**
 * Replaces the part of a results file between `<!-- name:start -->` and `<!-- name:end -->`, so
 * the benchmark and the soak each keep their own section of one file (bench/.tmp/RESULTS-full.md).
 */
export async function writeSection(file: string, name: string, markdown: string): Promise<void> {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    text = '# Messergebnisse\n\nGeschrieben von `npm run bench` und `npm run soak`; siehe bench/README.md.\n';
  }
  const block = `${start}\n${markdown.trim()}\n${end}`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  text =
    from >= 0 && to > from
      ? text.slice(0, from) + block + text.slice(to + end.length)
      : `${text.trimEnd()}\n\n${block}\n`;
  await writeFile(file, text);
}

/**
 * Two or more whole runs side by side: every ratio with a median (ratioMedian) of the first run
 * against the same figure of each later one; decision 141 asks them to agree within ±10 %.
 */
export function renderAgreement(runs: ScenarioResult[][]): string {
  const [first, ...later] = runs;
  const rows: string[] = [];
  let agreed = 0;
  let total = 0;
  for (const scenario of first ?? []) {
    for (const figure of scenario.figures) {
      if (figure.ratioMedian === undefined) continue;
      const others = later.map(
        (run) =>
          run
            .find((other) => other.name === scenario.name)
            ?.figures.find((other) => other.measure === figure.measure)?.ratioMedian,
      );
      const deviations = others.map((other) => (other === undefined ? NaN : other / figure.ratioMedian! - 1));
      const within = deviations.every((deviation) => Math.abs(deviation) <= 0.1);
      total += 1;
      if (within) agreed += 1;
      const cells = [
        `${scenario.name}: ${figure.measure}`,
        figure.ratioMedian.toFixed(3),
        ...others.map((other) => (other === undefined ? '–' : other.toFixed(3))),
        deviations
          .map((deviation) =>
            Number.isNaN(deviation) ? '–' : `${deviation >= 0 ? '+' : ''}${(deviation * 100).toFixed(1)} %`,
          )
          .join(', '),
        within ? 'ja' : '**nein**',
      ].map((cell) => cell.replace(/\|/g, '\\|'));
      rows.push(`| ${cells.join(' | ')} |`);
    }
  }
  const header = [
    'Verhältnis',
    'Lauf 1',
    ...later.map((_, index) => `Lauf ${index + 2}`),
    'Abweichung',
    '±10 %',
  ];
  return [
    '## Übereinstimmung der Läufe',
    '',
    `Median jedes Verhältnisses in Lauf 1 gegen die späteren Läufe: ${agreed} von ${total} innerhalb von ±10 % (Ziel: alle).`,
    '',
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows,
  ].join('\n');
}
