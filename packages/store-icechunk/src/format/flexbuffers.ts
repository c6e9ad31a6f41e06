import type { FailFn } from "./flatbuffers.js";

/**
 * A FlexBuffers reader for spec version 2 metadata values and configuration: maps, vectors
 * (untyped, typed and fixed), strings, keys, blobs (as bytes), numbers, booleans, null.
 * Every offset and length is checked against the input and nesting is bounded.
 */
export function decodeFlexbuffer(bytes: Uint8Array, fail: FailFn): unknown {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = new TextDecoder("utf-8", { fatal: true });
  const check = (pos: number, size: number) => {
    if (!Number.isSafeInteger(pos) || pos < 0 || size < 0 || pos + size > bytes.length)
      fail(
        `a FlexBuffers value at byte ${pos} (${size} bytes) lies outside the ${bytes.length}-byte value`,
      );
  };
  /** Checks a scalar read: a width FlexBuffers has (1, 2, 4 or 8) inside the input. */
  const checkScalar = (pos: number, width: number) => {
    if (width !== 1 && width !== 2 && width !== 4 && width !== 8)
      fail(`a FlexBuffers width of ${width} bytes`);
    check(pos, width);
  };
  const uint = (pos: number, width: number): number => {
    checkScalar(pos, width);
    if (width === 1) return view.getUint8(pos);
    if (width === 2) return view.getUint16(pos, true);
    if (width === 4) return view.getUint32(pos, true);
    const v = view.getBigUint64(pos, true);
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) fail("a FlexBuffers offset or length is beyond 2^53");
    return Number(v);
  };
  const int = (pos: number, width: number): number | bigint => {
    checkScalar(pos, width);
    if (width === 1) return view.getInt8(pos);
    if (width === 2) return view.getInt16(pos, true);
    if (width === 4) return view.getInt32(pos, true);
    const v = view.getBigInt64(pos, true);
    return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(v)
      : v;
  };
  const bigUint = (pos: number, width: number): number | bigint => {
    if (width < 8) return uint(pos, width);
    checkScalar(pos, width);
    const v = view.getBigUint64(pos, true);
    return v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
  };
  const float = (pos: number, width: number): number => {
    checkScalar(pos, width);
    if (width === 4) return view.getFloat32(pos, true);
    if (width === 8) return view.getFloat64(pos, true);
    return fail(`a FlexBuffers float of ${width} bytes`);
  };
  const indirect = (pos: number, width: number) => {
    const target = pos - uint(pos, width);
    check(target, 0);
    return target;
  };
  const decodeText = (start: number, length: number) => {
    check(start, length);
    try {
      return text.decode(bytes.subarray(start, start + length));
    } catch {
      return fail("a FlexBuffers string is not valid UTF-8");
    }
  };
  const key = (pos: number) => {
    const end = bytes.indexOf(0, pos);
    if (end < 0) fail("a FlexBuffers key has no terminating NUL");
    return decodeText(pos, end - pos);
  };
  /** The value whose data is at `pos`, in a parent of `width`-byte slots, of packed type `packed`. */
  // Offsets can point many times at one value, so a hostile input could describe an exponential
  // tree in a few bytes: the number of values decoded is bounded as well as their depth.
  let budget = 1_000_000;
  const value = (pos: number, width: number, packed: number, depth: number): unknown => {
    if (depth > 64) fail("FlexBuffers values nest deeper than 64 levels");
    if (--budget < 0) fail("a FlexBuffers value holds more than a million values");
    const type = packed >> 2;
    const childWidth = 1 << (packed & 3);
    switch (type) {
      case 0:
        return null;
      case 1:
        return int(pos, width);
      case 2:
        return bigUint(pos, width);
      case 3:
        return float(pos, width);
      case 26:
        return uint(pos, width) !== 0;
      case 4:
        return key(indirect(pos, width));
      case 5: {
        const at = indirect(pos, width);
        return decodeText(at, uint(at - childWidth, childWidth));
      }
      case 6:
        return int(indirect(pos, width), childWidth);
      case 7:
        return bigUint(indirect(pos, width), childWidth);
      case 8:
        return float(indirect(pos, width), childWidth);
      case 25: {
        const at = indirect(pos, width);
        const length = uint(at - childWidth, childWidth);
        check(at, length);
        return bytes.slice(at, at + length);
      }
      case 9:
      case 10: {
        const at = indirect(pos, width);
        const length = uint(at - childWidth, childWidth);
        check(at, length * childWidth + length);
        const items = Array.from({ length }, (_, i) =>
          value(at + i * childWidth, childWidth, uint(at + length * childWidth + i, 1), depth + 1),
        );
        if (type === 10) return items;
        const keysAt = indirect(at - 3 * childWidth, childWidth);
        const keysWidth = uint(at - 2 * childWidth, childWidth);
        if (uint(keysAt - keysWidth, keysWidth) !== length)
          fail("a FlexBuffers map has as many keys as values");
        const out: Record<string, unknown> = {};
        items.forEach((item, i) => {
          const name = key(indirect(keysAt + i * keysWidth, keysWidth));
          Object.defineProperty(out, name, {
            value: item,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        });
        return out;
      }
      default: {
        // Typed vectors: 11-14 (int, uint, float, key) with a length; 16-24 fixed of 2, 3 or 4;
        // 36 (bool).
        const at = indirect(pos, width);
        let element: number;
        let length: number;
        if ((type >= 11 && type <= 15) || type === 36) {
          element = type === 36 ? 26 : type - 11 + 1;
          length = uint(at - childWidth, childWidth);
        } else if (type >= 16 && type <= 24) {
          element = ((type - 16) % 3) + 1;
          length = Math.floor((type - 16) / 3) + 2;
        } else {
          return fail(`FlexBuffers type ${type} is unknown`);
        }
        check(at, length * childWidth);
        return Array.from({ length }, (_, i) =>
          value(at + i * childWidth, childWidth, (element << 2) | (packed & 3), depth + 1),
        );
      }
    }
  };
  if (bytes.length < 3) fail("a FlexBuffers value needs at least 3 bytes");
  const rootWidth = bytes[bytes.length - 1];
  if (![1, 2, 4, 8].includes(rootWidth))
    fail(`the FlexBuffers root width ${rootWidth} is not 1, 2, 4 or 8`);
  const packed = bytes[bytes.length - 2];
  return value(bytes.length - 2 - rootWidth, rootWidth, packed, 0);
}
