// Command-line and environment options of the benchmark.

/** Volume sizes: the issue's 256 MiB volume, a quick 32 MiB one, and a tiny one for tests. */
export const SIZES = {
  full: [256, 512, 512],
  small: [64, 256, 512],
  tiny: [64, 128, 128],
};

/** The operations, in the order they run. */
export const OPS = [
  "write",
  "read",
  "chunk",
  "python",
  "sharded",
  "strings",
  "cache",
  "large",
  "browser",
];

/**
 * The operations a run does when `--ops` is not given: all but the 2 GiB case (`large`, minutes
 * of generation once, then about a minute per library and variant) and the browser (`browser`).
 */
export const DEFAULT_OPS = ["write", "read", "chunk", "python", "sharded", "strings", "cache"];

/**
 * Edge of the cubic uint16 arrays of `large` and `browser` per `--size`: 1024³ (2 GiB) as in the
 * zarrs benchmark suite, and scaled-down ones with the same chunk grid for quick looks and tests.
 */
export const EDGES = { full: 1024, small: 256, tiny: 64 };

/** The codec configurations, in the order they run. */
export const CODEC_NAMES = ["none", "gzip", "zstd", "blosc"];

/**
 * The options of a run, from `--name value` / `--name=value` arguments or BENCH_* environment
 * variables (arguments win).
 * - `--size full|small|tiny` (BENCH_SIZE): volume size, default full (256 MiB).
 * - `--codecs none,gzip,zstd,blosc` (BENCH_CODECS): codec configurations, default all.
 * - `--ops write,read,chunk,python,sharded,strings,cache,large,browser` (BENCH_OPS): operations,
 *   default all but `large` and `browser` (DEFAULT_OPS).
 * - `--repeats N` (BENCH_REPEATS): measured runs per library and full operation, default 3.
 * - `--chunk-reads N` (BENCH_CHUNK_READS): single-chunk reads per library and run, default 64.
 * - `--fsync on|off` (BENCH_FSYNC): our FsStore's `fsync` option, default on (its default).
 * - `--seed N` (BENCH_SEED): seed of the generated volume and of the chunk choice, default 1.
 * - `--workers auto|0|1|2...` (BENCH_WORKERS): where our chunks decode: `auto` (the default) as
 *   the library does by default (Node: a shared pool of cores - 1 worker_threads for codecs that
 *   work on the calling thread), 0 on the main thread, N in a pool of N workers.
 * - `--edge N` (BENCH_EDGE): edge of the `large` and `browser` arrays, a multiple of 16; default
 *   by `--size`: 1024, 256, 64 (EDGES).
 * - `--node 20,24` (BENCH_NODE): run the whole benchmark once per Node.js major version, each in
 *   its own process, and print the ratios side by side; default: only the running Node.
 * - `--results FILE` (BENCH_RESULTS): where the JSON results go, default bench/data/results.json.
 */
export function parseOptions(argv = [], env = {}) {
  const given = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith("--"))
      throw new Error(`Unexpected argument "${arg}" (options look like --size small)`);
    const eq = arg.indexOf("=");
    if (eq > 0) given[arg.slice(2, eq)] = arg.slice(eq + 1);
    else if (i + 1 < argv.length) given[arg.slice(2)] = argv[++i];
    else throw new Error(`Option ${arg} needs a value`);
  }
  const known = [
    "size",
    "codecs",
    "ops",
    "repeats",
    "chunk-reads",
    "fsync",
    "seed",
    "workers",
    "edge",
    "node",
    "results",
  ];
  for (const name of Object.keys(given)) {
    if (!known.includes(name))
      throw new Error(`Unknown option --${name}; known: ${known.map((k) => `--${k}`).join(" ")}`);
  }
  const pick = (name) => given[name] ?? env[`BENCH_${name.toUpperCase().replace("-", "_")}`];
  const size = pick("size") ?? "full";
  if (!(size in SIZES))
    throw new Error(`--size must be one of ${Object.keys(SIZES).join(", ")}, got "${size}"`);
  return {
    size,
    shape: SIZES[size],
    chunks: [64, 64, 64],
    codecs: listOf(pick("codecs"), CODEC_NAMES, "codecs"),
    ops: listOf(pick("ops"), OPS, "ops", DEFAULT_OPS),
    repeats: positive(pick("repeats") ?? "3", "repeats"),
    chunkReads: positive(pick("chunk-reads") ?? "64", "chunk-reads"),
    fsync: onOff(pick("fsync") ?? "on", "fsync"),
    seed: positive(pick("seed") ?? "1", "seed"),
    workers: workersOption(pick("workers") ?? "auto"),
    edge: edgeOption(pick("edge") ?? String(EDGES[size])),
    nodes: nodeVersions(pick("node")),
    results: pick("results"),
  };
}

/** An edge of the large arrays: a multiple of 16, so chunks (edge/4) and inner chunks (edge/16) tile it. */
function edgeOption(text) {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 16 || n % 16 !== 0 || n > 2048)
    throw new Error(`--edge must be a multiple of 16 from 16 to 2048, got "${text}"`);
  return n;
}

/** Node.js major versions (`20,24`), or an empty list: only the running Node. */
function nodeVersions(text) {
  if (text === undefined || text === "" || text === "current") return [];
  const majors = text.split(",").map((s) => s.trim());
  for (const major of majors) {
    if (!/^\d{2,3}$/.test(major))
      throw new Error(`--node takes major versions such as 20,24, got "${major}"`);
  }
  return [...new Set(majors.map(Number))];
}

function listOf(text, allowed, name, byDefault = allowed) {
  if (text === undefined) return [...byDefault];
  const items = text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  for (const item of items) {
    if (!allowed.includes(item))
      throw new Error(`--${name}: unknown "${item}"; choose from ${allowed.join(",")}`);
  }
  if (items.length === 0) throw new Error(`--${name} is empty`);
  return allowed.filter((item) => items.includes(item));
}

function positive(text, name) {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`--${name} must be a positive integer, got "${text}"`);
  return n;
}

function count(text, name) {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0 || n > 64)
    throw new Error(`--${name} must be an integer from 0 to 64, got "${text}"`);
  return n;
}

function onOff(text, name) {
  if (text === "on" || text === "true" || text === "1") return true;
  if (text === "off" || text === "false" || text === "0") return false;
  throw new Error(`--${name} must be on or off, got "${text}"`);
}

/** `auto`, or a worker count (0: the main thread). */
function workersOption(text) {
  return text === "auto" ? "auto" : count(text, "workers");
}
