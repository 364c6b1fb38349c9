import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { HOUR, systemClock } from '../../../server/src/clock.ts';
import { DEFAULT_MAX_COUNTERS, InMemoryCounterStore } from '../../../server/src/rate-limit/counter-store.ts';
import { MIN_ROUNDS, ratioFigure, repeatRounds, seriesFigure, spreadText, valuesOf } from '../lib/compare.ts';
import { mib, times, type Figure, type ScenarioResult } from '../lib/report.ts';

const MARKS = [5_000, 100_000, 1_000_000];
/**
 * Increments timed just before each mark, in BATCHES batches: the median batch's mean is the cost
 * per increment there (a garbage collection in one batch does not move it).
 */
const SAMPLE = 2_000;
const BATCHES = 10;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heapUsed(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

const key = (i: number) =>
  `forgot:10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}:mitglied-${i}@example.org`;

/**
 * `total` increments with distinct keys (as a flood of new addresses at forgot-password makes
 * them), one-hour windows, so nothing ends during the run: the store holds
 * min(increments, cap) counters. Returns the mean cost of the SAMPLE increments before each mark.
 */
async function run(store: InMemoryCounterStore, total: number): Promise<Map<number, number>> {
  const costs = new Map<number, number>();
  let i = 0;
  for (const mark of MARKS.filter((m) => m <= total)) {
    for (; i < mark - SAMPLE; i += 1) await store.increment(key(i), HOUR, 'flood');
    const batches: number[] = [];
    for (let batch = 0; batch < BATCHES; batch += 1) {
      const start = process.hrtime.bigint();
      for (const end = i + SAMPLE / BATCHES; i < end; i += 1) await store.increment(key(i), HOUR, 'flood');
      batches.push(Number(process.hrtime.bigint() - start) / (SAMPLE / BATCHES));
    }
    costs.set(mark, batches.sort((a, b) => a - b)[BATCHES / 2]!);
  }
  return costs;
}

const micro = (ns: number) => `${(ns / 1000).toFixed(2)} µs`;

/**
 * The in-process throttle counters under many distinct keys: cost per increment and memory. The
 * capped run repeats in rounds (a fresh store each), its ratio of the last mark to the first is
 * reported as median (smallest–largest round) like every ratio of the benchmark.
 */
export async function countersScenario(options: { quick: boolean }): Promise<ScenarioResult> {
  const total = MARKS.at(-1)!;
  const rounds = options.quick ? MIN_ROUNDS.quick : MIN_ROUNDS.full;
  const series = await repeatRounds({
    label: 'Drosselungszähler',
    rounds,
    // Warm-up: the same code compiled before anything counts.
    warmup: () => run(new InMemoryCounterStore(systemClock), options.quick ? 20_000 : 100_000),
    round: async () => {
      const before = heapUsed();
      const capped = new InMemoryCounterStore(systemClock);
      const costs = await run(capped, total);
      return { costs, growth: heapUsed() - before, size: capped.size };
    },
    ratios: { cost: (r) => r.costs.get(total)! / r.costs.get(MARKS[0]!)! },
  });
  const cost = (mark: number) => valuesOf(series.rounds, (r) => r.costs.get(mark)!);
  const cappedGrowth = valuesOf(series.rounds, (r) => r.growth);
  const cappedSize = Math.max(...series.rounds.map((r) => r.size));

  // The same with a cap above the run, so that the last mark really has 1,000,000 live counters.
  const unbounded = new InMemoryCounterStore(systemClock, { maxCounters: 2 * total });
  const unboundedCosts = await run(unbounded, total);
  const unboundedSize = unbounded.size;

  const figures: Figure[] = [
    ...MARKS.map((mark) => ({
      measure: `Kosten je Erhöhung nach ${mark.toLocaleString('de-DE')} Schlüsseln (Standard-Obergrenze)`,
      value: spreadText(cost(mark), micro),
      baseline: micro(cost(MARKS[0]!).median),
    })),
    ratioFigure({
      measure: 'Verhältnis 1.000.000 zu 5.000 Schlüsseln',
      value: times(series.ratios.cost.median),
      ratio: series.ratios.cost,
      format: times,
      goal: '≤ 3×',
      met: (median) => median <= 3,
    }),
    {
      measure: 'Zähler im Speicher nach 1.000.000 Schlüsseln',
      value: cappedSize.toLocaleString('de-DE'),
      goal: `≤ ${DEFAULT_MAX_COUNTERS.toLocaleString('de-DE')}`,
      met: cappedSize <= DEFAULT_MAX_COUNTERS,
    },
    {
      measure: 'Heap-Zuwachs (Standard-Obergrenze)',
      value: spreadText(cappedGrowth, mib),
      goal: '≤ 64 MiB',
      met: cappedGrowth.max <= 64 * 1024 ** 2,
    },
    ...MARKS.map((mark) => ({
      measure: `Kosten je Erhöhung bei ${mark.toLocaleString('de-DE')} lebenden Zählern (ohne Obergrenze)`,
      value: micro(unboundedCosts.get(mark)!),
    })),
    { measure: 'Zähler im Speicher (ohne Obergrenze)', value: unboundedSize.toLocaleString('de-DE') },
    seriesFigure('Standard-Obergrenze', series),
  ];
  return {
    name: 'Drosselungszähler im Prozess (InMemoryCounterStore)',
    setup: `${total.toLocaleString('de-DE')} Erhöhungen mit verschiedenen Schlüsseln und Fenstern von einer Stunde, im Prozess ohne Portal; Kosten: Median von ${BATCHES} Gruppen der ${SAMPLE.toLocaleString('de-DE')} Erhöhungen vor der Marke. Mit der Standard-Obergrenze (${DEFAULT_MAX_COUNTERS.toLocaleString('de-DE')} Zähler) ${rounds} Runden mit je neuem Speicher nach einer Aufwärmrunde (Median, kleinster–größter Wert; das Verhältnis über ±15 % gestreut: einmal wiederholt, dann „unstabil“), einmal ohne Obergrenze, damit 1.000.000 Zähler zugleich leben. Basislinie: die Kosten bei 5.000 Schlüsseln.`,
    figures,
  };
}
