/**
 * bzip2 decoding with libbzip2 compiled to WebAssembly (@foxglove/wasm-bz2, loaded on first
 * use; in browsers through an import map, see docs/browsers.md).
 * @packageDocumentation
 */

import { importBzip2 } from "#wasm-libraries";
import { DecompressionError } from "./errors.js";
import { messageOf } from "./message-of.js";

interface Bzip2Decoder {
  decompress(src: Uint8Array, destSize: number): Uint8Array;
}

let decoder: Promise<Bzip2Decoder> | undefined;

/** @foxglove/wasm-bz2, loaded and initialised once; a failed load is tried again next time. */
function loadBzip2(): Promise<Bzip2Decoder> {
  decoder ??= importBzip2().then(
    (m) => (m as unknown as { default: { init(): Promise<Bzip2Decoder> } }).default.init(),
    (error: unknown) => {
      decoder = undefined;
      throw error;
    },
  );
  return decoder;
}

/**
 * Decompresses bzip2 data into at most `maxSize` bytes: libbzip2 writes into a buffer of exactly
 * that size and stops with an error rather than write past it.
 * @throws DecompressionError for data that is not bzip2, corrupt, or larger than `maxSize`
 * @throws Error (the loader's) when @foxglove/wasm-bz2 cannot be loaded
 */
export async function bz2Decompress(
  data: Uint8Array,
  options: { maxSize: number },
): Promise<Uint8Array> {
  const { maxSize } = options;
  if (data.length < 4 || data[0] !== 0x42 || data[1] !== 0x5a || data[2] !== 0x68)
    throw new DecompressionError("bzip2", 'not bzip2 data (no "BZh" header)');
  const bzip2 = await loadBzip2();
  try {
    return bzip2.decompress(data, Math.max(maxSize, 1));
  } catch (error) {
    const message = messageOf(error);
    if (message.includes("OUTBUFF_FULL")) throw DecompressionError.tooLarge("bzip2", maxSize);
    throw new DecompressionError("bzip2", message, { cause: error });
  }
}
