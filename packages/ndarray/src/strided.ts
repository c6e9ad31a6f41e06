import { type Chunk, type Container, isTypedArray, type TypedArray } from "./containers.js";
import { cOrderStrides, product } from "./memory-layout.js";

/** One side of a strided copy: a container, the element offset of the first element, strides. */
export interface StridedView {
  /** The elements. */
  data: Container;
  /** Element index of the view's first element. */
  offset: number;
  /** Element strides, one per dimension (may be negative). */
  stride: readonly number[];
}

const Float16 = (globalThis as { Float16Array?: new (...args: never[]) => TypedArray })
  .Float16Array;

/**
 * An integer view of the same memory for float containers whose element loads convert (float32
 * and half precision widen to double); undefined for any other container.
 */
function bitView(data: Container): Uint32Array | Uint16Array | undefined {
  if (data instanceof Float32Array)
    return new Uint32Array(data.buffer, data.byteOffset, data.length);
  if (Float16 && data instanceof Float16)
    return new Uint16Array(data.buffer, data.byteOffset, data.length);
  return undefined;
}

/** One axis of a copy after simplification: its extent and its stride on both sides. */
interface Axis {
  n: number;
  s: number;
  d: number;
}

/**
 * The axes of a copy with extent-1 axes dropped and neighbours merged wherever both sides are
 * contiguous across them, so a whole C-order chunk becomes one run and a chunk copied into a
 * larger array becomes one run per row of the chunk's last two axes when they line up.
 */
function simplify(
  shape: readonly number[],
  srcStride: readonly number[],
  dstStride: readonly number[],
): Axis[] {
  const axes: Axis[] = [];
  for (let axis = 0; axis < shape.length; axis++) {
    if (shape[axis] !== 1) axes.push({ n: shape[axis], s: srcStride[axis], d: dstStride[axis] });
  }
  for (let k = axes.length - 1; k > 0; k--) {
    const inner = axes[k];
    const outer = axes[k - 1];
    if (outer.s === inner.s * inner.n && outer.d === inner.d * inner.n) {
      inner.n *= outer.n;
      axes.splice(k - 1, 1);
    }
  }
  return axes;
}

/**
 * Copies an n-d block of `shape` from one strided view to another. Axes contiguous on both
 * sides are merged first; runs contiguous in both views are then copied with `TypedArray.set`,
 * the rest element by element. `lanes` is the number of container slots per element (2 for
 * interleaved complex).
 */
export function copyStrided(
  src: StridedView,
  dst: StridedView,
  shape: readonly number[],
  lanes = 1,
): void {
  for (const n of shape) if (n === 0) return;
  const axes = simplify(shape, src.stride, dst.stride);
  const inner = axes.at(-1);
  if (inner?.s === 1 && inner.d === 1 && isTypedArray(src.data) && isTypedArray(dst.data)) {
    // Contiguous runs move as memory (`TypedArray.set`), bits untouched.
    copyRuns(src.data as Uint8Array, src.offset, dst.data as Uint8Array, dst.offset, axes, lanes);
    return;
  }
  // Float elements copied one by one pass through a JavaScript number, which quiets a
  // signaling NaN: copy their bits instead.
  const srcBits = bitView(src.data);
  const dstBits = bitView(dst.data);
  const same = srcBits && dstBits && srcBits.BYTES_PER_ELEMENT === dstBits.BYTES_PER_ELEMENT;
  const from = same ? srcBits : src.data;
  const to = same ? dstBits : dst.data;
  if (inner === undefined) {
    copyRun(from, src.offset * lanes, 1, to, dst.offset * lanes, 1, 1, lanes);
    return;
  }
  forEachOuter(axes.slice(0, -1), src.offset, dst.offset, (s, d) =>
    copyRun(from, s * lanes, inner.s, to, d * lanes, inner.d, inner.n, lanes),
  );
}

/**
 * Contiguous runs between TypedArrays: short runs word by word, longer ones with `set` of a
 * `subarray` per run (whose cost per call is then small against the copy).
 */
function copyRuns(
  src: Uint8Array,
  srcOffset: number,
  dst: Uint8Array,
  dstOffset: number,
  axes: Axis[],
  lanes: number,
): void {
  const run = axes[axes.length - 1].n * lanes;
  if (axes.length > 1 && run * src.BYTES_PER_ELEMENT <= SHORT_RUN_BYTES) {
    const words = wordViews(src, dst);
    if (words) {
      copyShortRuns(words, srcOffset * lanes, dstOffset * lanes, axes, lanes, run);
      return;
    }
  }
  if (axes.length === 1) {
    dst.set(src.subarray(srcOffset * lanes, srcOffset * lanes + run), dstOffset * lanes);
    return;
  }
  forEachOuter(axes.slice(0, -1), srcOffset, dstOffset, (s, d) =>
    dst.set(src.subarray(s * lanes, s * lanes + run), d * lanes),
  );
}

/**
 * Runs up to this many bytes long are copied word by word: `set` of a `subarray` costs an
 * object and a call per run, which for the 256-byte rows of a 64³ float32 chunk made the copy
 * 2-3x slower than a loop.
 */
const SHORT_RUN_BYTES = 512;

/** Integer views of two containers' memory, and how many words one container slot spans. */
interface WordViews {
  src: Int32Array | Uint16Array | Uint8Array;
  dst: Int32Array | Uint16Array | Uint8Array;
  perSlot: number;
}

