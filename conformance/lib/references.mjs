// The reference values every way of reading is compared with, computed once and cached by the
// fixtures' content (and the readers'), so that every Node run on a machine (CI runs the suite on
// two Node versions) reuses them:
// - the fixtures' own expected values (zarrita, zarr-python-v2, numcodecs .npy files);
// - for the arrays without them (external/, the zip files of other projects, the numcodecs
//   golden files built into v2 arrays): zarr-python 2 (reference_zarr2.py, one process for all
//   v2 arrays) and zarrita from npm (reference-zarrita.mjs, one process, v2 and v3).
// The result is a plan: every array with its distinct readings (canonical values, see
// values.mjs), the readers that failed, and whether the readers disagree.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { discoverArrays } from "./discover.mjs";
import { numcodecsStatuses, writeNumcodecsArrays } from "./numcodecs-arrays.mjs";
import { canonicalValues, difference } from "./values.mjs";
import { pairedReading, writeVariants } from "./variants.mjs";
import { unzipTo } from "./zip-entries.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const SUITE = path.dirname(here);
const PYTHON_SCRIPT = path.join(SUITE, "reference_zarr2.py");
const ZARRITA_SCRIPT = path.join(here, "reference-zarrita.mjs");
/** numcodecs codecs whose decoding does not give back the encoded array. */
const LOSSY = new Set(["fixedscaleoffset", "quantize", "astype", "zfpy", "bitround"]);
/** Codec objects of a metadata document (v3 codecs, sharding's inner codecs, v2 filters and compressor). */
function codecObjects(doc, out = []) {
  if (Array.isArray(doc)) for (const item of doc) codecObjects(item, out);
  else if (doc && typeof doc === "object") {
    if (typeof doc.name === "string" || typeof doc.id === "string") out.push(doc);
    for (const value of Object.values(doc)) codecObjects(value, out);
  }
  return out;
}

/**
 * Features a reference reader is known not to implement, found in its own code: its reading of
 * an array using one is set aside (counted, with the reason) rather than trusted.
 */
const READER_LIMITS = [
  {
    reader: "zarrita",
    why: "zarrita reads float16 only where Float16Array exists (Node >= 24): set aside so the references do not depend on the Node that computed them",
    applies: (docs) =>
      docs.some((d) => d.data_type === "float16" || /^[<>|=]?f2$/.test(String(d.dtype))),
  },
  {
    reader: "zarrita",
    why: "zarrita 0.7.5 reads every shard index from the end of the shard (index_location is not read)",
    applies: (doc) => codecObjects(doc).some((c) => c.configuration?.index_location === "start"),
  },
  {
    reader: "zarrita",
    why: "zarrita 0.7.5's numcodecs.delta ignores astype",
    applies: (doc) =>
      codecObjects(doc).some((c) => {
        const config = c.configuration ?? c;
        return /delta$/.test(c.name ?? c.id) && config.astype && config.astype !== config.dtype;
      }),
  },
];

/** The array's metadata documents as one object (what the reader limits look at). */
function metadataOf(folder) {
  const docs = [];
  for (const name of ["zarr.json", ".zarray"]) {
    try {
      docs.push(JSON.parse(readFileSync(path.join(folder, name), "utf8")));
    } catch {}
  }
  return docs;
}

/**
 * Where the references and the runs' outcomes are kept: `$ZARR_CONFORMANCE_CACHE`, else
 * `node_modules/.cache/z-conformance` of the repository (kept between CI's two Node runs).
 */
export function conformanceCacheRoot(repositoryRoot) {
  return (
    process.env.ZARR_CONFORMANCE_CACHE ??
    path.join(repositoryRoot, "node_modules", ".cache", "z-conformance")
  );
}

/** The fixture folders the suite reads (and whose content keys the cache). */
const READ_FOLDERS = ["zarrita", "zarr-python-v2", "numcodecs", "external", "expected"];

function hashFolder(hash, dir, base) {
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) hashFolder(hash, full, base);
    else {
      hash.update(`${path.relative(base, full)}\0`);
      hash.update(readFileSync(full));
    }
  }
}

