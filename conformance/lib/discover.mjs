// Finds every array in the conformance fixtures: folders holding `.zarray` or an array's
// `zarr.json`, and the same inside zip files. Each array is opened from the root of its
// hierarchy (the highest folder of the chain of Zarr nodes above it), so consolidated metadata
// there is seen as a user opening the hierarchy would see it.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { zipEntries, zipEntryBytes } from "./zip-entries.mjs";

/** The fixture folders holding Zarr hierarchies (the others hold metadata or golden files). */
export const HIERARCHY_FOLDERS = ["zarrita", "zarr-python-v2", "external"];

const NODE_FILES = [".zarray", ".zgroup", "zarr.json", ".zmetadata"];

/** Where the fixtures' own expected values live for a hierarchy root (see fixtures README). */
const EXPECTED_ROOTS = [
  { store: "zarrita/v2/data.zarr", expected: "zarrita/v2/data.zarr" },
  { store: "zarrita/v3/data.zarr", expected: "zarrita/v3/data.zarr" },
  { store: "zarr-python-v2/fixture", expected: "zarr-python-v2" },
  // A byte-identical copy of zarrita/ (same repository commit; checked by the suite's test).
  { store: "external/zarrita-head/fixtures/v2/data.zarr", expected: "zarrita/v2/data.zarr" },
  { store: "external/zarrita-head/fixtures/v3/data.zarr", expected: "zarrita/v3/data.zarr" },
];

/** The zip files that hold a copy of a hierarchy above, by the folder they sit in. */
const ZIP_COPIES = [
  { folder: "zarrita/v2", store: "zarrita/v2/data.zarr" },
  { folder: "zarrita/v3", store: "zarrita/v3/data.zarr" },
  { folder: "external/zarrita-head/fixtures/v2", store: "zarrita/v2/data.zarr" },
  { folder: "external/zarrita-head/fixtures/v3", store: "zarrita/v3/data.zarr" },
];

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}

/** The family of a v2 type string or v3 data type, for coverage counts and samples. */
export function dtypeFamily(dtype) {
  if (Array.isArray(dtype)) return "struct";
  if (typeof dtype === "object" && dtype !== null) {
    const name = String(dtype.name ?? "");
    if (name.includes("datetime")) return "datetime";
    if (name.includes("timedelta")) return "timedelta";
    return dtypeFamily(name || "other");
  }
  const t = String(dtype);
  const v2 = /^[<>|=]?([biufcmMSUOV])(\d*)/.exec(t);
  if (v2 && /^[<>|=]/.test(t)) {
    const [, kind, size] = v2;
    const families = {
      b: "bool",
      i: "int",
      u: "uint",
      f: size === "2" ? "float16" : "float",
      c: "complex",
      m: "timedelta",
      M: "datetime",
      S: "fixed bytes",
      U: "fixed unicode",
      O: "object",
      V: "raw",
    };
    return families[kind];
  }
  if (/^u?int\d+$/.test(t)) return t.startsWith("u") ? "uint" : "int";
  if (t === "float16") return "float16";
  if (t === "float32" || t === "float64") return "float";
  if (t === "complex64" || t === "complex128") return "complex";
  if (t.startsWith("complex_")) return "complex minifloat";
  if (/^(b?float\d|float\d_)/.test(t)) return "minifloat";
  if (/^r\d+$/.test(t)) return "raw";
  if (t === "bool") return "bool";
  if (t === "string") return "string";
  if (t === "bytes" || t === "variable_length_bytes" || t === "binary") return "bytes";
  if (t.startsWith("fixed_length_utf32")) return "fixed unicode";
  if (t === "null_terminated_bytes" || t === "fixed_length_bytes") return "fixed bytes";
  if (t === "struct" || t === "structured") return "struct";
  return t;
}

/** The codecs a v3 codec list names, sharding's inner and index codecs included. */
function v3CodecNames(codecs, out = new Set()) {
  for (const codec of Array.isArray(codecs) ? codecs : []) {
    const name = typeof codec === "string" ? codec : codec?.name;
    if (typeof name !== "string") continue;
    out.add(name);
    v3CodecNames(codec?.configuration?.codecs, out);
    v3CodecNames(codec?.configuration?.index_codecs, out);
  }
  return out;
}

/**
 * What an array's metadata uses: its data-type family and codecs (v2 codecs as
 * `numcodecs.<id>`; v2 `order: "F"` and big-endian types as features of their own).
 */
export function featuresOf(metadata) {
  if (metadata.zarr_format === 3) {
    const codecs = [...v3CodecNames(metadata.codecs)];
    const endian = JSON.stringify(metadata.codecs ?? []).includes('"big"') ? ["big endian"] : [];
    return { dtype: dtypeFamily(metadata.data_type), codecs, extra: endian };
  }
  const codecs = [];
  if (metadata.compressor?.id) {
    codecs.push(`numcodecs.${metadata.compressor.id}`);
    if (metadata.compressor.id === "blosc" && metadata.compressor.cname)
      codecs.push(`numcodecs.blosc/${metadata.compressor.cname}`);
  }
  for (const filter of metadata.filters ?? [])
    if (filter?.id) codecs.push(`numcodecs.${filter.id}`);
  const extra = [];
  if (metadata.order === "F") extra.push("v2 order F");
  if (typeof metadata.dtype === "string" && metadata.dtype.startsWith(">"))
    extra.push("big endian");
  return { dtype: dtypeFamily(metadata.dtype), codecs, extra };
}

