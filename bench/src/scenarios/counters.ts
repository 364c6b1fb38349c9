import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { HOUR, systemClock } from '../../../server/src/clock.ts';
import { DEFAULT_MAX_COUNTERS, InMemoryCounterStore } from '../../../server/src/rate-limit/counter-store.ts';
import { mib, type Figure, type ScenarioResult } from '../lib/report.ts';

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
    for (; i < mark - SAMPLE; i += 1) await store.increment(key(i), HOUR);
    const batches: number[] = [];
    for (let batch = 0; batch < BATCHES; batch += 1) {
      const start = process.hrtime.bigint();
      for (const end = i + SAMPLE / BATCHES; i < end; i += 1) await store.increment(key(i), HOUR);
      batches.push(Number(process.hrtime.bigint() - start) / (SAMPLE / BATCHES));
    }
    costs.set(mark, batches.sort((a, b) => a - b)[BATCHES / 2]!);
  }
  return costs;
}

const micro = (ns: number) => `${(ns / 1000).toFixed(2)} µs`;

/** The in-process throttle counters under many distinct keys: cost per increment and memory. */
export async function countersScenario(options: { quick: boolean }): Promise<ScenarioResult> {
  const total = MARKS.at(-1)!;
  // Warm-up: the same code compiled before anything counts.
  await run(new InMemoryCounterStore(systemClock), options.quick ? 20_000 : 100_000);

  const before = heapUsed();
  const capped = new InMemoryCounterStore(systemClock);
  const cappedCosts = await run(capped, total);
  const cappedGrowth = heapUsed() - before;
  const cappedSize = capped.size;

  // The same with a cap above the run, so that the last mark really has 1,000,000 live counters.
  const unbounded = new InMemoryCounterStore(systemClock, { maxCounters: 2 * total });
  const unboundedCosts = await run(unbounded, total);
  const unboundedSize = unbounded.size;

  const first = cappedCosts.get(MARKS[0]!)!;
  const last = cappedCosts.get(total)!;
  const figures: Figure[] = [
    ...MARKS.map((mark) => ({
      measure: `Kosten je Erhöhung nach ${mark.toLocaleString('de-DE')} Schlüsseln (Standard-Obergrenze)`,
      value: micro(cappedCosts.get(mark)!),
      baseline: micro(first),
    })),
    {
      measure: 'Verhältnis 1.000.000 zu 5.000 Schlüsseln',
      value: `${(last / first).toFixed(2)}×`,
      goal: '≤ 3×',
      met: last / first <= 3,
    },
    {
      measure: 'Zähler im Speicher nach 1.000.000 Schlüsseln',
      value: cappedSize.toLocaleString('de-DE'),
      goal: `≤ ${DEFAULT_MAX_COUNTERS.toLocaleString('de-DE')}`,
      met: cappedSize <= DEFAULT_MAX_COUNTERS,
    },
    {
      measure: 'Heap-Zuwachs (Standard-Obergrenze)',
      value: mib(cappedGrowth),
      goal: '≤ 64 MiB',
      met: cappedGrowth <= 64 * 1024 ** 2,
    },
    ...MARKS.map((mark) => ({
      measure: `Kosten je Erhöhung bei ${mark.toLocaleString('de-DE')} lebenden Zählern (ohne Obergrenze)`,
      value: micro(unboundedCosts.get(mark)!),
    })),
    { measure: 'Zähler im Speicher (ohne Obergrenze)', value: unboundedSize.toLocaleString('de-DE') },
  ];
  return {
    name: 'Drosselungszähler im Prozess (InMemoryCounterStore)',
    setup: `${total.toLocaleString('de-DE')} Erhöhungen mit verschiedenen Schlüsseln und Fenstern von einer Stunde, im Prozess ohne Portal; Kosten: Median von ${BATCHES} Gruppen der ${SAMPLE.toLocaleString('de-DE')} Erhöhungen vor der Marke. Einmal mit der Standard-Obergrenze (${DEFAULT_MAX_COUNTERS.toLocaleString('de-DE')} Zähler), einmal ohne, damit 1.000.000 Zähler zugleich leben. Basislinie: die Kosten bei 5.000 Schlüsseln.`,
    figures,
  };
}
