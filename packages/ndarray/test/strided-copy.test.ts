// Strided copies against a reference model that walks every index of the block one element at a
// time: whatever the shape, strides (negative ones included), offsets and lanes, the kernel with
// its merged axes and `TypedArray.set` runs writes exactly the same elements.
import {
  type Chunk,
  type Container,
  cOrderStrides,
  copyStrided,
  fOrderStrides,
  isCContiguous,
  product,
  type StridedView,
  toCOrder,
} from "@z/ndarray";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

/** Every index of a shape in C order. */
function* indices(shape: readonly number[]): Generator<number[]> {
  if (product(shape) === 0) return;
  const index = new Array<number>(shape.length).fill(0);
  for (;;) {
    yield [...index];
    let axis = shape.length - 1;
    for (; axis >= 0; axis--) {
      if (++index[axis] < shape[axis]) break;
      index[axis] = 0;
    }
    if (axis < 0) return;
  }
}

function at(view: StridedView, index: readonly number[]): number {
  return index.reduce((offset, i, axis) => offset + i * view.stride[axis], view.offset);
}

function referenceCopy(src: StridedView, dst: StridedView, shape: number[], lanes: number): void {
  const from = src.data as unknown[];
  const to = dst.data as unknown[];
  for (const index of indices(shape)) {
    const s = at(src, index) * lanes;
    const d = at(dst, index) * lanes;
    for (let k = 0; k < lanes; k++) to[d + k] = from[s + k];
  }
}

/**
 * A view of `shape` over a buffer: each axis a permuted, possibly padded and possibly reversed
 * stride, with the offset that keeps every index in bounds. Returns the view and its buffer size.
 */
const viewOf = (shape: number[]) =>
  fc
    .record({
      order: fc.shuffledSubarray(
        shape.map((_, axis) => axis),
        { minLength: shape.length, maxLength: shape.length },
      ),
      pad: fc.array(fc.integer({ min: 0, max: 2 }), {
        minLength: shape.length,
        maxLength: shape.length,
      }),
      flip: fc.array(fc.boolean(), { minLength: shape.length, maxLength: shape.length }),
      lead: fc.integer({ min: 0, max: 3 }),
    })
    .map(({ order, pad, flip, lead }) => {
      const stride = new Array<number>(shape.length);
      let step = 1;
      for (let k = order.length - 1; k >= 0; k--) {
        const axis = order[k];
        stride[axis] = step;
        step *= shape[axis] + pad[axis];
      }
      let offset = lead;
      shape.forEach((extent, axis) => {
        if (flip[axis]) {
          offset += (extent - 1) * stride[axis];
          stride[axis] = -stride[axis];
        }
      });
      return { offset, stride, size: lead + step };
    });

const copyCase = fc
  .array(fc.integer({ min: 0, max: 4 }), { minLength: 0, maxLength: 4 })
  .chain((shape) =>
    fc.record({
      shape: fc.constant(shape),
      src: viewOf(shape),
      dst: viewOf(shape),
      lanes: fc.integer({ min: 1, max: 2 }),
      // Plain arrays, and TypedArrays of each slot size (short runs move as 4-, 2- or 1-byte
      // words), some at an odd byte offset into their buffer.
      typed: fc.constantFrom<
        | false
        | Float64ArrayConstructor
        | Float32ArrayConstructor
        | Int16ArrayConstructor
        | Uint8ArrayConstructor
      >(false, Float64Array, Float32Array, Int16Array, Uint8Array),
      shift: fc.integer({ min: 0, max: 1 }),
    }),
  );

describe("copyStrided", () => {
  it("property: writes what an element-by-element copy writes, and nothing else", () => {
    fc.assert(
      fc.property(copyCase, ({ shape, src, dst, lanes, typed, shift }) => {
        const source = Array.from({ length: src.size * lanes }, (_, i) => i + 1);
        const make = (values: number[]): Container => {
          if (!typed) return [...values];
          const size = typed.BYTES_PER_ELEMENT;
          const buffer = new ArrayBuffer((values.length + 1) * size);
          const view = new typed(buffer, shift * size, values.length);
          view.set(values);
          return view;
        };
        const expected = make(new Array<number>(dst.size * lanes).fill(-1));
        const actual = make(new Array<number>(dst.size * lanes).fill(-1));
        referenceCopy(
          { data: make(source), offset: src.offset, stride: src.stride },
          { data: expected, offset: dst.offset, stride: dst.stride },
          shape,
          lanes,
        );
        copyStrided(
          { data: make(source), offset: src.offset, stride: src.stride },
          { data: actual, offset: dst.offset, stride: dst.stride },
          shape,
          lanes,
        );
        expect(Array.from(actual)).toEqual(Array.from(expected));
      }),
    );
  });

  it("converts values between TypedArrays of different types of one size, as `set` does", () => {
    // Short rows (word copies for one type) of a 2-d block: float32 into int32 converts.
    const src = Float32Array.from({ length: 12 }, (_, i) => i + 0.5);
    const dst = new Int32Array(12);
    copyStrided(
      { data: src, offset: 0, stride: [4, 1] },
      { data: dst, offset: 0, stride: [4, 1] },
      [3, 3],
    );
    expect(Array.from(dst)).toEqual([0, 1, 2, 0, 4, 5, 6, 0, 8, 9, 10, 0]);
  });

  it("copies between containers of different classes element by element", () => {
    const src = Int16Array.of(1, -2, 3, -4, 5, -6);
    const dst: unknown[] = new Array(6).fill(0);
    // Transposed read of a 2x3 block.
    copyStrided(
      { data: src, offset: 0, stride: [1, 3] },
      { data: dst, offset: 0, stride: [2, 1] },
      [3, 2],
    );
    expect(dst).toEqual([1, -4, -2, 5, 3, -6]);
  });
});

describe("toCOrder and isCContiguous", () => {
  it("property: an F-order chunk becomes the C-order chunk of the same elements", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 4 }), { maxLength: 4 }), (shape) => {
        const n = product(shape);
        const stride = fOrderStrides(shape);
        const chunk: Chunk<Int32Array> = {
          data: Int32Array.from({ length: n }, (_, i) => i),
          shape,
          stride,
        };
        const c = toCOrder(chunk, (length) => new Int32Array(length));
        expect(isCContiguous(c)).toBe(true);
        for (const index of indices(shape)) {
          const inF = at({ data: chunk.data, offset: 0, stride }, index);
          const inC = at({ data: c.data, offset: 0, stride: c.stride }, index);
          expect(c.data[inC]).toBe(chunk.data[inF]);
        }
        // Only axes longer than 1 decide the order: with one at most, the chunk itself comes back.
        const longAxes = shape.filter((extent) => extent > 1).length;
        expect(c === chunk).toBe(longAxes <= 1);
        if (c !== chunk) expect(c.stride).toEqual(cOrderStrides(shape));
      }),
    );
  });
});

describe("shapes", () => {
  it("gives C- and F-order strides and element counts", () => {
    expect(cOrderStrides([2, 3, 4])).toEqual([12, 4, 1]);
    expect(fOrderStrides([2, 3, 4])).toEqual([1, 2, 6]);
    expect(product([2, 3, 4])).toBe(24);
    expect(product([])).toBe(1);
    expect(product([5, 0])).toBe(0);
  });
});
