import { reflectedCrc32 } from "../crc32-family.js";

/**
 * The CRC-32 of `bytes` as zlib computes it (gzip trailers, numcodecs' `crc32` codec). Pass a
 * previous result as `crc` to continue a running checksum.
 */
export const crc32: (bytes: Uint8Array, crc?: number) => number = reflectedCrc32(0xedb88320);
