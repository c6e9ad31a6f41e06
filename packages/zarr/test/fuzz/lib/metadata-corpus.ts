import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fixturesDir } from "@z/test-utils";

/**
 * The seed documents the metadata fuzzer mutates: real metadata from the conformance fixtures
 * (zarr-python's metadata test documents, and the arrays zarr-python 2/3 wrote, with some of
 * their chunks so a mutated document is read against real data), plus a few built-in ones so
 * the suite runs without the fixtures.
 */

/** A store to mutate: one document of it is mutated, the others stay as they are. */
export interface SeedStore {
  label: string;
  /** The key of the document to mutate. */
  key: string;
  /** Its text. */
  text: string;
  /** The rest of the store (companion documents, chunks). */
  files: [string, Uint8Array][];
}

const encoder = new TextEncoder();
const json = (value: unknown) => JSON.stringify(value);

const V3_ARRAY = {
  zarr_format: 3,
  node_type: "array",
  shape: [6, 5],
  data_type: "int16",
  chunk_grid: { name: "regular", configuration: { chunk_shape: [4, 3] } },
  chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
  fill_value: 7,
  codecs: [
    { name: "bytes", configuration: { endian: "little" } },
    { name: "gzip", configuration: { level: 1 } },
  ],
  attributes: { a: [1, 2] },
};

const V2_ARRAY = {
  zarr_format: 2,
  shape: [6, 5],
  chunks: [4, 3],
  dtype: "<f8",
  compressor: { id: "zlib", level: 1 },
  fill_value: "NaN",
  filters: [{ id: "delta", dtype: "<f8" }],
  order: "C",
  dimension_separator: ".",
};

/** Built-in seeds (always present). */
const BUILT_IN: SeedStore[] = [
  { label: "builtin/v3-array", key: "zarr.json", text: json(V3_ARRAY), files: [] },
  {
    label: "builtin/v3-group",
    key: "zarr.json",
    text: json({ zarr_format: 3, node_type: "group", attributes: { x: 1 } }),
    files: [["a/zarr.json", encoder.encode(json(V3_ARRAY))]],
  },
  {
    label: "builtin/v3-consolidated",
    key: "zarr.json",
    text: json({
      zarr_format: 3,
      node_type: "group",
      attributes: {},
      consolidated_metadata: { kind: "inline", must_understand: false, metadata: { a: V3_ARRAY } },
    }),
    files: [["a/zarr.json", encoder.encode(json(V3_ARRAY))]],
  },
  {
    label: "builtin/v2-array",
    key: ".zarray",
    text: json(V2_ARRAY),
    files: [[".zattrs", encoder.encode(json({ units: "m" }))]],
  },
  {
    label: "builtin/v2-attrs",
    key: ".zattrs",
    text: json({ units: "m", nested: { list: [1, 2, 3] } }),
    files: [[".zarray", encoder.encode(json(V2_ARRAY))]],
  },
  {
    label: "builtin/v2-group",
    key: ".zgroup",
    text: json({ zarr_format: 2 }),
    files: [["a/.zarray", encoder.encode(json(V2_ARRAY))]],
  },
  {
    label: "builtin/v2-consolidated",
    key: ".zmetadata",
    text: json({
      zarr_consolidated_format: 1,
      metadata: { ".zgroup": { zarr_format: 2 }, "a/.zarray": V2_ARRAY, "a/.zattrs": { u: 1 } },
    }),
    files: [
      [".zgroup", encoder.encode(json({ zarr_format: 2 }))],
      ["a/.zarray", encoder.encode(json(V2_ARRAY))],
    ],
  },
];

const METADATA_NAMES = new Set([".zarray", ".zgroup", ".zattrs", ".zmetadata", "zarr.json"]);
const CHUNKS_PER_ARRAY = 3;
const MAX_CHUNK_BYTES = 256 * 1024;

function listFiles(dir: string, prefix = ""): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...listFiles(full, `${prefix}${name}/`));
    else out.push(`${prefix}${name}`);
  }
  return out;
}

/** Every array folder under a hierarchy, moved to a store root with a few of its chunks. */
function fixtureArrays(root: string, label: string): SeedStore[] {
  if (!existsSync(root)) return [];
  const seeds: SeedStore[] = [];
  const files = listFiles(root);
  for (const file of files) {
    const base = path.posix.basename(file);
    if (base !== ".zarray" && base !== "zarr.json") continue;
    const dir = path.posix.dirname(file) === "." ? "" : `${path.posix.dirname(file)}/`;
    const text = readFileSync(path.join(root, file), "utf8");
    if (base === "zarr.json" && !text.includes('"array"')) continue;
    const own = files.filter((f) => f.startsWith(dir) && f !== file);
    const docs = own.filter((f) => METADATA_NAMES.has(f.slice(dir.length)));
    const chunks = own
      .filter((f) => !METADATA_NAMES.has(path.posix.basename(f)))
      .filter((f) => statSync(path.join(root, f)).size <= MAX_CHUNK_BYTES)
      .slice(0, CHUNKS_PER_ARRAY);
    seeds.push({
      label: `${label}/${dir || "."}`,
      key: base,
      text,
      files: [...docs, ...chunks].map((f) => [
        f.slice(dir.length),
        new Uint8Array(readFileSync(path.join(root, f))),
      ]),
    });
    if (base === ".zarray") {
      const attrs = docs.find((f) => f.endsWith(".zattrs"));
      if (attrs) {
        seeds.push({
          label: `${label}/${dir}.zattrs`,
          key: ".zattrs",
          text: readFileSync(path.join(root, attrs), "utf8"),
          files: [
            [".zarray", encoder.encode(text)],
            ...chunks.map((f): [string, Uint8Array] => [
              f.slice(dir.length),
              new Uint8Array(readFileSync(path.join(root, f))),
            ]),
          ],
        });
      }
    }
  }
  return seeds;
}

