import { DecodeError } from "@z/codecs";

const fatalDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

/**
 * The UTF-8 size of a string as `TextEncoder` writes it: a lone surrogate becomes U+FFFD
 * (3 bytes), a surrogate pair 4 bytes.
 */
export function utf8Length(text: string): number {
  const n = text.length;
  let size = n;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) size += 1;
    else if (
      c >= 0xd800 &&
      c <= 0xdbff &&
      i + 1 < n &&
      (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00
    ) {
      size += 2;
      i++;
    } else size += 2;
  }
  return size;
}

/**
 * Writes `text`, whose UTF-8 size is `size`, at `out[at]`. Short ASCII strings are copied
 * in a loop: calling `encodeInto` costs more than the copy for them.
 */
export function writeUtf8(text: string, size: number, out: Uint8Array, at: number): void {
  if (size === text.length && size <= 64) {
    for (let i = 0; i < size; i++) out[at + i] = text.charCodeAt(i);
    return;
  }
  encoder.encodeInto(text, out.subarray(at, at + size));
}

function isContinuation(byte: number): boolean {
  return (byte & 0xc0) === 0x80;
}

/** Item boundaries inside a byte buffer: item `i` is `bytes[starts[i], ends[i])`, in order. */
export interface ItemBounds {
  /** Start of each item's bytes. */
  starts: ArrayLike<number>;
  /** End (exclusive) of each item's bytes. */
  ends: ArrayLike<number>;
  /** The number of items. */
  count: number;
}

function invalidItem(codec: string, index: number): DecodeError {
  return new DecodeError(
    `${codec}: item ${index} is not valid UTF-8. Strings must be valid UTF-8 (zarr-python and numcodecs raise here too); ` +
      "read the array with a bytes data type to get the raw bytes",
  );
}

/** Decodes one item; short ASCII items skip the decoder, whose call costs more than they do. */
function decodeOne(
  bytes: Uint8Array,
  start: number,
  end: number,
  codec: string,
  index: number,
): string {
  const size = end - start;
  if (size === 0) return "";
  if (size <= 16) {
    let ascii = true;
    for (let i = start; i < end; i++) {
      if (bytes[i] >= 0x80) {
        ascii = false;
        break;
      }
    }
    if (ascii)
      return String.fromCharCode.apply(null, bytes.subarray(start, end) as unknown as number[]);
  }
  try {
    return fatalDecoder.decode(bytes.subarray(start, end));
  } catch (error) {
    if (error instanceof RangeError) {
      throw new DecodeError(
        `${codec}: item ${index} (${size} bytes) is longer than a JavaScript string can be`,
      );
    }
    throw invalidItem(codec, index);
  }
}

/** Decodes every item on its own (the fallback for huge regions and for locating bad items). */
export function decodeItemsOneByOne(
  bytes: Uint8Array,
  bounds: ItemBounds,
  codec: string,
): string[] {
  const out = new Array<string>(bounds.count);
  for (let i = 0; i < bounds.count; i++)
    out[i] = decodeOne(bytes, bounds.starts[i], bounds.ends[i], codec, i);
  return out;
}

/**
 * How many bytes one `TextDecoder` call covers at most (whole items only). Windows of this
 * size make strings that V8 allocates in the young generation, where a full-chunk string would
 * go to large-object space and can set off a major collection; and a string sliced from a
 * window keeps only that window alive, not the whole chunk.
 */
const WINDOW_BYTES = 1 << 16;

/** Calls `visit(first, last)` for runs of consecutive items spanning at most a window. */
function forEachWindow(bounds: ItemBounds, visit: (first: number, last: number) => void): void {
  const { starts, ends, count } = bounds;
  let first = 0;
  while (first < count) {
    const windowStart = starts[first];
    let last = first;
    while (last + 1 < count && ends[last + 1] - windowStart <= WINDOW_BYTES) last++;
    visit(first, last);
    first = last + 1;
  }
}

