import {
  type ArrayToBytesCodec,
  type ChunkSpec,
  CodecConfigError,
  type CodecContext,
  DecodeError,
} from "@z/codecs";
import { formatValue } from "@z/errors";
import type { DataType, JsonObject, NamedConfig } from "@z/metadata";
import type { Chunk } from "@z/ndarray";
import { cOrderStrides, product, toCOrder } from "@z/ndarray";
import { ArrowDataType } from "./dtype.js";
import { coerceElement } from "./elements/coerce.js";
import { ArrowSchemaMismatchError } from "./errors.js";
import { fieldDifference } from "./field/compare.js";
import type { ArrowField } from "./field/model.js";
import type { BodyCompression } from "./ipc/body-compression.js";
import { type IpcColumn, readIpcStreamEither } from "./ipc/read-stream.js";
import { writeIpcStream } from "./ipc/write-stream.js";
import { ARROW_IPC_CODEC, ARROW_IPC_EXTENSION_CODEC } from "./names.js";
import { nativeArrowField, nativeCompatible } from "./native.js";

export { ARROW_IPC_CODEC, ARROW_IPC_EXTENSION_CODEC };

/** The column name the zarr-extensions proposal's prototype uses when none is configured. */
export const DEFAULT_ARROW_COLUMN_NAME = "zarr_array";

/**
 * An array-to-bytes codec that stores each chunk as an Arrow IPC stream: a schema with one
 * field, the dictionary batches of dictionary-encoded fields, one record batch holding the
 * chunk's elements in C order, the end-of-stream marker. Any Arrow implementation opens such a
 * chunk (`tableFromIPC` in apache-arrow, `pyarrow.ipc.open_stream`).
 *
 * Two names, one format:
 * - `z.arrow-ipc` (configuration `{}`, or `{"body_compression": "lz4_frame" | "zstd"}` to
 *   compress the IPC bodies), for the `arrow` data type: the column is the data type's field
 *   itself (its name included), and decoding refuses a stream whose schema differs from it
 *   (ArrowSchemaMismatchError).
 * - `arrow-ipc` (configuration `{"column_name": "..."}`, as proposed for zarr-extensions; its
 *   prototype's `arrow_ipc` spelling reads too): the column is found by name, so streams with
 *   more columns read; it also stores Zarr's own booleans, integers, floats, strings and bytes
 *   as the matching Arrow types, and reads Arrow columns of those types (nulls become the fill
 *   value, dictionary-encoded and large variants read too).
 *
 * Decoding does not use apache-arrow: a bounded reader checks every length and offset before
 * use (see `readIpcStream`); streams with compressed bodies decode asynchronously. Encoding
 * loads apache-arrow on first use.
 */
export class ArrowIpcCodec implements ArrayToBytesCodec {
  readonly kind = "array_to_bytes";

  private constructor(
    readonly name: string,
    /** The configured column name (`arrow-ipc`), or undefined (`z.arrow-ipc`: the field's name). */
    readonly columnName: string | undefined,
    /** The field chunks are written as. */
    readonly field: ArrowField,
    /** Whether the array's data type is `arrow` (otherwise a native Zarr type). */
    private readonly arrowElements: boolean,
    /** Arrow IPC body compression of written chunks (`z.arrow-ipc` only); reads take any. */
    readonly bodyCompression?: BodyCompression,
  ) {}

  /**
   * Builds the codec for chunks of `spec`.
   * @throws CodecConfigError for an unknown configuration member or a data type it cannot store
   */
  static fromConfig(
    name: string,
    configuration: JsonObject,
    { spec }: CodecContext,
  ): ArrowIpcCodec {
    const extension = name !== ARROW_IPC_CODEC;
    const allowed = extension ? ["column_name"] : ["body_compression"];
    for (const key of Object.keys(configuration)) {
      if (!allowed.includes(key)) {
        throw new CodecConfigError(
          `${name}: unknown configuration member "${key}"${allowed.length ? ` (it has ${allowed.join(", ")})` : " (it has none)"}`,
        );
      }
    }
    const { dataType } = spec;
    if (!extension) {
      if (!(dataType instanceof ArrowDataType)) {
        throw new CodecConfigError(
          `The ${name} codec stores arrays of the arrow data type; this array's data type is ${dataType.name} (use "${ARROW_IPC_EXTENSION_CODEC}" for plain types)`,
        );
      }
      const compression = configuration.body_compression;
      if (compression !== undefined && compression !== "lz4_frame" && compression !== "zstd") {
        throw new CodecConfigError(
          `${name}: "body_compression" must be "lz4_frame" or "zstd", got ${formatValue(compression)}`,
        );
      }
      return new ArrowIpcCodec(name, undefined, dataType.field, true, compression);
    }
    const columnName = configuration.column_name ?? DEFAULT_ARROW_COLUMN_NAME;
    if (typeof columnName !== "string") {
      throw new CodecConfigError(
        `${name}: "column_name" must be a string, got ${formatValue(columnName)}`,
      );
    }
    if (dataType instanceof ArrowDataType) {
      return new ArrowIpcCodec(name, columnName, { ...dataType.field, name: columnName }, true);
    }
    const field = nativeArrowField(dataType, columnName);
    if (!field) {
      throw new CodecConfigError(
        `The ${name} codec stores the arrow data type, booleans, integers, floats, strings and bytes; this array's data type is ${dataType.name}`,
      );
    }
    return new ArrowIpcCodec(name, columnName, field, false);
  }

