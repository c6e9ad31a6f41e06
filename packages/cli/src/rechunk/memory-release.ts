import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

let collector: (() => void) | null | undefined;

/**
 * V8's full garbage collection, exposed on first use (or undefined where it cannot be).
 * Decoded chunks live in ArrayBuffers outside the JavaScript heap, which V8 collects only
 * when the heap itself is under pressure: a copy that allocates far more outside the heap than
 * in it would otherwise hold hundreds of megabytes of dead buffers between collections.
 */
function fullCollection(): (() => void) | undefined {
  if (collector === undefined) {
    try {
      setFlagsFromString("--expose-gc");
      collector = runInNewContext("gc") as () => void;
    } catch {
      collector = null;
    }
  }
  return collector ?? undefined;
}

/**
 * Collects garbage once `threshold` bytes of regions have been copied since the last
 * collection, so the dead buffers of a rechunk never outgrow its memory budget.
 */
export class MemoryRelease {
  private since = 0;
  constructor(private readonly threshold: number) {}

  /** Counts a region of `bytes` done, and collects when enough have been. */
  regionDone(bytes: number): void {
    this.since += bytes;
    if (this.since < this.threshold) return;
    this.since = 0;
    fullCollection()?.();
  }
}