function run(command, args, input) {
  return new Promise((resolve) => {
    const child = execFile(
      command,
      args,
      { maxBuffer: 1 << 28, encoding: "utf8" },
      (error, stdout, stderr) => resolve({ error, stdout, stderr }),
    );
    if (input !== undefined) child.stdin.end(input);
  });
}

/** What the Python reference can be: its zarr and NumPy versions, or why it cannot run. */
async function pythonVersion(python) {
  if (!existsSync(python)) return { missing: `${python} not found` };
  const { error, stdout, stderr } = await run(python, [
    "-c",
    "import zarr, numcodecs, numpy; print(zarr.__version__, numcodecs.__version__, numpy.__version__)",
  ]);
  if (error) return { missing: `${python} cannot import zarr: ${stderr.trim().split("\n").pop()}` };
  return { version: stdout.trim() };
}

/**
 * The cache key: the fixtures' content, the reference scripts and these modules, and the
 * readers' versions (not Node's: the references are the same whichever Node computes them).
 */
function cacheKey(fixturesDir, python) {
  const hash = createHash("sha256");
  for (const folder of READ_FOLDERS) {
    const dir = path.join(fixturesDir, folder);
    if (existsSync(dir)) hashFolder(hash, dir, fixturesDir);
  }
  for (const file of readdirSync(here).sort()) hash.update(readFileSync(path.join(here, file)));
  hash.update(readFileSync(PYTHON_SCRIPT));
  hash.update(JSON.stringify(python));
  hash.update(zarritaVersion());
  return hash.digest("hex").slice(0, 20);
}

/** The version of the zarrita package the reference child imports. */
export function zarritaVersion() {
  let dir = path.dirname(fileURLToPath(import.meta.resolve("zarrita")));
  for (;;) {
    const file = path.join(dir, "package.json");
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, "utf8"));
      if (pkg.name === "zarrita") return pkg.version;
    }
    if (path.dirname(dir) === dir) return "unknown";
    dir = path.dirname(dir);
  }
}

