/**
 * A histogram of equal-width bins over `[first, last]`, counted the way NumPy's
 * `numpy.histogram(values, bins)` counts float64 values: edges from `numpy.linspace`, each
 * value's bin computed from its offset and then corrected by comparing it with the edges, every
 * bin half-open except the last, which holds `last` too. Values outside the range (and NaN)
 * are not counted. As NumPy does, a range of one value is widened to `[v - 0.5, v + 0.5]`.
 */
export class Histogram {
  /** The bin edges, `bins + 1` of them. */
  readonly edges: number[];
  /** The count of each bin. */
  readonly counts: number[];
  private readonly first: number;
  private readonly last: number;
  private readonly norm: number;

  constructor(first: number, last: number, bins: number) {
    if (first === last) {
      first -= 0.5;
      last += 0.5;
    }
    this.first = first;
    this.last = last;
    this.norm = bins / (last - first);
    // numpy.linspace(first, last, bins + 1): i * step + first, the last edge exactly `last`.
    const delta = last - first;
    const step = delta / bins;
    this.edges = Array.from({ length: bins + 1 }, (_, i) =>
      step === 0 ? (i / bins) * delta + first : i * step + first,
    );
    this.edges[bins] = last;
    this.counts = new Array<number>(bins).fill(0);
  }

  /** Counts one value. */
  add(value: number): void {
    if (!(value >= this.first && value <= this.last)) return;
    const bins = this.counts.length;
    // NumPy multiplies by bins / (last - first); over a range of a few subnormals that factor
    // is infinite (0 times it is NaN), so the offset is divided by the range there instead.
    const offset = value - this.first;
    let index = Math.trunc(
      Number.isFinite(this.norm) ? offset * this.norm : (offset / (this.last - this.first)) * bins,
    );
    if (index >= bins) index = bins - 1;
    // The offset can miss an edge by an ulp either way: the edges decide.
    if (value < this.edges[index]) index--;
    else if (index !== bins - 1 && value >= this.edges[index + 1]) index++;
    this.counts[index]++;
  }
}
