/**
 * zfp compression of 1- to 4-dimensional arrays of int32, int64, float32 and float64 values,
 * with the zfp C library (release 1.0.0) compiled to WebAssembly. The module (about 160 kB)
 * loads on first use. Streams are those of zfp's own builds (64-bit stream words), with or
 * without zfp's header, so zfpy and the `zfp` command-line tool read what this writes and the
 * other way round.
 * @packageDocumentation
 */
import { DecompressionError } from "./errors.js";
import { loadZfpModule, type ZfpExports } from "./zfp/module.js";

/** The element types zfp compresses. */
export type ZfpType = "int32" | "int64" | "float32" | "float64";

/** The typed array of each {@link ZfpType}. */
export interface ZfpArrays {
  int32: Int32Array;
  int64: BigInt64Array;
  float32: Float32Array;
  float64: Float64Array;
}

/** Values zfp compresses: a typed array of one of the {@link ZfpType}s. */
export type ZfpData = ZfpArrays[ZfpType];

/**
 * A zfp compression mode (see zfp's documentation, "Compression modes"). `fixed_rate` computes
 * its bits per block for `rateType` and `rateDims` (by default the field's own type and
 * dimensionality); `rateType: "none"` skips zfp's minimum for floating-point blocks, as zfpy
 * does. `fixed_accuracy` applies to floating-point data only.
 */
export type ZfpMode =
  | { mode: "expert"; minbits: number; maxbits: number; maxprec: number; minexp: number }
  | { mode: "fixed_rate"; rate: number; rateType?: ZfpType | "none"; rateDims?: number }
  | { mode: "fixed_precision"; precision: number }
  | { mode: "fixed_accuracy"; tolerance: number }
  | { mode: "reversible" };

/** What zfp compresses: a C-order array of `type` values of `shape` (1 to 4 dimensions). */
export interface ZfpField {
  /** The element type. */
  type: ZfpType;
  /** The shape, the last dimension varying fastest (zfp's x). */
  shape: readonly number[];
}

/** zfp's numbers for its element types. */
const TYPE_CODES: Readonly<Record<ZfpType | "none", number>> = {
  none: 0,
  int32: 1,
  int64: 2,
  float32: 3,
  float64: 4,
};
const TYPE_NAMES = ["none", "int32", "int64", "float32", "float64"];

const ITEM_SIZES: Readonly<Record<ZfpType, number>> = {
  int32: 4,
  int64: 8,
  float32: 4,
  float64: 8,
};

const ARRAY_TYPES = {
  int32: Int32Array,
  int64: BigInt64Array,
  float32: Float32Array,
  float64: Float64Array,
} as const;

/** The errors zfp-glue.c reports, by their (negative) codes. */
const PROBLEMS: Readonly<Record<number, string>> = {
  [-1]: "it needs more memory than WebAssembly can have",
  [-2]: "zfp rejects the compression parameters",
  [-3]: "the stream has no valid zfp header",
  [-5]: "the stream is truncated",
  [-6]: "zfp cannot decode the stream",
  [-7]: "the stream goes on past the values of the field (it holds a larger field, or is not zfp)",
};

/** zfp-glue.c's mode arguments: mode, real, minbits, maxbits, maxprec, minexp, rate type, rate dims. */
type ModeArguments = [number, number, number, number, number, number, number, number];

/** zfp-glue.c's field arguments: type, dimensionality, nx, ny, nz, nw. */
type FieldArguments = [number, number, number, number, number, number];

/** The mode's arguments to zfp-glue.c. */
function modeArguments(mode: ZfpMode, field: ZfpField): ModeArguments {
  switch (mode.mode) {
    case "expert":
      return [0, 0, mode.minbits, mode.maxbits, mode.maxprec, mode.minexp, 0, 0];
    case "fixed_rate":
      return [
        1,
        mode.rate,
        0,
        0,
        0,
        0,
        TYPE_CODES[mode.rateType ?? field.type],
        mode.rateDims ?? field.shape.length,
      ];
    case "fixed_precision":
      return [2, 0, 0, 0, mode.precision, 0, 0, 0];
    case "fixed_accuracy":
      return [3, mode.tolerance, 0, 0, 0, 0, 0, 0];
    case "reversible":
      return [4, 0, 0, 0, 0, 0, 0, 0];
  }
}

/** The field's type code, dimensionality and zfp sizes (nx, ny, nz, nw). */
function fieldArguments(field: ZfpField): FieldArguments {
  const { shape } = field;
  if (shape.length < 1 || shape.length > 4)
    throw new RangeError(`zfp compresses 1 to 4 dimensions, not ${shape.length}`);
  for (const size of shape) {
    if (!Number.isSafeInteger(size) || size < 0 || size > 0xffffffff)
      throw new RangeError(`zfp: invalid size ${size} in the shape [${shape.join(", ")}]`);
  }
  const [nx, ny = 0, nz = 0, nw = 0] = [...shape].reverse();
  return [TYPE_CODES[field.type], shape.length, nx, ny, nz, nw];
}

function elementCount(field: ZfpField): number {
  return field.shape.reduce((a, b) => a * b, 1);
}

/** Copies `bytes` into the module's memory; the caller frees the pointer. */
function copyIn(zfp: ZfpExports, bytes: Uint8Array): number {
  const pointer = zfp.zfpz_malloc(Math.max(bytes.length, 1));
  if (pointer === 0) throw new DecompressionError("zfp", PROBLEMS[-1]);
  new Uint8Array(zfp.memory.buffer, pointer, bytes.length).set(bytes);
  return pointer;
}

