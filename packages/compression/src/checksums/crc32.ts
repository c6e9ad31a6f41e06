import { reflectedCrc32 } from "./crc32-family.js";

/**
 * The CRC-32 of `bytes` as zlib computes it (gzip trailers, zip entries, numcodecs' `crc32`
 * codec), in JavaScript. Pass a previous result as `crc` to continue a running checksum.
 * `crc32` from `@z/compression/checksums` is this one in browsers and zlib's native one in Node.
 */
export const crc32Js: (bytes: Uint8Array, crc?: number) => number = reflectedCrc32(0xedb88320);
