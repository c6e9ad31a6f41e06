// Arrays derived from fixture arrays, for cases no fixture holds, with the same chunk bytes and
// only the metadata changed:
// - "fill beyond 2^53": every int64/uint64 array with its fill value set to the type's extreme
//   (-2^63, 2^64-1), which no fixture has and which must reach workers exactly (the readers
//   read the variant itself);
// - "complex view": 1-d float16/32/64 arrays with an even shape and chunk, read as complex
//   numbers of twice the width (complex_float16, complex64, complex128 in v3; <c8, <c16 in v2):
//   the fixtures hold no complex arrays, and the values are the float values taken in pairs
//   (zarr-python also reads the v2 ones itself).
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";

const INT64 = { v2: /^[<>]i8$/, v3: "int64", fill: "-9223372036854775808" };
const UINT64 = { v2: /^[<>]u8$/, v3: "uint64", fill: "18446744073709551615" };
const COMPLEX_V3 = { float16: "complex_float16", float32: "complex64", float64: "complex128" };
const COMPLEX_V2 = { f4: "c8", f8: "c16" };
/** The NumPy-style type of a complex view for the canonical values (c4: two float16 halves). */
const COMPLEX_NUMPY = { float16: "<c4", float32: "<c8", float64: "<c16", f4: "<c8", f8: "<c16" };

/** Copies an array's own folder (metadata and chunks; no child nodes) to `target`. */
function copyArrayFolder(source, target) {
  mkdirSync(target, { recursive: true });
  for (const name of readdirSync(source)) {
    const from = path.join(source, name);
    if (statSync(from).isDirectory()) {
      // Chunk folders (nested keys, v3 "c/"): folders that hold no metadata of their own.
      const isNode = ["zarr.json", ".zarray", ".zgroup"].some((m) =>
        existsSync(path.join(from, m)),
      );
      if (!isNode) cpSync(from, path.join(target, name), { recursive: true });
    } else cpSync(from, path.join(target, name));
  }
}

/** Replaces `"fill_value": <anything>` in metadata text, keeping digits beyond 2^53 exact. */
function withFill(text, fill) {
  return text.replace(/("fill_value"\s*:\s*)(-?[\d.eE+]+|null|"[^"]*")/, `$1${fill}`);
}

/**
 * The variants of the plan's folder arrays, written below `outDir`.
 * @returns {{id: string, of: string, kind: string, folder: string, format: 2|3, pairs?: string, features: object}[]}
 */
export function writeVariants(arrays, outDir) {
  const variants = [];
  for (const a of arrays) {
    if (a.container !== "folder" || a.source === "numcodecs") continue;
    const folder = path.join(a.location, a.path);
    const v3File = path.join(folder, "zarr.json");
    const v2File = path.join(folder, ".zarray");
    const format = a.formats[0];
    const file = format === 3 ? v3File : v2File;
    const text = readFileSync(file, "utf8");
    const meta = JSON.parse(text);
    const dtype = format === 3 ? meta.data_type : meta.dtype;
    const name = path.basename(file);
    const make = (kind, newText, extra = {}) => {
      const rel = `${kind}/${a.id}`;
      const target = path.join(outDir, ...rel.split("/"));
      copyArrayFolder(folder, target);
      // A folder holding both documents keeps only the one the variant is about.
      for (const other of ["zarr.json", ".zarray"])
        if (other !== name) rmSync(path.join(target, other), { force: true });
      writeFileSync(path.join(target, name), newText);
      variants.push({ id: `variants/${rel}`, of: a.id, kind, folder: target, format, ...extra });
    };
    const isInt64 = format === 3 ? dtype === INT64.v3 : INT64.v2.test(dtype);
    const isUint64 = format === 3 ? dtype === UINT64.v3 : UINT64.v2.test(dtype);
    if (isInt64 || isUint64)
      make("fill beyond 2^53", withFill(text, (isInt64 ? INT64 : UINT64).fill), {
        features: { ...a.features, extra: [...a.features.extra, "fill beyond 2^53"] },
      });
    const oneD = meta.shape?.length === 1 && meta.shape[0] % 2 === 0;
    if (format === 3 && oneD && COMPLEX_V3[dtype]) {
      const chunk = meta.chunk_grid?.configuration?.chunk_shape?.[0];
      const plain = (meta.codecs ?? []).every(
        (c) =>
          c.name !== "sharding_indexed" &&
          c.name !== "transpose" &&
          c.name !== "numcodecs.delta" &&
          !/scale|round|cast/.test(c.name),
      );
      if (meta.chunk_grid?.name === "regular" && chunk % 2 === 0 && plain) {
        const doc = structuredClone(meta);
        doc.data_type = COMPLEX_V3[dtype];
        doc.shape = [meta.shape[0] / 2];
        doc.chunk_grid.configuration.chunk_shape = [chunk / 2];
        doc.fill_value = [0, 0];
        make("complex view", `${JSON.stringify(doc, null, 2)}\n`, {
          pairs: COMPLEX_NUMPY[dtype],
          features: {
            ...a.features,
            dtype: dtype === "float16" ? "complex float16" : "complex",
            extra: [...a.features.extra, "complex view"],
          },
        });
      }
    }
    const v2Float = format === 2 && /^[<>](f4|f8)$/.exec(dtype ?? "");
    if (v2Float && oneD && meta.chunks[0] % 2 === 0 && !meta.filters?.length) {
      const doc = structuredClone(meta);
      doc.dtype = `${dtype[0]}${COMPLEX_V2[v2Float[1]]}`;
      doc.shape = [meta.shape[0] / 2];
      doc.chunks = [meta.chunks[0] / 2];
      doc.fill_value = [0, 0];
      make("complex view", `${JSON.stringify(doc, null, 2)}\n`, {
        pairs: COMPLEX_NUMPY[v2Float[1]],
        features: { ...a.features, dtype: "complex", extra: [...a.features.extra, "complex view"] },
      });
    }
  }
  return variants;
}

/** A reading of the original array taken in pairs: the values of its complex view. */
export function pairedReading(reading, type) {
  const values = [];
  for (let i = 0; i + 1 < reading.values.length; i += 2)
    values.push([reading.values[i], reading.values[i + 1]]);
  return {
    reader: `${reading.reader}, in pairs`,
    shape: [reading.shape[0] / 2],
    dtype: type,
    values,
  };
}
