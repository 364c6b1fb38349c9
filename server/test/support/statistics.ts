/**
 * Mann-Whitney U test of two samples, normal approximation with tie correction: the z score of
 * "the values of `a` tend to be larger than those of `b`". Rank based, so a few outliers from a
 * busy machine move it little.
 */
export function mannWhitneyZ(a: readonly number[], b: readonly number[]): number {
  const all = [...a.map((value) => ({ value, inA: true })), ...b.map((value) => ({ value, inA: false }))];
  all.sort((x, y) => x.value - y.value);
  const n = all.length;
  let rankSumA = 0;
  let tieTerm = 0;
  for (let i = 0; i < n;) {
    let j = i;
    while (j + 1 < n && all[j + 1]!.value === all[i]!.value) j += 1;
    const rank = (i + j + 2) / 2;
    const size = j - i + 1;
    tieTerm += size ** 3 - size;
    for (let k = i; k <= j; k += 1) if (all[k]!.inA) rankSumA += rank;
    i = j + 1;
  }
  const n1 = a.length;
  const n2 = b.length;
  const u = rankSumA - (n1 * (n1 + 1)) / 2;
  const mean = (n1 * n2) / 2;
  const variance = ((n1 * n2) / 12) * (n + 1 - tieTerm / (n * (n - 1)));
  return (u - mean) / Math.sqrt(variance);
}

export const median = (values: readonly number[]) => {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = sorted.length / 2;
  return sorted.length % 2 ? sorted[Math.floor(middle)]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/**
 * Times two kinds of request alternately, in a random order within each pair, so that load on the
 * machine and any effect of going first fall on both sides alike; the first `warmUp` pairs are
 * not kept. `before` runs ahead of each request, outside the measured time.
 */
export async function timePairs<K extends string>(
  kinds: readonly [K, K],
  pairs: number,
  request: (kind: K) => Promise<void>,
  options: { warmUp?: number; before?: (kind: K) => Promise<void> | void } = {},
): Promise<Record<K, number[]>> {
  const warmUp = options.warmUp ?? 40;
  const times = { [kinds[0]]: [] as number[], [kinds[1]]: [] as number[] } as Record<K, number[]>;
  for (let i = 0; i < warmUp + pairs; i += 1) {
    const order = Math.random() < 0.5 ? kinds : ([kinds[1], kinds[0]] as const);
    for (const kind of order) {
      await options.before?.(kind);
      const started = process.hrtime.bigint();
      await request(kind);
      const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
      if (i >= warmUp) times[kind].push(elapsedMs);
    }
  }
  return times;
}
