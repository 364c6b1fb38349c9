/**
 * The common method of every figure that compares the portal with a baseline (decision 141): N
 * alternating rounds of both sides after a warm-up, one ratio per round, reported as the median
 * with the spread (smallest–largest round); percentile ratios as the ratio over all rounds' answers
 * together, with the same spread. When the rounds of any ratio spread wider than ±15 %
 * around their median (`isUnstable`), the whole series is measured once more; if it still
 * spreads, the figure says "unstabil" instead of met or missed.
 */
import { pooledPercentile, type LoadResult } from './load.ts';
import { isUnstable, type Figure } from './report.ts';

/** Rounds per series: quick runs (CI) at least 3, full runs at least 5. */
export const MIN_ROUNDS = { quick: 3, full: 5 } as const;

let rerunUnstable = true;

/**
 * Whether an unstable series is measured once more: yes in a full run; not in a quick run, whose
 * figures mean nothing (it only proves that every scenario runs, in CI beside a test suite) and
 * whose series would nearly all be measured twice there.
 */
export function configureSeries(options: { rerunUnstable: boolean }): void {
  rerunUnstable = options.rerunUnstable;
}

export interface Spread {
  median: number;
  min: number;
  max: number;
  values: number[];
  /** Wider than ±15 % around the median (or not a finite number). */
  unstable: boolean;
  /** The ratio over the answers of all rounds together, where it has one (`percentileRatio`). */
  overAll?: number;
}

/** The figure a spread stands for: its value over all rounds where it has one, else its median. */
export const centre = (spread: Spread): number => spread.overAll ?? spread.median;

/**
 * How a ratio is taken: one value per round (its median and spread are reported), or that and
 * a value over all rounds together, which the figure then reports with the rounds' spread.
 */
export type Ratio<T> =
  ((round: T) => number) | { perRound: (round: T) => number; overAll: (rounds: readonly T[]) => number };

/**
 * A percentile ratio of two sides: per round for the spread and the rerun rule, over all rounds'
 * answers together for the figure. A p99 of one 4-second round is decided by a handful of answers
 * and so by whether a garbage collection fell into it; the p99 of all rounds' answers is decided
 * by how often that happens. (Two runs still disagree on millisecond tails: decision 141.)
 */
export function percentileRatio<T>(
  p: number,
  side: (round: T) => LoadResult,
  base: (round: T) => LoadResult,
): Ratio<T> {
  return {
    perRound: (round) => pooledPercentile([side(round)], p) / pooledPercentile([base(round)], p),
    overAll: (rounds) => pooledPercentile(rounds.map(side), p) / pooledPercentile(rounds.map(base), p),
  };
}

/** The middle value (the upper of the two middle ones for an even count, as `isUnstable` takes it). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export function spreadOf(values: readonly number[]): Spread {
  return {
    median: median(values),
    min: Math.min(...values),
    max: Math.max(...values),
    values: [...values],
    unstable: isUnstable([...values]),
  };
}

export interface Series<T, R extends string> {
  /** The counted rounds (of the repeated series when there was one). */
  rounds: T[];
  ratios: Record<R, Spread>;
  /** The first series' ratios when it spread too wide and was measured once more. */
  first?: Record<R, Spread>;
  reruns: 0 | 1;
  /** It spread too wide, but reruns were off (a quick run). */
  notRerun?: true;
}

function ratiosOf<T, R extends string>(rounds: T[], ratios: Record<R, Ratio<T>>): Record<R, Spread> {
  const spreads = {} as Record<R, Spread>;
  for (const name of Object.keys(ratios) as R[]) {
    const ratio = ratios[name];
    spreads[name] =
      typeof ratio === 'function'
        ? spreadOf(rounds.map(ratio))
        : { ...spreadOf(rounds.map(ratio.perRound)), overAll: ratio.overAll(rounds) };
  }
  return spreads;
}

/**
 * `rounds` rounds of `round` after `warmup`; each round gives one value of every ratio. A series
 * in which any ratio is unstable is measured once more (without a second warm-up) and that one
 * counts. Series without ratios (a figure with an absolute goal only) are never repeated.
 */
export async function repeatRounds<T, R extends string>(options: {
  label: string;
  rounds: number;
  round: (index: number) => Promise<T>;
  ratios: Record<R, Ratio<T>>;
  /** The ratios whose spread decides the rerun (those with a goal); all when left out. */
  decide?: readonly NoInfer<R>[];
  warmup?: () => Promise<unknown>;
}): Promise<Series<T, R>> {
  if (options.rounds < MIN_ROUNDS.quick)
    throw new Error(`${options.label}: ${options.rounds} Runden, mindestens ${MIN_ROUNDS.quick}`);
  await options.warmup?.();
  const series = async () => {
    const rounds: T[] = [];
    for (let index = 0; index < options.rounds; index += 1) rounds.push(await options.round(index));
    return rounds;
  };
  const rounds = await series();
  const ratios = ratiosOf(rounds, options.ratios);
  const decide = options.decide ?? (Object.keys(ratios) as R[]);
  if (!decide.some((name) => ratios[name].unstable)) return { rounds, ratios, reruns: 0 };
  if (!rerunUnstable) return { rounds, ratios, reruns: 0, notRerun: true };
  console.log(`  ${options.label}: Runden streuen über ±15 % um ihren Median, die Reihe wird wiederholt`);
  const again = await series();
  return { rounds: again, ratios: ratiosOf(again, options.ratios), first: ratios, reruns: 1 };
}

