import path from "node:path";
import { havePython, runPython, scratchFolders, startTestHttpServer } from "@z/test-utils";
import { describe, expect, it } from "vitest";
import { runBin } from "./support/run-bin.js";

// `zarr info --stats` in a fresh process, its numbers checked against NumPy's over arrays
// zarr-python 2 wrote: NaN, infinities, fill values, chunks never written, 64-bit integers
// beyond 2^53.

const scratch = scratchFolders("z-cli-stats-");
const python = havePython("zarr info --stats against NumPy", ["zarr", "numcodecs", "numpy"]);

/** The arrays, and what NumPy says of each (float64 mean and histogram, exact integer extremes). */
const WRITE_AND_MEASURE = `
import json, sys, numpy as np, numcodecs, zarr
root = sys.argv[1] if len(sys.argv) > 1 else None
g = zarr.open_group(ROOT, mode="w")
rng = np.random.default_rng(7)
f = rng.normal(size=(37, 23)) * 1e3
f[3, :5] = np.nan
f[10, 2] = np.inf
f[11, 3] = -np.inf
a = g.create_dataset("floats", shape=(50, 23), chunks=(8, 5), dtype="f8", fill_value=-2.5)
a[:37] = f  # rows 37.. stay missing chunks partly, read as the fill value
f32 = g.create_dataset("f32", shape=(40,), chunks=(7,), dtype="f4", fill_value=np.nan)
f32[:20] = (rng.normal(size=20) * 3).astype("f4")
big = np.array([2**62 + 1, -(2**62) - 3, 2**53 + 1, -1, 7, 2**63 - 1, -(2**63)], dtype="i8")
i8 = g.create_dataset("int64", shape=(12,), chunks=(3,), dtype="i8", fill_value=2**53 + 3)
i8[:7] = big
u8 = g.create_dataset("uint64", shape=(9,), chunks=(4,), dtype="u8", fill_value=0)
u8[:5] = np.array([2**64 - 1, 2**63 + 5, 1, 0, 2**53 + 1], dtype="u8")
small = g.create_dataset("int16", shape=(30, 4), chunks=(7, 3), dtype=">i2", fill_value=-7)
small[5:20] = rng.integers(-30000, 30000, size=(15, 4))
const = g.create_dataset("constant", shape=(10,), chunks=(4,), dtype="u1", fill_value=9)
nans = g.create_dataset("nans", shape=(6,), chunks=(4,), dtype="f8", fill_value=np.nan)
flags = g.create_dataset("flags", shape=(11,), chunks=(4,), dtype="bool", fill_value=True)
flags[:5] = [False, True, False, False, True]
g.create_dataset("complex", shape=(3,), dtype="c8")
out = {}
for name in ["floats", "f32", "int64", "uint64", "int16", "constant", "nans"]:
    v = g[name][...]
    finite = v[np.isfinite(v)] if v.dtype.kind == "f" else v
    num = lambda x: str(int(x)) if v.dtype.kind in "iu" else float(x)
    notnan = v[~np.isnan(v)] if v.dtype.kind == "f" else v
    h = np.histogram(finite.astype("f8"), bins=BINS) if finite.size else None
    with np.errstate(invalid="ignore"):
        mean = float(np.mean(notnan.astype("f8"))) if notnan.size else None
    out[name] = {
        "count": int(v.size),
        "nan_count": int(np.isnan(v).sum()) if v.dtype.kind == "f" else 0,
        "inf_count": int(np.isinf(v).sum()) if v.dtype.kind == "f" else 0,
        "min": num(notnan.min()) if notnan.size else None,
        "max": num(notnan.max()) if notnan.size else None,
        "mean": mean,
        "edges": None if h is None else [float(e) for e in h[1]],
        "counts": None if h is None else [int(c) for c in h[0]],
    }
v = g["flags"][...]
out["flags"] = {"count": int(v.size), "true": int(v.sum()), "mean": float(v.mean())}
print(json.dumps(out, allow_nan=True))
`;

