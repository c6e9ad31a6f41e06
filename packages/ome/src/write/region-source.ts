import { ZarrArray } from "@z/array";
import { dataTypeOfContainer } from "@z/array/internal";
import { slice } from "@z/indexing";
import { cOrderStrides, product, type TypedArray } from "@z/ndarray";
import { OmeOptionError } from "../errors.js";
import type { Box } from "./chunk-boxes.js";

/** Values in memory: a TypedArray in C order and its shape. */
export interface PyramidValues {
  /** The elements, row-major. */
  data: TypedArray;
  /** The shape. */
  shape: readonly number[];
}

/** What a pyramid is written from: an array in a store, or values in memory. */
export type PyramidSource = ZarrArray | PyramidValues;

/** Reads boxes of the pyramid's source. */
export interface RegionSource {
  /** The source's shape. */
  shape: number[];
  /** Its data type (v3 name). */
  dtype: string;
  /** The elements of a box, row-major. */
  read(box: Box, signal?: AbortSignal): Promise<{ data: TypedArray; shape: number[] }>;
}

function dtypeOfValues(data: TypedArray): string {
  if (!ArrayBuffer.isView(data) || data instanceof DataView)
    throw new OmeOptionError(
      "source",
      `holds a ${(data as object)?.constructor?.name ?? typeof data}, not a TypedArray of numbers`,
    );
  return dataTypeOfContainer(data);
}

function valuesSource(values: PyramidValues): RegionSource {
  const shape = [...values.shape];
  if (product(shape) !== values.data.length)
    throw new OmeOptionError(
      "source",
      `its data has ${values.data.length} elements, its shape ${JSON.stringify(shape)} ${product(shape)}`,
    );
  const strides = cOrderStrides(shape);
  const Ctor = values.data.constructor as new (n: number) => TypedArray;
  return {
    shape,
    dtype: dtypeOfValues(values.data),
    async read(box) {
      const boxShape = box.map(([a, b]) => b - a);
      const out = new Ctor(product(boxShape));
      const nd = shape.length;
      const rowLength = boxShape[nd - 1];
      const at = new Array<number>(nd).fill(0);
      const rows = product(boxShape.slice(0, -1));
      const src = values.data as unknown as { subarray(a: number, b: number): ArrayLike<number> };
      const dst = out as unknown as { set(a: ArrayLike<number>, at: number): void };
      for (let r = 0; r < rows; r++) {
        let offset = box[nd - 1][0];
        for (let d = 0; d < nd - 1; d++) offset += (box[d][0] + at[d]) * strides[d];
        dst.set(src.subarray(offset, offset + rowLength), r * rowLength);
        for (let d = nd - 2; d >= 0; d--) {
          if (++at[d] < boxShape[d]) break;
          at[d] = 0;
        }
      }
      return { data: out, shape: boxShape };
    },
  };
}

/** The box reader of an array (a level being reduced, or the source). */
export function arrayRegionSource(array: ZarrArray): RegionSource {
  return {
    shape: array.shape,
    dtype: array.dtype,
    async read(box, signal) {
      const chunk = await array.get(
        box.map(([a, b]) => slice(a, b)),
        { signal },
      );
      return { data: chunk.data as TypedArray, shape: chunk.shape };
    },
  };
}

/** The box reader of a pyramid's source. */
export function regionSource(source: PyramidSource): RegionSource {
  if (source instanceof ZarrArray) return arrayRegionSource(source);
  if (typeof source !== "object" || source === null || !("data" in source) || !("shape" in source))
    throw new OmeOptionError("source", "must be a ZarrArray or values { data, shape }");
  return valuesSource(source);
}
