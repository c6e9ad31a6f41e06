// The Zarr data types zfp compresses, and how their elements become zfp's: int32, int64,
// float32 and float64 as they are; narrower integers and unsigned ones promoted to int32 or int64
// as zarr-extensions codecs/zfp (and zarrs) define it, and demoted back with clamping.
import type { ZfpData, ZfpType } from "@z/compression/zfp";
import type { Container } from "@z/ndarray";
import { CodecConfigError } from "../errors.js";

/** How one data type's elements go to zfp and back. */
export interface ZfpElements {
  /** The zfp type the elements are compressed as. */
  readonly type: ZfpType;
  /** The first `n` elements of `data` as zfp values (a view when no promotion is needed). */
  toZfp(data: Container, n: number): ZfpData;
  /** zfp values back as elements of the data type, written into `out`. */
  fromZfp(values: ZfpData, out: Container): void;
}

type Numbers = { [i: number]: number; length: number };
type Bigs = { [i: number]: bigint; length: number };

/** A data type compressed as itself. */
function direct(type: ZfpType): ZfpElements {
  return {
    type,
    toZfp: (data, n) => (data as ZfpData).subarray(0, n) as ZfpData,
    fromZfp: (values, out) => (out as unknown as { set(v: ZfpData): void }).set(values),
  };
}

/** An integer type of `bits` bits promoted to int32 by a shift (and an offset if unsigned). */
function shifted(bits: number, signed: boolean): ZfpElements {
  const shift = 31 - bits;
  const offset = signed ? 0 : 2 ** (bits - 1);
  const min = signed ? -(2 ** (bits - 1)) : 0;
  const max = signed ? 2 ** (bits - 1) - 1 : 2 ** bits - 1;
  return {
    type: "int32",
    toZfp(data, n) {
      const source = data as unknown as Numbers;
      const out = new Int32Array(n);
      for (let i = 0; i < n; i++) out[i] = (source[i] - offset) << shift;
      return out;
    },
    fromZfp(values, out) {
      const source = values as Int32Array;
      const target = out as unknown as Numbers;
      for (let i = 0; i < source.length; i++) {
        const value = (source[i] >> shift) + offset;
        target[i] = Math.max(min, Math.min(value, max));
      }
    },
  };
}

/** uint32, compressed as int32 with values above 2^31 - 1 clamped (as zarrs does). */
const UINT32: ZfpElements = {
  type: "int32",
  toZfp(data, n) {
    const source = data as Uint32Array;
    const out = new Int32Array(n);
    for (let i = 0; i < n; i++) out[i] = Math.min(source[i], 0x7fffffff);
    return out;
  },
  fromZfp(values, out) {
    const source = values as Int32Array;
    const target = out as Uint32Array;
    for (let i = 0; i < source.length; i++) target[i] = Math.max(source[i], 0);
  },
};

/** uint64, compressed as int64 with values above 2^63 - 1 clamped (as zarrs does). */
const UINT64: ZfpElements = {
  type: "int64",
  toZfp(data, n) {
    const source = data as unknown as Bigs;
    const out = new BigInt64Array(n);
    const max = 0x7fffffffffffffffn;
    for (let i = 0; i < n; i++) out[i] = source[i] > max ? max : source[i];
    return out;
  },
  fromZfp(values, out) {
    const source = values as BigInt64Array;
    const target = out as unknown as Bigs;
    for (let i = 0; i < source.length; i++) target[i] = source[i] < 0n ? 0n : source[i];
  },
};

const NATIVE: Readonly<Record<string, ZfpElements>> = {
  int32: direct("int32"),
  int64: direct("int64"),
  float32: direct("float32"),
  float64: direct("float64"),
};

const PROMOTED: Readonly<Record<string, ZfpElements>> = {
  ...NATIVE,
  int8: shifted(8, true),
  uint8: shifted(8, false),
  int16: shifted(16, true),
  uint16: shifted(16, false),
  uint32: UINT32,
  uint64: UINT64,
};

/**
 * How elements of `dataType` go to zfp: with `promote`, the registered codec's integer
 * promotions too; without, only zfp's own four types (what zfpy takes).
 * @throws CodecConfigError for a data type zfp cannot compress
 */
export function zfpElementsOf(dataType: string, codec: string, promote: boolean): ZfpElements {
  const table = promote ? PROMOTED : NATIVE;
  const elements = Object.hasOwn(table, dataType) ? table[dataType] : undefined;
  if (!elements)
    throw new CodecConfigError(
      `${codec} codec: zfp cannot compress ${dataType} data; it takes ${Object.keys(table).join(", ")}`,
    );
  return elements;
}
