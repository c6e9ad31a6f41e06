// The benchmark volume: smooth float32 data with some noise, generated deterministically, and
// the checks that results equal it.

/** Element strides of a C-order array. */
export function cStrides(shape) {
  const stride = new Array(shape.length);
  let step = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    stride[i] = step;
    step *= shape[i];
  }
  return stride;
}

/** A small fast deterministic PRNG (xorshift32) giving uint32s. */
export function prng(seed) {
  let x = seed >>> 0 || 0x9e3779b9;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x;
  };
}

/**
 * A 3-d float32 volume `{data, shape, stride}`: a few smooth waves along each axis plus a
 * slow ramp, around 20, with uniform noise of +-1e-3, so that compressors find structure
 * but the low mantissa bits stay random, as in measured data (gzip compresses it about 1.2x,
 * 1.8x after a byte shuffle).
 */
export function makeVolume(shape, seed = 1) {
  const [nz, ny, nx] = shape;
  const wave = (n, period, amplitude) =>
    Float64Array.from({ length: n }, (_, i) => amplitude * Math.sin((2 * Math.PI * i) / period));
  const fz = wave(nz, 97, 3);
  const fy = wave(ny, 211, 5);
  const fx = wave(nx, 157, 7);
  const next = prng(seed);
  const data = new Float32Array(nz * ny * nx);
  const noiseScale = 0.002 / 2 ** 32;
  let i = 0;
  for (let z = 0; z < nz; z++) {
    for (let y = 0; y < ny; y++) {
      const base = 20 + fz[z] + fy[y] + z * 0.01;
      const ripple = fz[z] * 0.1;
      for (let x = 0; x < nx; x++) {
        data[i++] = base + fx[x] * (1 + ripple) + (next() * noiseScale - 0.001);
      }
    }
  }
  return { data, shape: [...shape], stride: cStrides(shape) };
}

/** The bytes of a TypedArray, as a Buffer view (no copy). */
function bytesOf(array) {
  return Buffer.from(array.buffer, array.byteOffset, array.byteLength);
}

/**
 * Throws unless `result` is a C-order float32 array equal, byte for byte, to `expected`.
 * A benchmark that returns wrong data must fail, loudly.
 */
export function assertSameArray(result, expected, label) {
  const fail = (why) => {
    throw new Error(`${label}: wrong result: ${why}`);
  };
  if (!result || !(result.data instanceof Float32Array))
    fail(`expected a Float32Array, got ${result?.data?.constructor?.name}`);
  if (result.shape.join() !== expected.shape.join())
    fail(`shape [${result.shape}], expected [${expected.shape}]`);
  const stride = result.stride ?? cStrides(result.shape);
  if (stride.join() !== cStrides(expected.shape).join()) fail(`stride [${stride}] is not C order`);
  if (result.data.length !== expected.data.length)
    fail(`${result.data.length} elements, expected ${expected.data.length}`);
  if (!bytesOf(result.data).equals(bytesOf(expected.data))) {
    let i = 0;
    while (i < expected.data.length && Object.is(result.data[i], expected.data[i])) i++;
    fail(`element ${i} is ${result.data[i]}, expected ${expected.data[i]}`);
  }
}

/** A C-order copy of the box `[start, start + size)` of a volume (the expected region). */
export function extractRegion(volume, start, size) {
  const [nz, ny, nx] = size;
  const [sz, sy, sx] = volume.stride;
  const out = new Float32Array(nz * ny * nx);
  let o = 0;
  for (let z = 0; z < nz; z++) {
    for (let y = 0; y < ny; y++) {
      const from = (start[0] + z) * sz + (start[1] + y) * sy + start[2] * sx;
      out.set(volume.data.subarray(from, from + nx), o);
      o += nx;
    }
  }
  return { data: out, shape: [...size], stride: cStrides(size) };
}
