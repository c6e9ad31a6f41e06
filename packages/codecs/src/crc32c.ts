import { reflectedCrc32 } from "./crc32-family.js";

/**
 * The CRC-32C (Castagnoli) checksum of `bytes`: the checksum the v3 `crc32c` codec appends and
 * the sharding index carries. Pass a previous result as `crc` to continue a running checksum.
 */
export const crc32c: (bytes: Uint8Array, crc?: number) => number = reflectedCrc32(0x82f63b78);
