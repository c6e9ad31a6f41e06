/** C-order (row-major) element strides of a shape. */
export function cOrderStrides(shape: readonly number[]): number[] {
  const stride = new Array<number>(shape.length);
  let step = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    stride[i] = step;
    step *= shape[i];
  }
  return stride;
}

/** F-order (column-major) element strides of a shape. */
export function fOrderStrides(shape: readonly number[]): number[] {
  const stride = new Array<number>(shape.length);
  let step = 1;
  for (let i = 0; i < shape.length; i++) {
    stride[i] = step;
    step *= shape[i];
  }
  return stride;
}

/** The number of elements of a shape (1 for a 0-d shape). */
export function product(shape: readonly number[]): number {
  let n = 1;
  for (const extent of shape) n *= extent;
  return n;
}

/** Whether this machine stores multi-byte numbers little-endian. */
export const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