/**
 * Compresses `data`, a C-order array of the field's type and shape, in `mode`; with `header`,
 * the stream starts with zfp's full header (type, shape and mode), as zfpy writes it.
 * @example
 * ```ts
 * const values = Float64Array.from({ length: 64 }, (_, i) => Math.sin(i / 8));
 * const field = { type: "float64", shape: [8, 8] } as const;
 * const stream = await zfpCompress(values, field, { mode: "fixed_accuracy", tolerance: 1e-6 });
 * const back = await zfpDecompress(stream, field, { mode: "fixed_accuracy", tolerance: 1e-6 });
 * ```
 * @throws RangeError for a shape zfp cannot compress, data of the wrong length, or parameters
 *   zfp rejects
 */
export async function zfpCompress(
  data: ZfpData,
  field: ZfpField,
  mode: ZfpMode,
  options: { header?: boolean } = {},
): Promise<Uint8Array> {
  const fieldArgs = fieldArguments(field);
  const count = elementCount(field);
  if (!(data instanceof ARRAY_TYPES[field.type]) || data.length !== count) {
    throw new RangeError(
      `zfp: the data must be a ${ARRAY_TYPES[field.type].name} of ${count} elements for ${field.type} [${field.shape.join(", ")}]`,
    );
  }
  if (count === 0) throw new RangeError("zfp cannot compress an empty array");
  const zfp = await loadZfpModule();
  const src = copyIn(zfp, new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  try {
    const header = options.header ? 1 : 0;
    const modeArgs = modeArguments(mode, field);
    const result = zfp.zfpz_encode(src, ...fieldArgs, header, ...modeArgs);
    if (result < 0)
      throw new RangeError(
        `zfp cannot compress ${field.type} [${field.shape.join(", ")}]: ${PROBLEMS[result] ?? "it failed"}`,
      );
    const stream = new Uint8Array(zfp.memory.buffer, zfp.zfpz_encoded(), result).slice();
    zfp.zfpz_release();
    return stream;
  } finally {
    zfp.zfpz_free(src);
  }
}

/**
 * Decompresses a zfp stream into a C-order array of the field's type and shape. `mode` is the
 * mode the stream was written with, or `"header"` for a stream that starts with zfp's full
 * header (zfpy's streams), which must then describe a field of this type and number of values
 * (numcodecs' older releases had zfpy compress chunks flattened to one dimension). The output is never
 * larger than the field; a stream shorter than the decoder needs is an error, never a read
 * past its end.
 * @param into where to decode, a typed array of the field's type and element count
 * @throws DecompressionError for a stream that is truncated, corrupt, or whose header describes
 *   another type or number of values
 * @throws RangeError for a shape zfp cannot compress or parameters zfp rejects
 */
export async function zfpDecompress<T extends ZfpType>(
  bytes: Uint8Array,
  field: ZfpField & { type: T },
  mode: ZfpMode | "header",
  into?: ZfpArrays[T],
): Promise<ZfpArrays[T]> {
  const fieldArgs = fieldArguments(field);
  const count = elementCount(field);
  const out = (into ?? new ARRAY_TYPES[field.type](count)) as ZfpArrays[T];
  if (out.length !== count)
    throw new RangeError(`zfp: the output holds ${out.length} elements, not ${count}`);
  if (count === 0) return out;
  if (bytes.length === 0) throw new DecompressionError("zfp", "the stream is empty");
  const zfp = await loadZfpModule();
  const size = count * ITEM_SIZES[field.type];
  const src = copyIn(zfp, bytes);
  const dst = zfp.zfpz_malloc(size);
  try {
    if (dst === 0) throw new DecompressionError("zfp", PROBLEMS[-1]);
    const header = mode === "header";
    const modeArgs: ModeArguments = header ? [0, 0, 0, 0, 0, 0, 0, 0] : modeArguments(mode, field);
    const result = zfp.zfpz_decode(
      src,
      bytes.length,
      dst,
      ...fieldArgs,
      header ? 1 : 0,
      ...modeArgs,
    );
    if (result === -4) throw headerMismatch(zfp, field);
    if (result === -2 && !header) throw new RangeError(`zfp: ${PROBLEMS[-2]}`);
    if (result < 0) throw new DecompressionError("zfp", PROBLEMS[result] ?? "decoding failed");
    new Uint8Array(out.buffer, out.byteOffset, size).set(
      new Uint8Array(zfp.memory.buffer, dst, size),
    );
    return out;
  } finally {
    zfp.zfpz_free(src);
    zfp.zfpz_free(dst);
  }
}

/** The error for a header that describes another field than the one expected. */
function headerMismatch(zfp: ZfpExports, field: ZfpField): DecompressionError {
  const info = new BigInt64Array(zfp.memory.buffer, zfp.zfpz_info(), 5);
  const type = TYPE_NAMES[Number(info[0])] ?? "an unknown type";
  const shape = [Number(info[4]), Number(info[3]), Number(info[2]), Number(info[1])].filter(
    (size) => size > 0,
  );
  return new DecompressionError(
    "zfp",
    `the stream holds ${type} [${shape.join(", ")}], not ${field.type} [${field.shape.join(", ")}]`,
  );
}
