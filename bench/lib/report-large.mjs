// Text tables of the large case (file system, three libraries) and of the browser bench.
import { table } from "./report-python.mjs";

const fmt = (value, digits = 2) =>
  value === undefined || value === null || Number.isNaN(value) ? "n/a" : value.toFixed(digits);
const ratioText = (a, b) => (a > 0 && b > 0 ? `${(a / b).toFixed(2)}x` : "n/a");

/** A size in GiB from 1 GiB on, else in MiB. */
function sizeText(bytes) {
  return bytes >= 2 ** 30 ? `${fmt(bytes / 2 ** 30)} GiB` : `${fmt(bytes / 2 ** 20)} MiB`;
}

/** GB/s, with more digits for the small test sizes. */
const gbText = (stat) => fmt(stat?.gbPerSec, stat?.gbPerSec < 0.1 ? 4 : 2);

/** Stored megabytes, with more digits below 10. */
const storedText = (bytes) => fmt(bytes / 1e6, bytes < 1e7 ? 2 : 0);

/** How an array of the large case is chunked, in words. */
function layoutText(result) {
  return result.shards
    ? `${result.shards.join("x")} shards of ${result.chunks.join("x")} zstd chunks`
    : `${result.chunks.join("x")} zstd chunks`;
}

/** The large case: GB/s of the median run per library, and the ratios. */
export function formatLargeReport(large) {
  const out = [
    `Large read-all (the zarrs benchmark suite's arrays): uint16 [${large.shape}] (${sizeText(large.bytes)}) from the file system;`,
    "every run opens the array and reads it whole; GB/s = 10^9 bytes/s of the median run; zstd level 0.",
    "zarr-python 2 reads neither v3 nor sharding: its column is the zstd array as v2 (the same chunk",
    "files, hard-linked under v2 keys); n/a for the sharded one. Peak: ours and zarrita the most memory",
    "held above the baseline (V8 heap + ArrayBuffers), zarr-python 2 its peak RSS above the one before the read.",
    "",
  ];
  out.push(
    table([
      [
        "array",
        "stored MB",
        "ours GB/s",
        "zarrita GB/s",
        "zarr-python 2 GB/s",
        "ours/zarrita",
        "ours/zarr-python 2",
        "peak MiB ours / zarrita / zarr-python 2",
      ],
      ...large.results.map((r) => [
        layoutText(r),
        storedText(r.storedBytes),
        gbText(r.ours),
        gbText(r.zarrita),
        gbText(r.python),
        ratioText(r.ours?.gbPerSec, r.zarrita?.gbPerSec),
        ratioText(r.ours?.gbPerSec, r.python?.gbPerSec),
        [r.ours, r.zarrita, r.python].map((s) => fmt(s?.peakMiB, 0)).join(" / "),
      ]),
    ]),
  );
  return out.join("\n");
}

/** Whether the page was cross-origin isolated, and which of our results lay in shared memory. */
function sharedText(browser) {
  if (!browser.isolated)
    return "on a page that is not cross-origin isolated (results in ordinary memory),";
  const shared = browser.results.filter((r) => r.sharedResult).map((r) => r.variant);
  const into = shared.length
    ? `the workers copied chunks straight into our ${shared.join(" and ")} results (SharedArrayBuffer)`
    : "none of our results in shared memory";
  return `on a cross-origin isolated page: ${into},`;
}

/** The browser bench: GB/s of the median run, ours (with workers) against zarrita. */
export function formatBrowserReport(browser) {
  const out = [
    `Browser read-all: uint16 [${browser.edge},${browser.edge},${browser.edge}] (${sizeText(browser.bytes)}) over HTTP from 127.0.0.1, in Chromium ${browser.chromium};`,
    `ours decodes in ${browser.workers} (${browser.pool.workers} started, ${browser.pool.dispatched} chunks decoded there),`,
    sharedText(browser),
    `zarrita on the page's thread with ${browser.zarritaConcurrency} chunk reads in flight (its createQueue option);`,
    "every run opens the array and reads it whole; GB/s = 10^9 bytes/s of the median run.",
    "",
  ];
  out.push(
    table([
      ["array", "stored MB", "ours GB/s", "zarrita GB/s", "ours/zarrita"],
      ...browser.results.map((r) => [
        layoutText(r),
        storedText(r.storedBytes),
        gbText(r.ours),
        gbText(r.zarrita),
        ratioText(r.ours?.gbPerSec, r.zarrita?.gbPerSec),
      ]),
    ]),
  );
  return out.join("\n");
}