/**
 * Decodes items that lie in order in `bytes`, whatever is between them (the vlen layout's
 * length prefixes, or nothing in the offsets layout).
 *
 * Runs of items are decoded with one `TextDecoder` call each and every item is a slice of that
 * string: far cheaper than one call per item. It is exact: when a run decodes as UTF-8, an item
 * that starts with a sequence's first byte and ends with a complete sequence is valid UTF-8 on
 * its own, and its bytes map to a known span of the run's string. A run that does not decode
 * (an invalid item, or length prefixes that are not text) is decoded item by item.
 *
 * @throws DecodeError naming the first item that is not valid UTF-8
 */
export function decodeItemsInRegion(
  bytes: Uint8Array,
  bounds: ItemBounds,
  codec: string,
): string[] {
  const { starts, ends, count } = bounds;
  const out = new Array<string>(count);
  if (count === 0) return out;
  forEachWindow(bounds, (first, last) => {
    const windowStart = starts[first];
    const windowEnd = ends[last];
    let text: string;
    try {
      text = fatalDecoder.decode(bytes.subarray(windowStart, windowEnd));
    } catch {
      // Somewhere here an item is not valid UTF-8; decoding one by one names it.
      for (let i = first; i <= last; i++) out[i] = decodeOne(bytes, starts[i], ends[i], codec, i);
      return;
    }
    checkBoundaries(bytes, bounds, first, last, codec);
    if (text.length === windowEnd - windowStart) {
      // All ASCII: code unit offsets are byte offsets.
      for (let i = first; i <= last; i++)
        out[i] = text.slice(starts[i] - windowStart, ends[i] - windowStart);
      return;
    }
    // Map byte offsets to UTF-16 offsets: every byte that starts a sequence is one code unit,
    // and a 4-byte sequence is two (a surrogate pair).
    let position = windowStart;
    let unit = 0;
    for (let i = first; i <= last; i++) {
      const start = starts[i];
      const end = ends[i];
      for (; position < start; position++) {
        const b = bytes[position];
        if ((b & 0xc0) !== 0x80) unit += b >= 0xf0 ? 2 : 1;
      }
      const begin = unit;
      for (; position < end; position++) {
        const b = bytes[position];
        if ((b & 0xc0) !== 0x80) unit += b >= 0xf0 ? 2 : 1;
      }
      out[i] = text.slice(begin, unit);
    }
  });
  return out;
}

/** Whether `bytes[start, end)` ends with a complete UTF-8 sequence (or is empty). */
function endsCleanly(bytes: Uint8Array, start: number, end: number): boolean {
  let i = end - 1;
  let continuations = 0;
  while (i >= start && continuations < 4 && isContinuation(bytes[i])) {
    i--;
    continuations++;
  }
  if (i < start) return continuations === 0;
  const lead = bytes[i];
  const needed = lead < 0x80 ? 0 : lead >= 0xf0 ? 3 : lead >= 0xe0 ? 2 : 1;
  return needed === continuations;
}

/** Items must neither start nor end inside a multi-byte sequence. */
function checkBoundaries(
  bytes: Uint8Array,
  bounds: ItemBounds,
  first: number,
  last: number,
  codec: string,
): void {
  const { starts, ends } = bounds;
  for (let i = first; i <= last; i++) {
    const start = starts[i];
    const end = ends[i];
    if (start === end) continue;
    if (isContinuation(bytes[start]) || !endsCleanly(bytes, start, end))
      throw invalidItem(codec, i);
  }
}

/**
 * Checks that every item is valid UTF-8 without keeping strings (for Arrow vectors, which
 * hold the bytes themselves).
 * @throws DecodeError naming the first bad item
 */
export function validateUtf8Items(bytes: Uint8Array, bounds: ItemBounds, codec: string): void {
  if (bounds.count === 0) return;
  const { starts, ends } = bounds;
  forEachWindow(bounds, (first, last) => {
    try {
      fatalDecoder.decode(bytes.subarray(starts[first], ends[last]));
    } catch {
      for (let i = first; i <= last; i++) decodeOne(bytes, starts[i], ends[i], codec, i);
    }
    checkBoundaries(bytes, bounds, first, last, codec);
  });
}
