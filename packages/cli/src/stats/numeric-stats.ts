import { Histogram } from "./histogram.js";

/** The element arrays statistics are taken over (one chunk's elements at a time). */
export type NumericData = ArrayLike<number> | BigInt64Array | BigUint64Array;

/** What the values of an array are, for statistics. */
export type StatsKind = "int" | "float" | "bool";

/**
 * The statistics of an array: exact integer extremes (bigints for 64-bit types), the mean
 * in float64, NaN and infinity counts, and a histogram of the finite values.
 */
export interface NumericStats {
  /** What was counted: integers, floats or booleans. */
  kind: StatsKind;
  /** Elements seen, NaN included. */
  count: number;
  /** NaN elements (floats only). */
  nanCount: number;
  /** Infinite elements (floats only). */
  infCount: number;
  /** True elements (booleans only; 0 otherwise). */
  trueCount: number;
  /** The least value other than NaN (null when there is none). */
  min: number | bigint | null;
  /** The greatest value other than NaN (null when there is none). */
  max: number | bigint | null;
  /** The mean of the values other than NaN, in float64 (null when there are none). */
  mean: number | null;
  /** The histogram of the finite values, as float64 (null when there are none, or for booleans). */
  histogram: { edges: number[]; counts: number[] } | null;
}

/** Integer sums are kept in a float while it is exact and moved to a bigint before it is not. */
const EXACT = 2 ** 52;

/**
 * The first pass over an array's values: count, NaN and infinity counts, extremes (of all
 * values other than NaN, and of the finite ones, which the histogram spans), and an exact sum
 * (a bigint for integers; a compensated float64 sum of the finite values for floats).
 */
export class StatsAccumulator {
  count = 0;
  nanCount = 0;
  posInf = 0;
  negInf = 0;
  trueCount = 0;
  min: number | bigint | null = null;
  max: number | bigint | null = null;
  finiteMin = Number.POSITIVE_INFINITY;
  finiteMax = Number.NEGATIVE_INFINITY;
  private bigSum = 0n;
  private sum = 0;
  private compensation = 0;

  constructor(readonly kind: StatsKind) {}

  /** Takes in one chunk's values. */
  add(data: NumericData): void {
    this.count += data.length;
    if (data instanceof BigInt64Array || data instanceof BigUint64Array) this.addBig(data);
    else if (this.kind === "float") this.addFloats(data);
    else this.addIntegers(data);
  }

  private addBig(data: BigInt64Array | BigUint64Array): void {
    if (data.length === 0) return;
    let min = (this.min as bigint | null) ?? data[0];
    let max = (this.max as bigint | null) ?? data[0];
    let sum = 0n;
    for (const v of data) {
      if (v < min) min = v;
      if (v > max) max = v;
      sum += v;
    }
    this.min = min;
    this.max = max;
    this.bigSum += sum;
    this.finiteMin = Math.min(this.finiteMin, Number(min));
    this.finiteMax = Math.max(this.finiteMax, Number(max));
  }

  private addIntegers(data: ArrayLike<number>): void {
    if (data.length === 0) return;
    let min = (this.min as number | null) ?? data[0];
    let max = (this.max as number | null) ?? data[0];
    let sum = this.sum;
    let trues = 0;
    for (let i = 0; i < data.length; i++) {
      const v = data[i];
      if (v < min) min = v;
      if (v > max) max = v;
      if (v !== 0) trues++;
      sum += v;
      // Elements are at most 2^32 in size, so the sum stays exact below 2^53.
      if (sum > EXACT || sum < -EXACT) {
        this.bigSum += BigInt(sum);
        sum = 0;
      }
    }
    this.sum = sum;
    this.trueCount += trues;
    this.min = min;
    this.max = max;
    this.finiteMin = min;
    this.finiteMax = max;
  }

  private addFloats(data: ArrayLike<number>): void {
    let { sum, compensation, finiteMin, finiteMax } = this;
    let nan = 0;
    for (let i = 0; i < data.length; i++) {
      const v = data[i];
      if (Number.isNaN(v)) {
        nan++;
      } else if (v === Number.POSITIVE_INFINITY) {
        this.posInf++;
      } else if (v === Number.NEGATIVE_INFINITY) {
        this.negInf++;
      } else {
        if (v < finiteMin) finiteMin = v;
        if (v > finiteMax) finiteMax = v;
        // Neumaier's compensated sum.
        const t = sum + v;
        compensation += Math.abs(sum) >= Math.abs(v) ? sum - t + v : v - t + sum;
        sum = t;
      }
    }
    Object.assign(this, { sum, compensation, finiteMin, finiteMax });
    this.nanCount += nan;
    const min = this.negInf > 0 ? Number.NEGATIVE_INFINITY : finiteMin;
    const max = this.posInf > 0 ? Number.POSITIVE_INFINITY : finiteMax;
    if (min <= max) {
      this.min = min;
      this.max = max;
    }
  }

  /** The mean of the values other than NaN, or null when there are none. */
  mean(): number | null {
    const n = this.count - this.nanCount;
    if (n === 0) return null;
    if (this.kind !== "float") {
      const total = this.bigSum + BigInt(this.sum);
      const whole = total / BigInt(n);
      return Number(whole) + Number(total - whole * BigInt(n)) / n;
    }
    if (this.posInf > 0 && this.negInf > 0) return Number.NaN;
    if (this.posInf > 0) return Number.POSITIVE_INFINITY;
    if (this.negInf > 0) return Number.NEGATIVE_INFINITY;
    return (this.sum + this.compensation) / n;
  }

  /** An empty histogram of `bins` bins over the finite values, or undefined when there are none. */
  histogram(bins: number): Histogram | undefined {
    if (this.kind === "bool" || !(this.finiteMin <= this.finiteMax)) return undefined;
    return new Histogram(this.finiteMin, this.finiteMax, bins);
  }

  /** The statistics, with the histogram filled by the second pass. */
  result(histogram: Histogram | undefined): NumericStats {
    const bool = this.kind === "bool";
    return {
      kind: this.kind,
      count: this.count,
      nanCount: this.nanCount,
      infCount: this.posInf + this.negInf,
      trueCount: bool ? this.trueCount : 0,
      min: this.min,
      max: this.max,
      mean: this.mean(),
      histogram: histogram ? { edges: histogram.edges, counts: histogram.counts } : null,
    };
  }
}

/** Counts one chunk's values into a histogram (the second pass). */
export function addToHistogram(histogram: Histogram, data: NumericData): void {
  if (data instanceof BigInt64Array || data instanceof BigUint64Array) {
    for (const v of data) histogram.add(Number(v));
    return;
  }
  for (let i = 0; i < data.length; i++) histogram.add(data[i]);
}
