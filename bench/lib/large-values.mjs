// The values of the large uint16 arrays, as the zarrs benchmark suite generates them
// (github.com/zarrs/zarr_benchmarks, generate_benchmark_array.rs): element [z, y, x] is
// (x + floor(y² / 32) + z³) mod 65536. Plain JavaScript without Node built-ins: the browser page
// checks its results with the same code.

/**
 * The layout of the large arrays for a cube edge: the zarrs suite's at 1024 (chunks and shards of
 * 256³, inner chunks of 64³), scaled with the edge so that smaller cubes keep its grid (4³ chunks
 * or shards, 4³ inner chunks per shard).
 * @param {number} edge a multiple of 16
 */
export function largeLayout(edge) {
  return {
    shape: [edge, edge, edge],
    chunks: [edge / 4, edge / 4, edge / 4],
    inner: [edge / 16, edge / 16, edge / 16],
  };
}

/** The value at [z, y, x]. */
export function largeValue(z, y, x) {
  return (x + Math.floor((y * y) / 32) + z * z * z) % 65536;
}

/**
 * Fills `out` (C order, of shape `size`) with the values of the box at `start`: the rows run
 * along x, so each is one base value plus x.
 */
export function fillLargeBox(out, start, size) {
  const [nz, ny, nx] = size;
  let i = 0;
  for (let z = start[0]; z < start[0] + nz; z++) {
    const cube = z * z * z;
    for (let y = start[1]; y < start[1] + ny; y++) {
      const base = (cube + Math.floor((y * y) / 32) + start[2]) % 65536;
      for (let x = 0; x < nx; x++) out[i++] = base + x;
    }
  }
  return out;
}

/**
 * Throws unless `result` is the whole C-order uint16 cube of `edge` with the generated values.
 * Compares element by element against the formula, so no second copy of the array is needed.
 */
export function checkLargeArray(result, edge, label) {
  const fail = (why) => {
    throw new Error(`${label}: wrong result: ${why}`);
  };
  if (!result || !(result.data instanceof Uint16Array))
    fail(`expected a Uint16Array, got ${result?.data?.constructor?.name}`);
  if (result.shape.join() !== [edge, edge, edge].join())
    fail(`shape [${result.shape}], expected [${edge},${edge},${edge}]`);
  const stride = result.stride ?? [edge * edge, edge, 1];
  if (stride.join() !== [edge * edge, edge, 1].join()) fail(`stride [${stride}] is not C order`);
  const data = result.data;
  if (data.length !== edge ** 3) fail(`${data.length} elements, expected ${edge ** 3}`);
  let i = 0;
  for (let z = 0; z < edge; z++) {
    const cube = z * z * z;
    for (let y = 0; y < edge; y++) {
      const base = (cube + Math.floor((y * y) / 32)) % 65536;
      for (let x = 0; x < edge; x++, i++) {
        if (data[i] !== ((base + x) & 0xffff))
          fail(`element [${z}, ${y}, ${x}] is ${data[i]}, expected ${largeValue(z, y, x)}`);
      }
    }
  }
}
