import { reflectedCrc32 } from "./crc32-family.js";

/**
 * The CRC-32C (Castagnoli) checksum of `bytes` (iSCSI, ext4, and the `crc32c` checksum of Zarr
 * v3 chunks and shard indexes). Pass a previous result as `crc` to continue a running checksum.
 */
export const crc32c: (bytes: Uint8Array, crc?: number) => number = reflectedCrc32(0x82f63b78);
