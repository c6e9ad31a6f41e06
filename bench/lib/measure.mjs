// Wall time and peak memory of one run.

import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

const MiB = 1024 * 1024;

/**
 * A full garbage collection. `node --expose-gc` provides `gc`; elsewhere (vitest) it is
 * enabled at run time, which V8 allows for functions created afterwards.
 */
export const collectGarbage = (() => {
  if (typeof globalThis.gc === "function") return globalThis.gc;
  try {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc");
    if (typeof gc === "function") return gc;
  } catch {
    // fall through: no collection between runs, the numbers are noisier
  }
  return () => {};
})();

/**
 * Collects garbage until the memory counters stop falling and returns them. One `gc()` is
 * not enough: V8 frees the backing stores of dead ArrayBuffers on a background thread, so
 * right after it `arrayBuffers` may still count (and later drop) hundreds of MiB, which
 * would make the next run's peak look smaller than its own result.
 */
export async function settleMemory() {
  let last = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 10; i++) {
    collectGarbage();
    await new Promise((resolve) => setTimeout(resolve, 10));
    const now = process.memoryUsage();
    const held = now.heapUsed + now.arrayBuffers;
    if (held >= last - 64 * 1024) return now;
    last = held;
  }
  return process.memoryUsage();
}

/**
 * Runs `fn` once after a full collection and measures its wall time and the peak memory above
 * the baseline taken just before it starts. Memory is sampled every `intervalMs` (the event
 * loop turns between chunks, so samples keep coming) and once more when `fn` resolves, while
 * its result is still alive. Three peaks: `peakMiB`, of the memory the run holds (V8 heap
 * plus ArrayBuffers, which include the data, the store's buffers and WebAssembly memories);
 * `peakRssMiB`, of the resident set, which undercounts once the allocator keeps freed pages
 * of earlier runs; and `peakArrayBuffersMiB`.
 * @returns {Promise<{seconds, peakMiB, peakRssMiB, peakArrayBuffersMiB, value}>}
 */
export async function measure(fn, intervalMs = 5) {
  const base = await settleMemory();
  const held = (m) => m.heapUsed + m.arrayBuffers;
  const baseHeld = held(base);
  let peakHeld = baseHeld;
  let peakRss = base.rss;
  let peakAb = base.arrayBuffers;
  const sample = () => {
    const m = process.memoryUsage();
    if (held(m) > peakHeld) peakHeld = held(m);
    if (m.rss > peakRss) peakRss = m.rss;
    if (m.arrayBuffers > peakAb) peakAb = m.arrayBuffers;
  };
  const timer = setInterval(sample, intervalMs);
  const start = performance.now();
  let value;
  let seconds;
  try {
    value = await fn();
  } finally {
    seconds = (performance.now() - start) / 1000;
    clearInterval(timer);
    sample();
  }
  return {
    seconds,
    peakMiB: (peakHeld - baseHeld) / MiB,
    peakRssMiB: (peakRss - base.rss) / MiB,
    peakArrayBuffersMiB: (peakAb - base.arrayBuffers) / MiB,
    value,
  };
}

/** The median of numbers. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
