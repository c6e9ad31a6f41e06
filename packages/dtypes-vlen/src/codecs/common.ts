import { type ChunkSpec, CodecConfigError } from "@z/codecs";
import type { DataType, JsonObject } from "@z/metadata";
import type { Chunk } from "@z/ndarray";
import { cOrderStrides, product, toCOrder } from "@z/ndarray";
import { isObjectDataType } from "../dtype/object.js";

/** Which data types a variable-length codec serialises. */
export type ElementKind = "string" | "bytes" | "object" | "any";

/**
 * Checks that a codec can serialise the data type: strings for `vlen-utf8`, bytes for
 * `vlen-bytes`, v2 object arrays for every object codec. A v2 object array learns which
 * object codec it has (see `ObjectDataType.useObjectCodec`).
 * @param numcodecsId the codec's numcodecs id, recorded on v2 object arrays
 * @throws CodecConfigError for any other data type
 */
export function checkDataType(
  codec: string,
  dataType: DataType,
  accepted: readonly ElementKind[],
  numcodecsId: string,
): void {
  if (isObjectDataType(dataType) && (accepted.includes("object") || accepted.includes("any"))) {
    dataType.useObjectCodec(numcodecsId);
    return;
  }
  if (accepted.includes("any")) return;
  const kind =
    dataType.itemSize === 0 && (dataType.kind === "string" || dataType.kind === "bytes")
      ? dataType.kind
      : undefined;
  if (kind && accepted.includes(kind)) return;
  const wanted = accepted.map((k) => (k === "object" ? "v2 object (|O)" : k)).join(" or ");
  throw new CodecConfigError(
    `The ${codec} codec serialises ${wanted} arrays; this array's data type is ${dataType.name}`,
  );
}

/** Rejects configuration fields a codec does not have (a typo must not pass silently). */
export function checkConfigKeys(
  codec: string,
  configuration: JsonObject,
  allowed: readonly string[],
): void {
  for (const key of Object.keys(configuration)) {
    if (!allowed.includes(key)) {
      throw new CodecConfigError(
        `${codec}: unknown configuration field "${key}"` +
          (allowed.length ? ` (it has ${allowed.join(", ")})` : " (it has none)"),
      );
    }
  }
}

/** A chunk's elements in C order (a copy only when its strides are not C order). */
export function cOrderElements(chunk: Chunk, spec: ChunkSpec): ArrayLike<unknown> {
  return toCOrder(chunk, (n) => spec.dataType.create(n)).data as ArrayLike<unknown>;
}

/** A decoded chunk of the spec's shape in C order. */
export function chunkOf(data: unknown[], spec: ChunkSpec): Chunk {
  return { data, shape: [...spec.shape], stride: cOrderStrides(spec.shape) };
}

/** The number of elements of a chunk of the spec. */
export function elementCount(spec: ChunkSpec): number {
  return product(spec.shape);
}