function measure(root: string, bins: number) {
  const script = WRITE_AND_MEASURE.replace("ROOT", JSON.stringify(root)).replace(
    /BINS/g,
    String(bins),
  );
  return JSON.parse(
    runPython(script)
      .replace(/\bNaN\b/g, '"NaN"')
      .replace(/-Infinity/g, '"-Infinity"')
      .replace(/(?<!-)Infinity/g, '"Infinity"'),
  );
}

/** A JSON number or its string form ("NaN", "Infinity", a big integer) as text. */
const text = (v: unknown) => (v === null ? null : String(v));

/** A float as `zarr info --json` writes it, compared with NumPy's within a relative 1e-12. */
function closeTo(actual: unknown, expected: unknown): void {
  if (typeof expected !== "number" || typeof actual !== "number") {
    expect(text(actual)).toBe(text(expected));
    return;
  }
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(expected)));
}

async function stats(location: string, name: string, bins: number) {
  const result = await runBin([
    "info",
    location,
    "--path",
    name,
    "--stats",
    "--bins",
    String(bins),
    "--json",
  ]);
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout).stats;
}

describe.skipIf(!python)("zarr info --stats (a fresh process) against NumPy", () => {
  it.each([10, 3])(
    "gives NumPy's extremes, mean and histogram with %d bins",
    async (bins) => {
      const root = path.join(scratch(), "h.zarr");
      const expected = measure(root, bins);
      for (const name of ["floats", "f32", "int64", "uint64", "int16", "constant", "nans"]) {
        const want = expected[name];
        const got = await stats(root, name, bins);
        expect({ name, count: got.count, nan: got.nan_count, inf: got.inf_count }).toEqual({
          name,
          count: want.count,
          nan: want.nan_count,
          inf: want.inf_count,
        });
        // Extremes exact (64-bit integers beyond 2^53 as decimal strings).
        expect([name, text(got.min), text(got.max)]).toEqual([
          name,
          want.min === null ? null : String(want.min),
          want.max === null ? null : String(want.max),
        ]);
        closeTo(got.mean, want.mean);
        if (want.edges === null) {
          expect(got.histogram).toBeNull();
          continue;
        }
        expect([name, got.histogram.counts]).toEqual([name, want.counts]);
        expect(got.histogram.edges.length).toBe(bins + 1);
        got.histogram.edges.forEach((edge: number, i: number) => {
          expect(edge).toBe(want.edges[i]);
        });
      }
      const flags = await runBin(["info", root, "--path", "flags", "--stats", "--json"]);
      expect(JSON.parse(flags.stdout).stats).toEqual({
        count: expected.flags.count,
        true_count: expected.flags.true,
        false_count: expected.flags.count - expected.flags.true,
        min: false,
        max: true,
        mean: expected.flags.mean,
      });
    },
    120_000,
  );

  it("reads over HTTP the same, and says why complex arrays and groups have no statistics", async () => {
    const root = path.join(scratch(), "h.zarr");
    measure(root, 10);
    const server = await startTestHttpServer({ root });
    try {
      const local = await stats(root, "int64", 10);
      expect(await stats(server.url, "int64", 10)).toEqual(local);
    } finally {
      await server.stop();
    }
    const complex = await runBin(["info", root, "--path", "complex", "--stats"]);
    expect(complex.code).toBe(1);
    expect(complex.stderr).toMatch(
      /StatsUnsupportedError: \/complex is complex64: complex numbers have no order/,
    );
    const group = await runBin(["info", root, "--stats"]);
    expect(group.code).toBe(2);
    expect(group.stderr).toMatch(/--stats needs an array; \/ is a group/);
    const bins = await runBin(["info", root, "--path", "int16", "--bins", "4"]);
    expect(bins.code).toBe(2);
    expect(bins.stderr).toMatch(/--bins needs --stats/);
    const table = await runBin(["info", root, "--path", "int16", "--stats", "--bins", "2"]);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/Min +: -?\d+\n/);
    expect(table.stdout).toMatch(/Histogram +: 2 bins of the finite values\n/);
  }, 60_000);
});