  toJson(): NamedConfig {
    const configuration: JsonObject =
      this.columnName === undefined ? {} : { column_name: this.columnName };
    if (this.bodyCompression) configuration.body_compression = this.bodyCompression;
    return { name: this.name, configuration, mustUnderstand: true };
  }

  /** The chunk's elements in C order, checked against the field (so bad values fail here, not in apache-arrow). */
  private elementsOf(chunk: Chunk, spec: ChunkSpec): unknown[] {
    const { dataType } = spec;
    const data = toCOrder(chunk, (n) => dataType.create(n), dataType.lanes).data;
    const n = product(chunk.shape);
    const out: unknown[] = new Array(n);
    if (this.arrowElements) {
      const items = data as unknown[];
      for (let i = 0; i < n; i++) out[i] = coerceElement(this.field, items[i], `element ${i}`);
    } else {
      for (let i = 0; i < n; i++)
        out[i] = coerceElement(
          this.field,
          nativeValue(dataType, dataType.getElement(data, i)),
          `element ${i}`,
        );
    }
    return out;
  }

  async encode(chunk: Chunk, spec: ChunkSpec): Promise<Uint8Array> {
    return writeIpcStream(this.field, this.elementsOf(chunk, spec), this.bodyCompression);
  }

  /**
   * Reads a chunk. Bounded: the reader allocates at most a few times the chunk's size.
   * @throws DecodeError for malformed bytes; ArrowSchemaMismatchError (a DecodeError) when the
   *   stream's schema is not the metadata's field
   */
  decode(bytes: Uint8Array, spec: ChunkSpec): Chunk | Promise<Chunk> {
    const n = product(spec.shape);
    const where = `${this.name} codec`;
    const column = readIpcStreamEither(bytes, {
      column: this.columnName === undefined ? undefined : { name: this.columnName },
      expectedLength: n,
      where,
    });
    // Compressed bodies decode asynchronously (liblz4/libzstd load on first use).
    if (column instanceof Promise) return column.then((c) => this.chunkOf(c, spec, where));
    return this.chunkOf(column, spec, where);
  }

  private chunkOf(column: IpcColumn, spec: ChunkSpec, where: string): Chunk {
    if (this.arrowElements) {
      const difference = fieldDifference(
        this.field,
        column.field,
        "the stream's field",
        this.columnName !== undefined,
      );
      if (difference) {
        throw new ArrowSchemaMismatchError(
          `${where}: the Arrow IPC stream's schema differs from the array's field: ${difference}`,
        );
      }
      return { data: column.elements, shape: [...spec.shape], stride: cOrderStrides(spec.shape) };
    }
    if (!nativeCompatible(this.field, column.field)) {
      throw new ArrowSchemaMismatchError(
        `${where}: the Arrow column ${JSON.stringify(column.field.name)} has type ${JSON.stringify(column.field.type)}, which does not read as ${spec.dataType.name}`,
      );
    }
    return {
      data: nativeContainer(spec, column.elements),
      shape: [...spec.shape],
      stride: cOrderStrides(spec.shape),
    };
  }
}

/** A native element as the Arrow field wants it (bool containers give 0/1 in some builds). */
function nativeValue(dataType: DataType, value: unknown): unknown {
  if (dataType.kind === "bool") return Boolean(value);
  return value;
}

function nativeContainer(spec: ChunkSpec, elements: unknown[]) {
  const { dataType, fillValue } = spec;
  const data = dataType.create(elements.length);
  for (let i = 0; i < elements.length; i++) {
    const v = elements[i];
    try {
      dataType.setElement(data, i, v === null ? fillValue : dataType.coerce(v));
    } catch (error) {
      throw new DecodeError(
        `element ${i} does not fit ${dataType.name}: ${(error as Error).message}`,
      );
    }
  }
  return data;
}
