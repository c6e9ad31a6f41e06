// Reference values from zarrita (npm), an independent JavaScript reader: run as a child process
// with a jobs file (`[{id, root, path, format, out}]`); writes each array's values in the
// fixtures' expected-value encoding to its `out` file (or the error zarrita gave) and prints
// {id: "ok" | error} on stdout.
import { readFileSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import * as zarr from "zarrita";
import { zarritaVersion } from "./references.mjs";

const READER = `zarrita ${zarritaVersion()}`;
const LIMIT = 2 ** 53;

/** A read-only folder store in zarrita's store shape (keys start with "/"). */
function folderStore(root) {
  const get = async (key) => {
    try {
      return new Uint8Array(await readFile(path.join(root, ...key.split("/").filter(Boolean))));
    } catch (error) {
      if (error.code === "ENOENT" || error.code === "EISDIR" || error.code === "ENOTDIR")
        return undefined;
      throw error;
    }
  };
  return {
    get,
    // Sharded arrays read their index and inner chunks by range.
    async getRange(key, range) {
      const bytes = await get(key);
      if (!bytes) return undefined;
      if ("suffixLength" in range) return bytes.subarray(bytes.length - range.suffixLength);
      return bytes.subarray(range.offset, range.offset + range.length);
    },
  };
}

/** zarrita's data type as the NumPy type string the fixtures' encoding is keyed by. */
function numpyType(dtype) {
  const fixed = {
    int8: "|i1",
    uint8: "|u1",
    int16: "<i2",
    uint16: "<u2",
    int32: "<i4",
    uint32: "<u4",
    int64: "<i8",
    uint64: "<u8",
    float16: "<f2",
    float32: "<f4",
    float64: "<f8",
    bool: "|b1",
    string: "|O",
    "v2:object": "|O",
  };
  if (fixed[dtype]) return fixed[dtype];
  const v2 = /^v2:([US])(\d+)$/.exec(dtype);
  if (v2) return v2[1] === "U" ? `<U${v2[2]}` : `|S${v2[2]}`;
  return dtype;
}

function encodeNumber(v) {
  if (typeof v === "bigint") return v > LIMIT || v < -LIMIT ? v.toString() : Number(v);
  if (Number.isNaN(v)) return "NaN";
  if (v === Infinity) return "Infinity";
  if (v === -Infinity) return "-Infinity";
  return v;
}

function encodeElement(v, type) {
  if (typeof v === "number" || typeof v === "bigint") return encodeNumber(v);
  if (typeof v === "string" && type.startsWith("|S")) {
    const bytes = new TextEncoder().encode(v);
    let end = bytes.length;
    while (end > 0 && bytes[end - 1] === 0) end--;
    return { b64: Buffer.from(bytes.subarray(0, end)).toString("base64") };
  }
  if (v instanceof Uint8Array) {
    let end = v.length;
    while (end > 0 && v[end - 1] === 0) end--;
    return { b64: Buffer.from(v.subarray(0, end)).toString("base64") };
  }
  if (Array.isArray(v)) return v.map((x) => encodeElement(x, "|O"));
  return v;
}

/** The element at a flat offset of zarrita's container. */
function elementAt(data, offset) {
  return typeof data.get === "function" && !ArrayBuffer.isView(data)
    ? data.get(offset)
    : data[offset];
}

/** Values flattened in C order, whatever strides zarrita returned. */
function cOrderValues({ data, shape, stride }, type) {
  const n = shape.reduce((a, b) => a * b, 1);
  const out = new Array(n);
  const index = shape.map(() => 0);
  let offset = 0;
  for (let i = 0; i < n; i++) {
    out[i] = encodeElement(elementAt(data, offset), type);
    for (let d = shape.length - 1; d >= 0; d--) {
      index[d]++;
      offset += stride[d];
      if (index[d] < shape[d]) break;
      offset -= stride[d] * shape[d];
      index[d] = 0;
    }
  }
  return out;
}

async function readOne(job) {
  const location = zarr.root(folderStore(job.root)).resolve(job.path || "/");
  const open = job.format === 2 ? zarr.open.v2 : zarr.open.v3;
  const array = await open(location, { kind: "array" });
  const result = await zarr.get(array);
  const type = numpyType(array.dtype);
  return { reader: READER, shape: result.shape, dtype: type, values: cOrderValues(result, type) };
}

const jobs = JSON.parse(readFileSync(process.argv[2], "utf8"));
const summary = {};
for (const job of jobs) {
  let text;
  try {
    text = JSON.stringify(await readOne(job));
    summary[job.id] = "ok";
  } catch (error) {
    const message = `${error?.name ?? "Error"}: ${String(error?.message ?? error)
      .split("\n")[0]
      .slice(0, 300)}`;
    text = JSON.stringify({ reader: READER, error: message });
    summary[job.id] = message;
  }
  writeFileSync(job.out, text);
}
process.stdout.write(JSON.stringify(summary));
