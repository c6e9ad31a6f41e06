/** The shapes a rechunk's regions are planned from (element counts per axis). */
export interface RegionInputs {
  /** The array's shape. */
  shape: readonly number[];
  /** Bytes per element. */
  itemSize: number;
  /** The source's chunks as read (inner chunks of a sharded source). */
  sourceChunks: readonly number[];
  /** The destination's unit of writing: its shards, or its chunks when not sharded. */
  writeUnit: readonly number[];
  /** The memory the regions in flight may take, in bytes. */
  budget: number;
  /** The most regions in flight (default 4). */
  maxConcurrency?: number;
}

/** How a rechunk copies one array. */
export interface RegionPlan {
  /** Write units per region along each axis. */
  regionChunks: number[];
  /** Regions copied at once. */
  concurrency: number;
  /** The memory one region is expected to take, in bytes. */
  regionBytes: number;
  /** Whether each region holds whole source chunks, so each is decoded once. */
  aligned: boolean;
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** The bytes of a box of `extents` clipped to the array. */
function boxBytes(extents: readonly number[], shape: readonly number[], itemSize: number): number {
  return extents.reduce(
    (bytes, n, axis) => bytes * Math.min(n, Math.max(shape[axis], 1)),
    itemSize,
  );
}

/**
 * The memory one region of `regionChunks` write units takes until the garbage collector runs
 * after it: the region itself, its source chunks decoded and its destination chunks cut out of
 * it (each about the region's size, dead but not yet collected), one source chunk read and
 * decoded at a time, and one write unit encoded (its bytes and the buffer they are gathered
 * in).
 */
export function regionCost(inputs: RegionInputs, regionChunks: readonly number[]): number {
  const { shape, itemSize, writeUnit } = inputs;
  const region = boxBytes(
    regionChunks.map((k, axis) => k * writeUnit[axis]),
    shape,
    itemSize,
  );
  return (
    3 * region +
    2 * boxBytes(inputs.sourceChunks, shape, itemSize) +
    2 * boxBytes(writeUnit, shape, itemSize)
  );
}

/**
 * Plans the regions a rechunk copies at a time, so the memory in flight stays within the
 * budget whatever the chunk shapes. A region is a box of whole write units (so every stored
 * object is written once, without reading it back). Best is the smallest box that is also
 * made of whole source chunks along every axis (the least common multiple of the two chunk
 * extents, or the whole axis): every source chunk is then decoded exactly once. When that box
 * does not fit, the region grows from one write unit towards it, axis by axis, the axis
 * furthest from it first, as far as the budget allows; source chunks that straddle regions
 * are then decoded once per region they reach (more time, not more memory). Regions that fit
 * several times run side by side, up to `maxConcurrency`.
 * @returns undefined when even one write unit with one source chunk exceeds the budget
 */
export function planRegions(inputs: RegionInputs): RegionPlan | undefined {
  const { shape, writeUnit, sourceChunks, budget } = inputs;
  const units = shape.map((n, axis) => Math.max(1, Math.ceil(n / writeUnit[axis])));
  // Write units per axis in the smallest region aligned to both grids.
  const ideal = shape.map((n, axis) => {
    const a = writeUnit[axis];
    const b = sourceChunks[axis];
    const lcm = (a / gcd(a, b)) * b;
    return Math.min(units[axis], Math.ceil(Math.min(lcm, n) / a));
  });
  const fits = (k: readonly number[]) => regionCost(inputs, k) <= budget;
  let chosen = ideal;
  if (!fits(ideal)) {
    const k = shape.map(() => 1);
    if (!fits(k)) return undefined;
    const open = new Set(k.map((_, axis) => axis).filter((axis) => k[axis] < ideal[axis]));
    while (open.size > 0) {
      const axis = [...open].reduce((a, b) => (ideal[b] / k[b] > ideal[a] / k[a] ? b : a));
      const grown = [...k];
      grown[axis] = Math.min(ideal[axis], k[axis] * 2);
      if (!fits(grown)) grown[axis] = k[axis] + 1;
      if (fits(grown)) k.splice(0, k.length, ...grown);
      if (!fits(grown) || k[axis] >= ideal[axis]) open.delete(axis);
    }
    chosen = k;
  }
  const regionBytes = regionCost(inputs, chosen);
  return {
    regionChunks: chosen,
    concurrency: Math.max(
      1,
      Math.min(inputs.maxConcurrency ?? 4, Math.floor(budget / regionBytes)),
    ),
    regionBytes,
    aligned: chosen.every((k, axis) => k === ideal[axis]),
  };
}