/** The array metadata in a folder or zip: v3 (`zarr.json` of an array) first, then v2. */
function arrayMetadata(read) {
  const v3 = read("zarr.json");
  if (v3?.node_type === "array") return { metadata: v3, formats: read(".zarray") ? [3, 2] : [3] };
  const v2 = read(".zarray");
  if (v2) return { metadata: { ...v2, zarr_format: 2 }, formats: [2] };
  return undefined;
}

function walk(dir, visit) {
  const names = readdirSync(dir).sort();
  visit(dir, new Set(names));
  for (const name of names) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) walk(full, visit);
  }
}

const isNodeFolder = (dir) => NODE_FILES.some((f) => existsSync(path.join(dir, f)));

/** The highest folder of the chain of Zarr nodes above (and including) `dir`. */
function hierarchyRoot(dir, stop) {
  let root = dir;
  while (
    path.dirname(root) !== root &&
    path.dirname(root) !== stop &&
    isNodeFolder(path.dirname(root))
  )
    root = path.dirname(root);
  return root;
}

const posix = (p) => p.split(path.sep).join("/");

/** The `expected/...` folder for an array of a hierarchy with the fixtures' own values. */
function expectedFolder(fixturesDir, storeRel, arrayPath) {
  const root = EXPECTED_ROOTS.find((r) => r.store === storeRel);
  if (!root) return undefined;
  const dir = path.join(fixturesDir, "expected", root.expected, ...arrayPath.split("/"));
  return existsSync(dir) ? dir : undefined;
}

/**
 * Every array of the fixtures' hierarchies (folders and zip files), in a stable order.
 * @param {string} fixturesDir
 * @returns the arrays, each with where it is, what it uses and its expected values folder
 */
export function discoverArrays(fixturesDir) {
  const found = [];
  for (const top of HIERARCHY_FOLDERS) {
    const base = path.join(fixturesDir, top);
    if (!existsSync(base)) continue;
    walk(base, (dir, names) => {
      for (const name of names)
        if (name.endsWith(".zip")) found.push(...zipArrays(fixturesDir, path.join(dir, name)));
      if (!names.has(".zarray") && !names.has("zarr.json")) return;
      const meta = arrayMetadata((f) => (names.has(f) ? readJson(path.join(dir, f)) : undefined));
      if (!meta) return;
      const root = hierarchyRoot(dir, fixturesDir);
      const storeRel = posix(path.relative(fixturesDir, root));
      const arrayPath = posix(path.relative(root, dir));
      const id = posix(path.relative(fixturesDir, dir));
      found.push({
        id,
        source: sourceOf(id),
        container: "folder",
        location: root,
        path: arrayPath,
        formats: meta.formats,
        features: featuresOf(meta.metadata),
        expectedDir: expectedFolder(fixturesDir, storeRel, arrayPath),
      });
    });
  }
  return found.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

const ZIP_ROOT_MARKERS = ["zarr.json", ".zgroup", ".zarray", ".zattrs", ".zmetadata"];

/**
 * Where the hierarchy of a zip file starts, as @z/store-zip documents it (README, "Root
 * detection"): the archive's root when it holds Zarr metadata or more than one folder, else its
 * single top-level folder when that holds Zarr metadata (an archive zipped "from the parent").
 */
export function zipRootPrefix(names) {
  const top = new Set(names.map((n) => (n.includes("/") ? n.slice(0, n.indexOf("/") + 1) : "")));
  if (names.some((n) => ZIP_ROOT_MARKERS.includes(n)) || top.size !== 1) return "";
  const [folder] = top;
  return folder && names.some((n) => ZIP_ROOT_MARKERS.some((m) => n === folder + m)) ? folder : "";
}

/** The arrays inside one zip file: their paths are the entry folders below the zip's root. */
function zipArrays(fixturesDir, zipFile) {
  const bytes = new Uint8Array(readFileSync(zipFile));
  const entries = zipEntries(bytes);
  const byName = new Map(entries.map((e) => [e.name, e]));
  const zipRel = posix(path.relative(fixturesDir, zipFile));
  const copyOf = ZIP_COPIES.find((c) => c.folder === posix(path.dirname(zipRel)));
  const prefix = zipRootPrefix(entries.map((e) => e.name));
  const folders = new Set(
    entries
      .filter((e) => /(^|\/)(\.zarray|zarr\.json)$/.test(e.name))
      .map((e) => e.name.replace(/\/?(\.zarray|zarr\.json)$/, "")),
  );
  const out = [];
  for (const folder of [...folders].sort()) {
    const read = (file) => {
      const entry = byName.get(folder ? `${folder}/${file}` : file);
      if (!entry) return undefined;
      try {
        return JSON.parse(new TextDecoder().decode(zipEntryBytes(bytes, entry)));
      } catch {
        return undefined;
      }
    };
    const meta = arrayMetadata(read);
    if (!meta) continue;
    const inRoot = folder.startsWith(prefix) ? folder.slice(prefix.length) : folder;
    out.push({
      id: `${zipRel}!${folder}`,
      source: sourceOf(zipRel),
      container: "zip",
      location: zipFile,
      path: inRoot,
      zipPrefix: prefix,
      formats: meta.formats,
      features: featuresOf(meta.metadata),
      expectedDir: copyOf ? expectedFolder(fixturesDir, copyOf.store, inRoot) : undefined,
    });
  }
  return out;
}

/** The source an id counts under: `external/<project>` or the top fixture folder. */
export function sourceOf(id) {
  const parts = id.split("/");
  return parts[0] === "external" ? `external/${parts[1]}` : parts[0];
}