/** zarr-python's metadata test documents, each under the key its kind is stored at. */
function metadataDocuments(root: string): SeedStore[] {
  if (!existsSync(root)) return [];
  const seeds: SeedStore[] = [];
  const add = (
    format: "v2" | "v3",
    kind: string,
    key: string,
    extra: [string, Uint8Array][] = [],
  ) => {
    const dir = path.join(root, format, kind);
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)
      .filter((n) => n.endsWith(".json"))
      .sort()) {
      seeds.push({
        label: `zarr-metadata/${format}/${kind}/${name}`,
        key,
        text: readFileSync(path.join(dir, name), "utf8"),
        files: extra,
      });
    }
  };
  add("v2", "array", ".zarray");
  add("v2", "group", ".zgroup");
  add("v2", "consolidated", ".zmetadata", [[".zgroup", encoder.encode(json({ zarr_format: 2 }))]]);
  add("v3", "array", "zarr.json");
  add("v3", "group", "zarr.json");
  add("v3", "consolidated", "zarr.json");
  return seeds;
}

/** Pieces of documents (codecs, grids, key encodings, data types, fill values) to splice in. */
function fragmentsFrom(root: string): unknown[] {
  const out: unknown[] = [];
  const v3 = path.join(root, "v3");
  if (!existsSync(v3)) return out;
  for (const file of listFiles(v3).filter((f) => f.endsWith(".json"))) {
    if (file.startsWith("array/") || file.startsWith("group/") || file.startsWith("consolidated/"))
      continue;
    const doc = JSON.parse(readFileSync(path.join(v3, file), "utf8"));
    if (file.endsWith("cases.json") || file.endsWith("fill_values.json"))
      out.push(...Object.values(doc));
    else out.push(doc);
  }
  return out;
}

/** The seeds of each metadata target and the fragments to splice. */
export interface MetadataCorpus {
  v2: SeedStore[];
  v3: SeedStore[];
  consolidated: SeedStore[];
  fixtures: SeedStore[];
  fragments: unknown[];
}

/** Loads the corpus (fixture parts are empty when the fixtures are absent). */
export function loadMetadataCorpus(): MetadataCorpus {
  const docs = fixturesDir ? metadataDocuments(path.join(fixturesDir, "zarr-metadata")) : [];
  const fixtures = fixturesDir
    ? [
        ...fixtureArrays(path.join(fixturesDir, "zarrita", "v2", "data.zarr"), "zarrita-v2"),
        ...fixtureArrays(path.join(fixturesDir, "zarrita", "v3", "data.zarr"), "zarrita-v3"),
        ...fixtureArrays(path.join(fixturesDir, "zarr-python-v2", "fixture"), "zarr-python-v2"),
      ]
    : [];
  const rootDocs = (dir: string, names: string[]): SeedStore[] => {
    if (!fixturesDir) return [];
    const root = path.join(fixturesDir, dir);
    const present = names.filter((n) => existsSync(path.join(root, n)));
    return present.map((name) => ({
      label: `${dir}/${name}`,
      key: name,
      text: readFileSync(path.join(root, name), "utf8"),
      files: present
        .filter((n) => n !== name)
        .map((n): [string, Uint8Array] => [n, new Uint8Array(readFileSync(path.join(root, n)))]),
    }));
  };
  const all = [...BUILT_IN, ...docs];
  const isConsolidated = (s: SeedStore) =>
    s.key === ".zmetadata" || s.text.includes("consolidated_metadata");
  return {
    v2: all.filter((s) => s.key !== "zarr.json" && !isConsolidated(s)),
    v3: all.filter((s) => s.key === "zarr.json" && !isConsolidated(s)),
    consolidated: [
      ...all.filter(isConsolidated),
      ...rootDocs(path.join("zarrita", "v2", "data.zarr"), [".zmetadata", ".zgroup", ".zattrs"]),
      ...rootDocs(path.join("zarrita", "v3", "data.zarr"), ["zarr.json"]),
    ],
    fixtures,
    fragments: fixturesDir ? fragmentsFrom(path.join(fixturesDir, "zarr-metadata")) : [],
  };
}
