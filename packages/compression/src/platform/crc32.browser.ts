// Browser variant of "#crc32": the table-driven JavaScript CRC-32.
import { crc32Js } from "../checksums/crc32.js";

/**
 * The CRC-32 of `bytes` as zlib computes it (gzip trailers, zip entries, numcodecs' `crc32`
 * codec). Pass a previous result as `crc` to continue a running checksum.
 */
export const crc32: (bytes: Uint8Array, crc?: number) => number = crc32Js;
