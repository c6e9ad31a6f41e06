// Turns numcodecs' golden files into v2 arrays: for each `codec.MM/encoded.NN.dat` (numcodecs'
// encoding of `array.NN.npy` with `codec.MM/config.json`), a one-chunk array whose `.zarray`
// names that codec where a Zarr v2 array carries it (compressor, filter, or object codec), so
// that every way of reading covers the numcodecs codecs exactly as written by numcodecs.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { dtypeFamily } from "./discover.mjs";

/** Codecs numcodecs applies to bytes: a v2 array's `compressor`. */
const COMPRESSORS = new Set([
  "blosc",
  "zstd",
  "lz4",
  "gzip",
  "zlib",
  "bz2",
  "lzma",
  "crc32",
  "crc32c",
  "adler32",
  "fletcher32",
  "jenkins_lookup3",
  "base64",
  "zfpy",
  "pcodec",
]);

/** Object codecs: the first filter of an object (`|O`) array. */
const OBJECT_CODECS = new Set([
  "vlen-utf8",
  "vlen-bytes",
  "vlen-array",
  "json2",
  "json",
  "msgpack2",
  "pickle",
]);

/** The header of a `.npy` file: type string, memory order and shape. */
export function npyHeader(file) {
  const bytes = readFileSync(file);
  if (bytes.toString("latin1", 1, 6) !== "NUMPY") throw new Error(`${file} is not a .npy file`);
  const major = bytes[6];
  const length = major === 1 ? bytes.readUInt16LE(8) : bytes.readUInt32LE(8);
  const start = major === 1 ? 10 : 12;
  const header = bytes.toString("latin1", start, start + length);
  const descr = /'descr':\s*'([^']*)'/.exec(header)?.[1];
  const fortran = /'fortran_order':\s*(True|False)/.exec(header)?.[1] === "True";
  const shapeText = /'shape':\s*\(([^)]*)\)/.exec(header)?.[1] ?? "";
  const shape = shapeText
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "")
    .map(Number);
  if (descr === undefined) throw new Error(`${file}: no simple descr in the .npy header`);
  return { descr, order: fortran ? "F" : "C", shape };
}

/** The data type and codec placement of a golden case's array. */
function layout(config, npy) {
  const id = config.id;
  if (OBJECT_CODECS.has(id)) return { dtype: "|O", compressor: null, filters: [config] };
  if (COMPRESSORS.has(id)) return { dtype: npy.descr, compressor: config, filters: null };
  const dtype =
    id === "astype"
      ? config.decode_dtype
      : id === "packbits"
        ? "|b1"
        : typeof config.dtype === "string"
          ? config.dtype
          : npy.descr;
  return { dtype, compressor: null, filters: [config] };
}

/** Every golden case below `fixture/`: codec folders, and their subfolders such as `astype/f`. */
function caseFolders(fixtureRoot) {
  const folders = [];
  for (const name of readdirSync(fixtureRoot).sort()) {
    const dir = path.join(fixtureRoot, name);
    const children = readdirSync(dir).sort();
    if (children.some((c) => c.startsWith("codec."))) folders.push(name);
    else
      for (const child of children)
        if (
          existsSync(path.join(dir, child)) &&
          readdirSync(path.join(dir, child)).some((c) => c.startsWith("codec."))
        )
          folders.push(`${name}/${child}`);
  }
  return folders;
}

/**
 * Writes one v2 array per golden case below `outDir` (`<codec>/<codec.MM>/array.NN`) and
 * returns the cases: the array's folder, the `.npy` it must read as, and the codec.
 * @returns the cases: id, array folder, .npy file, codec, features
 */
export function writeNumcodecsArrays(fixturesDir, outDir) {
  const fixtureRoot = path.join(fixturesDir, "numcodecs", "fixture");
  if (!existsSync(fixtureRoot)) return [];
  const cases = [];
  for (const folder of caseFolders(fixtureRoot)) {
    const base = path.join(fixtureRoot, ...folder.split("/"));
    for (const codecDir of readdirSync(base)
      .filter((d) => d.startsWith("codec."))
      .sort()) {
      const config = JSON.parse(readFileSync(path.join(base, codecDir, "config.json"), "utf8"));
      for (const file of readdirSync(path.join(base, codecDir)).sort()) {
        const n = /^encoded\.(\d+)\.dat$/.exec(file)?.[1];
        if (n === undefined) continue;
        const npyFile = path.join(base, `array.${n}.npy`);
        if (!existsSync(npyFile)) continue;
        const npy = npyHeader(npyFile);
        const { dtype, compressor, filters } = layout(config, npy);
        const shape = npy.shape;
        const rel = `${folder}/${codecDir}/array.${n}`;
        const dir = path.join(outDir, ...rel.split("/"));
        mkdirSync(dir, { recursive: true });
        const zarray = {
          zarr_format: 2,
          shape,
          chunks: shape.map((s) => Math.max(1, s)),
          dtype,
          compressor,
          fill_value: null,
          order: npy.order,
          filters,
          dimension_separator: ".",
        };
        writeFileSync(path.join(dir, ".zarray"), `${JSON.stringify(zarray, null, 2)}\n`);
        const key = shape.length === 0 ? "0" : shape.map(() => "0").join(".");
        writeFileSync(path.join(dir, key), readFileSync(path.join(base, codecDir, file)));
        cases.push({
          id: `numcodecs/${rel}`,
          folder: dir,
          npyFile,
          codec: String(config.id),
          statusKey: `${folder}/array.${n}.npy|${folder}/${codecDir}`,
          features: {
            dtype: dtypeFamily(dtype),
            codecs: [
              ...(compressor ? [`numcodecs.${compressor.id}`] : []),
              ...(filters ?? []).map((f) => `numcodecs.${f.id}`),
            ],
            extra: npy.order === "F" ? ["v2 order F"] : [],
          },
        });
      }
    }
  }
  return cases;
}

/**
 * numcodecs 0.11's own verdict per golden case (`expected/numcodecs/decode_check_*.json`):
 * "roundtrip-ok", "decoded (lossy codec or not byte-identical)", or the error it gave.
 */
export function numcodecsStatuses(fixturesDir) {
  const dir = path.join(fixturesDir, "expected", "numcodecs");
  const statuses = new Map();
  if (!existsSync(dir)) return statuses;
  for (const file of readdirSync(dir).filter((f) => f.startsWith("decode_check"))) {
    for (const row of JSON.parse(readFileSync(path.join(dir, file), "utf8")))
      statuses.set(`${row.array}|${row.codec_dir}`, row.status);
  }
  return statuses;
}
