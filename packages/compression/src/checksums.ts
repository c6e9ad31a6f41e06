/**
 * Checksums: CRC-32 (zlib's native one in Node), CRC-32C, Adler-32 and Fletcher-32.
 * @packageDocumentation
 */
export { crc32 } from "#crc32";
export { adler32 } from "./checksums/adler32.js";
export { crc32Js } from "./checksums/crc32.js";
export { crc32c } from "./checksums/crc32c.js";
export { fletcher32 } from "./checksums/fletcher32.js";
