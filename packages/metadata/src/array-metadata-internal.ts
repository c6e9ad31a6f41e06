// Shared inside the @z packages, not public: the v3 writer and the extra fields, kept out of array-metadata.ts, which the index
// re-exports whole so the build can turn it into `export *` (tools/build/split-friendly-barrels.mjs).
import { locateError } from "@z/errors";
import type { ArrayMetadata } from "./array-metadata.js";
import { UnsupportedExtensionError } from "./errors.js";
import { namedConfigToJson } from "./extension-json.js";
import type { JsonObject } from "./json.js";
import { isJsonObject } from "./json-write.js";

/**
 * Collects the top-level fields the spec does not define; each must be an object with
 * `must_understand: false`, or the node cannot be opened.
 */
export function collectExtraFields(doc: JsonObject, known: Set<string>, where: string): JsonObject {
  const extra: JsonObject = {};
  for (const [key, value] of Object.entries(doc)) {
    if (known.has(key)) continue;
    if (isJsonObject(value) && value.must_understand === false) {
      extra[key] = value;
      continue;
    }
    throw new UnsupportedExtensionError(
      `${where} has the field "${key}", which this library does not understand and which is not marked "must_understand": false`,
    );
  }
  return extra;
}

/**
 * Records on an error the document it came from (its message starts with it), unless the
 * message names the document already.
 */
export function withWhere(error: unknown, where: string): unknown {
  if (error instanceof Error && error.message.includes(where)) return error;
  return locateError(error, where);
}

/** The v3 `zarr.json` document of array metadata. */
export function arrayMetadataToV3Json(meta: ArrayMetadata): JsonObject {
  const doc: JsonObject = {
    zarr_format: 3,
    node_type: "array",
    shape: [...meta.shape],
    data_type: meta.dataType.toV3(),
    chunk_grid: meta.chunkGrid.toJson(),
    chunk_key_encoding: meta.chunkKeyEncoding.toJson(),
    fill_value: meta.fillValueJson,
    codecs: meta.codecs.map(namedConfigToJson),
    attributes: meta.attributes,
  };
  if (meta.dimensionNames) doc.dimension_names = [...meta.dimensionNames];
  if (meta.storageTransformers.length > 0)
    doc.storage_transformers = meta.storageTransformers.map(namedConfigToJson);
  return { ...doc, ...meta.extraFields };
}
