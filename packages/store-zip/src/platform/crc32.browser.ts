// Browser variant of "#crc32": the table-driven JavaScript CRC-32.
export { crc32 } from "../crc32.js";