/**
 * Alternating rounds of several sides (the portal and its baseline, or more): each round runs
 * every side once, every other round in reverse order, so a side is neither always first after
 * a pause nor always second after the other's load. `before` runs ahead of each side in every
 * round and in the warm-up (to warm the page cache the same way for both). The warm-up runs each
 * side once and is not counted, unless `warmup` is false or a function of its own.
 */
export function compareSides<K extends string, T, R extends string>(options: {
  label: string;
  rounds: number;
  sides: Record<K, () => Promise<T>>;
  ratios: Record<R, Ratio<Record<K, T>>>;
  decide?: readonly NoInfer<R>[];
  before?: (side: K) => Promise<unknown>;
  warmup?: boolean | (() => Promise<unknown>);
}): Promise<Series<Record<K, T>, R>> {
  const names = Object.keys(options.sides) as K[];
  const runSide = async (side: K) => {
    await options.before?.(side);
    return options.sides[side]();
  };
  const warmup =
    typeof options.warmup === 'function'
      ? options.warmup
      : options.warmup === false
        ? undefined
        : async () => {
            for (const side of names) await runSide(side);
          };
  return repeatRounds({
    label: options.label,
    rounds: options.rounds,
    ratios: options.ratios,
    ...(options.decide ? { decide: options.decide } : {}),
    warmup,
    round: async (index) => {
      const result = {} as Record<K, T>;
      for (const side of index % 2 === 0 ? names : [...names].reverse()) result[side] = await runSide(side);
      return result;
    },
  });
}

/** A percentile of one side over the answers of all rounds together (see `percentileRatio`). */
export const percentileOver = <T>(rounds: readonly T[], pick: (round: T) => LoadResult, p: number): number =>
  pooledPercentile(rounds.map(pick), p);

/** A percentile of one side over all rounds' answers together, with the rounds' own values as its spread. */
export const percentileSpread = <T>(
  rounds: readonly T[],
  pick: (round: T) => LoadResult,
  p: number,
): Spread => ({
  ...spreadOf(rounds.map((round) => pooledPercentile([pick(round)], p))),
  overAll: percentileOver(rounds, pick, p),
});

/** The median of one value over the rounds, with its spread (no rerun rule: not a ratio). */
export const valuesOf = <T>(rounds: readonly T[], pick: (round: T) => number): Spread =>
  spreadOf(rounds.map(pick));

/** "median (smallest–largest)" in the figure's own unit; the value over all rounds where there is one. */
export function spreadText(spread: Spread, format: (value: number) => string): string {
  return `${format(centre(spread))} (${format(spread.min)}–${format(spread.max)})`;
}

/**
 * A ratio figure: "median (min–max)" and, when it has a goal, met or missed by the median – or
 * "unstabil" when the rounds still spread wider than ±15 % after the rerun. `met` may test
 * something else than the ratio (an absolute goal); the spread of the ratio still decides
 * whether the figure can be judged.
 */
export function ratioFigure(options: {
  measure: string;
  ratio: Spread;
  format: (value: number) => string;
  value?: string;
  baseline?: string;
  goal?: string;
  /** Met or missed; a function gets the ratio's figure (`centre`: over all rounds, else the median). */
  met?: boolean | ((median: number) => boolean);
}): Figure {
  const met = typeof options.met === 'function' ? options.met(centre(options.ratio)) : options.met;
  return {
    measure: options.measure,
    value: options.value ?? '',
    ...(options.baseline !== undefined ? { baseline: options.baseline } : {}),
    ratio: spreadText(options.ratio, options.format),
    ratioMedian: centre(options.ratio),
    ...(options.goal ? { goal: options.goal, met } : {}),
    ...(options.goal && options.ratio.unstable ? { unstable: true } : {}),
  };
}

/** States how many rounds counted and whether the series had to be measured once more. */
export function seriesFigure(label: string, series: Series<unknown, string>): Figure {
  const first = series.first
    ? ` (erste Reihe: ${(Object.entries(series.first) as [string, Spread][])
        .filter(([, spread]) => spread.unstable)
        .map(([name, spread]) => `${name} ${spread.min.toFixed(2)}–${spread.max.toFixed(2)}`)
        .join(', ')})`
    : '';
  return {
    measure: `${label}: Runden, Reihe wiederholt (Streuung über ±15 %)`,
    value: `${series.rounds.length}, ${series.reruns ? `ja${first}` : series.notRerun ? 'nein (schneller Lauf: keine Wiederholung)' : 'nein'}`,
  };
}