/**
 * Views of the widest integer words both containers' memory aligns to (so floats move as bits,
 * never through a JavaScript number); undefined when their element types differ.
 */
function wordViews(
  src: TypedArray | Uint8Array,
  dst: TypedArray | Uint8Array,
): WordViews | undefined {
  const size = src.BYTES_PER_ELEMENT;
  // Containers of different element types convert values (`set` does); only one type's bits move.
  const related = src instanceof dst.constructor || dst instanceof src.constructor;
  if (!related || size !== dst.BYTES_PER_ELEMENT) return undefined;
  const aligned = (w: number) =>
    size % w === 0 && src.byteOffset % w === 0 && dst.byteOffset % w === 0;
  const View = aligned(4) ? Int32Array : aligned(2) ? Uint16Array : Uint8Array;
  const w = View.BYTES_PER_ELEMENT;
  return {
    src: new View(src.buffer as ArrayBuffer, src.byteOffset, (src.length * size) / w),
    dst: new View(dst.buffer as ArrayBuffer, dst.byteOffset, (dst.length * size) / w),
    perSlot: size / w,
  };
}

/** {@link copyRuns} for short runs: a loop over words per run (offsets and `run` in slots). */
function copyShortRuns(
  words: WordViews,
  srcSlot: number,
  dstSlot: number,
  axes: Axis[],
  lanes: number,
  run: number,
): void {
  const { src, dst, perSlot } = words;
  const n = run * perSlot;
  const scale = lanes * perSlot;
  const s0 = srcSlot * perSlot;
  const d0 = dstSlot * perSlot;
  if (axes.length === 3) {
    // The common case (rows of a 3-d chunk), without a callback per run.
    const [a, b] = axes;
    const as = a.s * scale;
    const ad = a.d * scale;
    const bs = b.s * scale;
    const bd = b.d * scale;
    for (let i = 0; i < a.n; i++) {
      for (let j = 0; j < b.n; j++) {
        let s = s0 + i * as + j * bs;
        let d = d0 + i * ad + j * bd;
        for (const end = s + n; s < end; ) dst[d++] = src[s++];
      }
    }
    return;
  }
  forEachOuter(axes.slice(0, -1), 0, 0, (so, do_) => {
    let s = s0 + so * scale;
    let d = d0 + do_ * scale;
    for (const end = s + n; s < end; ) dst[d++] = src[s++];
  });
}

/** Visits the start offsets (source, destination) of every run over the outer axes, odometer style. */
function forEachOuter(
  outer: readonly Axis[],
  srcOffset: number,
  dstOffset: number,
  visit: (s: number, d: number) => void,
): void {
  const index = new Array<number>(outer.length).fill(0);
  let s = srcOffset;
  let d = dstOffset;
  for (;;) {
    visit(s, d);
    let axis = outer.length - 1;
    for (; axis >= 0; axis--) {
      index[axis]++;
      s += outer[axis].s;
      d += outer[axis].d;
      if (index[axis] < outer[axis].n) break;
      s -= outer[axis].s * outer[axis].n;
      d -= outer[axis].d * outer[axis].n;
      index[axis] = 0;
    }
    if (axis < 0) return;
  }
}

function copyRun(
  src: Container,
  srcStart: number,
  srcStep: number,
  dst: Container,
  dstStart: number,
  dstStep: number,
  count: number,
  lanes: number,
): void {
  if (srcStep === 1 && dstStep === 1) {
    const n = count * lanes;
    if (isTypedArray(src) && isTypedArray(dst) && n > 16) {
      (dst as Uint8Array).set((src as Uint8Array).subarray(srcStart, srcStart + n), dstStart);
      return;
    }
    for (let i = 0; i < n; i++) (dst as unknown[])[dstStart + i] = (src as unknown[])[srcStart + i];
    return;
  }
  const s = src as unknown[];
  const d = dst as unknown[];
  if (lanes === 1) {
    for (let i = 0, si = srcStart, di = dstStart; i < count; i++, si += srcStep, di += dstStep)
      d[di] = s[si];
    return;
  }
  const sStep = srcStep * lanes;
  const dStep = dstStep * lanes;
  for (let i = 0, si = srcStart, di = dstStart; i < count; i++, si += sStep, di += dStep) {
    for (let k = 0; k < lanes; k++) d[di + k] = s[si + k];
  }
}

/** Whether a chunk's strides are C order for its shape (dimensions of extent 1 ignored). */
export function isCContiguous(chunk: Chunk): boolean {
  const expected = cOrderStrides(chunk.shape);
  return chunk.shape.every((extent, i) => extent <= 1 || chunk.stride[i] === expected[i]);
}

/**
 * The chunk in C order: the same chunk when it already is, otherwise a C-order copy made
 * with `create` (which allocates a container for n elements).
 */
export function toCOrder<C extends Chunk>(
  chunk: C,
  create: (n: number) => Container,
  lanes = 1,
): C {
  if (isCContiguous(chunk)) return chunk;
  const data = create(product(chunk.shape));
  const stride = cOrderStrides(chunk.shape);
  copyStrided(
    { data: chunk.data, offset: 0, stride: chunk.stride },
    { data, offset: 0, stride },
    chunk.shape,
    lanes,
  );
  return { ...chunk, data, shape: [...chunk.shape], stride };
}