/** Waits for, or takes, the lock folder of a cache entry (another test file may be computing it). */
async function lock(dir) {
  const lockDir = `${dir}.lock`;
  for (;;) {
    try {
      mkdirSync(lockDir);
      return () => rmSync(lockDir, { recursive: true, force: true });
    } catch (error) {
      if (error.code !== "EEXIST") throw error;
      // A lock older than ten minutes belongs to a process that died.
      if (Date.now() - statSync(lockDir, { throwIfNoEntry: false })?.mtimeMs > 600_000)
        rmSync(lockDir, { recursive: true, force: true });
      if (existsSync(path.join(dir, "plan.json"))) return () => {};
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

/** The readings of the fixtures' own expected values for one array folder. */
function expectedReadings(expectedDir) {
  return readdirSync(expectedDir)
    .filter((f) => /^_expected.*\.json$/.test(f))
    .sort()
    .map((f) => {
      const doc = JSON.parse(readFileSync(path.join(expectedDir, f), "utf8"));
      const reader = f === "_expected.json" ? "zarr-python 2.13" : f.slice(10, -5);
      return {
        reader: `${reader} (fixtures' expected)`,
        shape: doc.shape,
        dtype: doc.dtype,
        values: doc.values_c_order,
      };
    });
}

/**
 * Computes (or loads from the cache) the plan: every array with its reference readings.
 * @param {{fixturesDir: string, cacheRoot: string, python?: string, log?: (line: string) => void}} options
 */
export async function preparePlan({
  fixturesDir,
  cacheRoot,
  python = "/usr/bin/python3",
  log = () => {},
}) {
  const started = Date.now();
  const pythonInfo = await pythonVersion(python);
  const key = cacheKey(fixturesDir, pythonInfo);
  const dir = path.join(cacheRoot, key);
  const planFile = path.join(dir, "plan.json");
  if (existsSync(planFile)) {
    log(`references: reused ${dir} (${Date.now() - started} ms)`);
    return JSON.parse(readFileSync(planFile, "utf8"));
  }
  mkdirSync(cacheRoot, { recursive: true });
  const unlock = await lock(dir);
  try {
    if (existsSync(planFile)) return JSON.parse(readFileSync(planFile, "utf8"));
    const work = `${dir}.tmp-${process.pid}`;
    rmSync(work, { recursive: true, force: true });
    mkdirSync(work, { recursive: true });
    const plan = await computePlan(fixturesDir, work, dir, python, pythonInfo, log);
    writeFileSync(path.join(work, "plan.json"), JSON.stringify(plan));
    rmSync(dir, { recursive: true, force: true });
    renameSync(work, dir);
    // Older entries are left by earlier fixtures or scripts: keep the newest few.
    const entries = readdirSync(cacheRoot)
      .filter((name) => /^[0-9a-f]{20}$/.test(name) && name !== key)
      .map((name) => ({ name, mtime: statSync(path.join(cacheRoot, name)).mtimeMs }))
      .sort((a, b) => b.mtime - a.mtime);
    for (const old of entries.slice(2))
      rmSync(path.join(cacheRoot, old.name), { recursive: true, force: true });
    log(`references: computed into ${dir} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return plan;
  } finally {
    unlock();
  }
}

/**
 * Paths inside `work` are written as they will be once `work` is renamed to `final`, so the
 * plan can be read by the children that use the cache.
 */
async function computePlan(fixturesDir, work, final, python, pythonInfo, log) {
  const inFinal = (p) => path.join(final, path.relative(work, p));
  const fixtureArrays = discoverArrays(fixturesDir);
  // Zip files are unpacked (by zip-entries.mjs, not the library) for the reference readers.
  const unzipped = new Map();
  for (const a of fixtureArrays) {
    if (a.container !== "zip" || unzipped.has(a.location)) continue;
    const folder = path.join(work, "unzipped", path.relative(fixturesDir, a.location));
    unzipTo(a.location, folder);
    unzipped.set(a.location, folder);
  }
  const numcodecsFolder = path.join(work, "numcodecs");
  const numcodecs = writeNumcodecsArrays(fixturesDir, numcodecsFolder);
  const statuses = numcodecsStatuses(fixturesDir);

  const variants = writeVariants(fixtureArrays, path.join(work, "variants"));

  const arrays = [
    ...fixtureArrays.map((a) => ({
      ...a,
      refRoot:
        a.container === "zip" ? path.join(unzipped.get(a.location), a.zipPrefix) : a.location,
    })),
    ...numcodecs.map((c) => ({
      id: c.id,
      source: "numcodecs",
      container: "folder",
      location: inFinal(c.folder),
      path: "",
      formats: [2],
      features: c.features,
      refRoot: c.folder,
      npyFile: c.npyFile,
      codec: c.codec,
      numcodecsStatus: statuses.get(c.statusKey),
    })),
    ...variants.map((v) => ({
      id: v.id,
      source: `variants: ${v.kind}`,
      container: "folder",
      location: inFinal(v.folder),
      path: "",
      formats: [v.format],
      features: v.features,
      refRoot: v.folder,
      variantOf: v.of,
      pairs: v.pairs,
    })),
  ];

  // Jobs for the readers: every array without the fixtures' own values.
  const out = path.join(work, "readings");
  mkdirSync(out, { recursive: true });
  const pythonJobs = [];
  const zarritaJobs = [];
  arrays.forEach((a, n) => {
    if (a.expectedDir) return;
    if (a.formats.includes(2))
      pythonJobs.push({
        id: a.id,
        kind: "zarr",
        root: a.refRoot,
        path: a.path,
        out: path.join(out, `${n}.zarr2.json`),
      });
    if (a.npyFile)
      pythonJobs.push({
        id: `${a.id}#npy`,
        kind: "npy",
        file: a.npyFile,
        out: path.join(out, `${n}.npy.json`),
      });
    else
      zarritaJobs.push({
        id: a.id,
        root: a.refRoot,
        path: a.path,
        format: a.formats[0],
        out: path.join(out, `${n}.zarrita.json`),
      });
  });
  const jobsFile = path.join(work, "zarrita-jobs.json");
  writeFileSync(jobsFile, JSON.stringify(zarritaJobs));
  log(`references: ${pythonJobs.length} zarr-python jobs, ${zarritaJobs.length} zarrita jobs`);
  const [py, zr] = await Promise.all([
    pythonInfo.version
      ? run(python, [PYTHON_SCRIPT], JSON.stringify(pythonJobs))
      : Promise.resolve({ error: new Error(pythonInfo.missing) }),
    run(process.execPath, [ZARRITA_SCRIPT, jobsFile]),
  ]);
  const readerFailure = {};
  if (py.error)
    readerFailure.python =
      `zarr-python: ${py.error.message.split("\n")[0]} ${py.stderr ?? ""}`.trim();
  if (zr.error)
    readerFailure.zarrita = `zarrita: ${zr.error.message.split("\n")[0]} ${zr.stderr ?? ""}`.trim();

  const refsDir = path.join(work, "refs");
  mkdirSync(refsDir, { recursive: true });
  // Every reader's readings of every array first: a complex view also takes its original's.
  const all = arrays.map((a, n) => {
    const readings = [];
    const failures = [];
    if (a.expectedDir) readings.push(...expectedReadings(a.expectedDir));
    for (const suffix of ["npy", "zarr2", "zarrita"]) {
      const file = path.join(out, `${n}.${suffix}.json`);
      if (!existsSync(file)) continue;
      const doc = JSON.parse(readFileSync(file, "utf8"));
      const limit =
        suffix === "zarrita" &&
        READER_LIMITS.find((l) => l.applies(metadataOf(path.join(a.refRoot, a.path))));
      if (limit) failures.push(`${doc.reader}: set aside: ${limit.why}`);
      else if (doc.error) failures.push(`${doc.reader}: ${doc.error}`);
      else if (suffix === "npy" && LOSSY.has(a.codec))
        // What numcodecs encoded, not what decoding gives back.
        failures.push(`${doc.reader}: not a reference (${a.codec} is lossy)`);
      else readings.push(doc);
    }
    return { readings, failures };
  });
  const indexOf = new Map(arrays.map((a, n) => [a.id, n]));
  const planned = arrays.map((a, n) => {
    const { readings, failures } = all[n];
    if (a.pairs) {
      const original = all[indexOf.get(a.variantOf)];
      for (const r of original.readings) readings.push(pairedReading(r, a.pairs));
    }
    // Distinct readings: readers that agree share one canonical file.
    const groups = [];
    for (const r of readings) {
      const canon = canonicalValues(r.values, r.dtype);
      const same = groups.find((g) => difference(g.shape, g.canon, r.shape, canon) === undefined);
      if (same) same.readers.push(r.reader);
      else groups.push({ readers: [r.reader], shape: r.shape, dtype: r.dtype, canon });
    }
    const disagreement =
      groups.length > 1
        ? groups
            .slice(1)
            .map(
              (g) =>
                `${g.readers.join(", ")} vs ${groups[0].readers.join(", ")}: ${difference(g.shape, g.canon, groups[0].shape, groups[0].canon)}`,
            )
            .join("; ")
        : undefined;
    const refs = groups.map((g, k) => {
      const file = path.join(refsDir, `${n}.${k}.json`);
      writeFileSync(file, JSON.stringify({ shape: g.shape, dtype: g.dtype, canon: g.canon }));
      return { file: inFinal(file), readers: g.readers, shape: g.shape, dtype: g.dtype };
    });
    const { refRoot: _r, expectedDir: _e, npyFile: _n, codec: _c, pairs: _p, ...rest } = a;
    return { ...rest, refs, failures, disagreement };
  });
  return {
    key: path.basename(final),
    dir: final,
    readers: {
      python: pythonInfo.version
        ? `zarr-python ${pythonInfo.version.split(" ")[0]} (${python})`
        : pythonInfo.missing,
      zarrita: `zarrita ${zarritaVersion()} (npm)`,
      failures: readerFailure,
    },
    arrays: planned,
  };
}
