// zarrita reads (and its `create` writes) v3 array documents that the spec does not allow: a
// codec list without an array->bytes codec (zarrita then stores elements as little-endian
// bytes; strings get vlen-utf8) and a `null` fill value (zarrita then fills with zeros). The @z stack is strict, so
// the zarrita entry point rewrites such documents, as they are read, to what zarrita makes of
// them; conforming documents pass through untouched.

const decoder = new TextDecoder();
const encoder = new TextEncoder();

// The codecs that turn elements into bytes; a list with none of them gets the bytes codec.
const ARRAY_TO_BYTES = new Set(["bytes", "sharding_indexed", "vlen-utf8", "vlen-bytes", "zfp"]);

// What zarrita fills a never-written chunk with when the fill value is null.
function defaultFill(dataType: unknown): unknown {
  if (dataType === "bool") return false;
  if (dataType === "string") return "";
  if (typeof dataType === "string" && /^u?int\d+$|^float\d+$/.test(dataType)) return 0;
  return null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A v3 `zarr.json` as the `@z` stack can read it: an array's missing array->bytes codec becomes
 * the little-endian bytes codec (after the array->array codecs) and a null fill value becomes
 * the data type's zero. Anything else (other documents, unparsable bytes) is returned as is,
 * for the stack to judge.
 */
export function relaxZarritaMetadata(bytes: Uint8Array): Uint8Array {
  let doc: unknown;
  try {
    doc = JSON.parse(decoder.decode(bytes));
  } catch {
    return bytes;
  }
  if (!isObject(doc) || doc.zarr_format !== 3 || doc.node_type !== "array") return bytes;
  let changed = false;
  const codecs = doc.codecs;
  if (Array.isArray(codecs) && codecs.every(isObject)) {
    const named = (c: Record<string, unknown>) => ARRAY_TO_BYTES.has(c.name as string);
    const onlyTranspose = codecs.every((c) => c.name === "transpose");
    if (!codecs.some(named) && onlyTranspose) {
      // Strings have no bytes codec: zarrita reads such an array's missing chunks as the
      // fill value and cannot write it; vlen-utf8 (v3's string codec) reads and writes it.
      const serializer =
        doc.data_type === "string"
          ? { name: "vlen-utf8", configuration: {} }
          : { name: "bytes", configuration: { endian: "little" } };
      doc.codecs = [...codecs, serializer];
      changed = true;
    }
  }
  if (doc.fill_value === null) {
    const fill = defaultFill(doc.data_type);
    if (fill !== null) {
      doc.fill_value = fill;
      changed = true;
    }
  }
  return changed ? encoder.encode(JSON.stringify(doc)) : bytes;
}
