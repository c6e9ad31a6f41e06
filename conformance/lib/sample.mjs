// Samples of arrays that cover every feature the fixtures use: each data-type family, codec,
// format, container and layout (v2 order F, big endian, the variants) in at least one array.
// A fresh process reading one sampled array uses each of its features for the first time, which
// the processes reading all arrays in a row cannot show (an earlier array has loaded it).

/** The features an array needs, as the sample covers them. */
export function featureKeys(entry) {
  const { dtype, codecs, extra } = entry.features;
  return [
    `format ${entry.formats[0]}`,
    `dtype ${dtype}`,
    ...codecs.map((c) => `codec ${c}`),
    ...extra,
    ...(entry.container === "zip" ? ["zip file"] : []),
  ];
}

/**
 * A small set of arrays covering every feature of the eligible arrays (greedy: each pick covers
 * the most features not covered yet; arrays with a reference first, then the earliest).
 * @param {{arrays: object[]}} plan
 * @param {(entry: object) => boolean} eligible
 * @returns {number[]} indices into plan.arrays
 */
export function coveringSample(plan, eligible = () => true) {
  const candidates = plan.arrays
    .map((entry, i) => ({ i, keys: featureKeys(entry), refs: entry.refs.length > 0 }))
    .filter(({ i }) => eligible(plan.arrays[i]));
  const uncovered = new Set(candidates.flatMap((c) => c.keys));
  const chosen = [];
  while (uncovered.size > 0) {
    let best;
    let bestScore = 0;
    for (const c of candidates) {
      const gain = c.keys.filter((k) => uncovered.has(k)).length;
      const score = gain === 0 ? 0 : gain * 2 + (c.refs ? 1 : 0);
      if (score > bestScore) {
        best = c;
        bestScore = score;
      }
    }
    if (!best) break;
    chosen.push(best.i);
    for (const k of best.keys) uncovered.delete(k);
  }
  return chosen.sort((a, b) => a - b);
}
