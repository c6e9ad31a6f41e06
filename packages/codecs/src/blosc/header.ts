import { DecodeError } from "../errors.js";

/** The Blosc1 frame format version c-blosc 1.x writes and reads (header byte 0). */
export const BLOSC_VERSION_FORMAT = 2;
/** Size of the Blosc1 header: version, versionlz, flags, typesize, nbytes, blocksize, ctbytes. */
export const BLOSC_HEADER_SIZE = 16;
/** The largest type size the header can carry; c-blosc treats larger types as 1-byte streams. */
export const BLOSC_MAX_TYPESIZE = 255;
/** The largest buffer c-blosc 1.x compresses (INT32_MAX minus the header). */
export const BLOSC_MAX_BUFFERSIZE = 0x7fffffff - BLOSC_HEADER_SIZE;
/** The largest block size c-blosc 1.x accepts. */
export const BLOSC_MAX_BLOCKSIZE = 0x7fffffff - BLOSC_MAX_TYPESIZE * 4;

/** Header flag: the blocks were byte-shuffled. */
export const FLAG_BYTE_SHUFFLE = 0x01;
/** Header flag: the data was stored uncompressed after the header. */
export const FLAG_MEMCPYED = 0x02;
/** Header flag: the blocks were bit-shuffled. */
export const FLAG_BIT_SHUFFLE = 0x04;
/** Header flag: blocks are one stream each, not split into `typesize` streams. */
export const FLAG_DONT_SPLIT = 0x10;
/** Bit 3 is not used by Blosc1; c-blosc refuses frames that set it ("flags from the future"). */
const FLAG_RESERVED = 0x08;

/** The inner compressors a Blosc1 frame may use, by the name numcodecs and zarr give them. */
export type BloscCname = "blosclz" | "lz4" | "lz4hc" | "snappy" | "zlib" | "zstd";

/** Every inner compressor name, in c-blosc's order. */
export const BLOSC_CNAMES: readonly BloscCname[] = [
  "blosclz",
  "lz4",
  "lz4hc",
  "snappy",
  "zlib",
  "zstd",
];

/** The stream format code stored in flag bits 5-7 for each compressor (lz4 and lz4hc share one). */
export function compFormatOf(cname: BloscCname): number {
  switch (cname) {
    case "blosclz":
      return 0;
    case "lz4":
    case "lz4hc":
      return 1;
    case "snappy":
      return 2;
    case "zlib":
      return 3;
    case "zstd":
      return 4;
  }
}

const FORMAT_NAMES = ["blosclz", "lz4", "snappy", "zlib", "zstd"] as const;

/** The fields of a Blosc1 header. */
export interface BloscHeader {
  /** Frame format version (2 for every c-blosc 1.x frame). */
  version: number;
  /** Version of the inner stream format (1 for every compressor). */
  versionLz: number;
  /** The raw flags byte. */
  flags: number;
  /** The element size the shuffle filters worked with. */
  typesize: number;
  /** Size of the decoded data. */
  nbytes: number;
  /** Size of every block but the last. */
  blocksize: number;
  /** Size of the whole frame, header included. */
  cbytes: number;
  /** Whether the data is stored uncompressed after the header. */
  memcpyed: boolean;
  /** The shuffle filter: 0 none, 1 byte shuffle, 2 bit shuffle. */
  shuffle: 0 | 1 | 2;
  /** Whether blocks are a single stream each (otherwise they may be split by byte of element). */
  dontSplit: boolean;
  /** The inner stream format (lz4 and lz4hc share "lz4"). */
  compressor: "blosclz" | "lz4" | "snappy" | "zlib" | "zstd" | "unknown";
}

/**
 * Reads the 16-byte Blosc1 header at the start of `frame` without checking it against the
 * rest of the frame (see `bloscDecompress` for the full validation).
 * @throws DecodeError when there are fewer than 16 bytes
 */
export function readBloscHeader(frame: Uint8Array): BloscHeader {
  if (frame.length < BLOSC_HEADER_SIZE) {
    throw new DecodeError(
      `blosc: ${frame.length} bytes cannot hold the 16-byte Blosc header; the chunk is truncated`,
    );
  }
  const flags = frame[2];
  const format = flags >>> 5;
  return {
    version: frame[0],
    versionLz: frame[1],
    flags,
    typesize: frame[3],
    nbytes: readInt32(frame, 4),
    blocksize: readInt32(frame, 8),
    cbytes: readInt32(frame, 12),
    memcpyed: (flags & FLAG_MEMCPYED) !== 0,
    shuffle: flags & FLAG_BYTE_SHUFFLE ? 1 : flags & FLAG_BIT_SHUFFLE ? 2 : 0,
    dontSplit: (flags & FLAG_DONT_SPLIT) !== 0,
    compressor: format < FORMAT_NAMES.length ? FORMAT_NAMES[format] : "unknown",
  };
}

/**
 * Checks a header the way c-blosc 1.21 does before decompressing, plus the bound: the version,
 * the reserved flag, the sizes against each other, against the input length and against the
 * largest output the caller allows.
 * @throws DecodeError naming the field that is wrong
 */
export function validateBloscHeader(
  header: BloscHeader,
  inputLength: number,
  maxSize: number,
  expectedSize?: number,
): void {
  const { version, nbytes, blocksize, cbytes, typesize } = header;
  if (version !== BLOSC_VERSION_FORMAT) {
    const hint =
      version > BLOSC_VERSION_FORMAT ? " (a Blosc2 chunk? only Blosc1 frames are supported)" : "";
    throw new DecodeError(
      `blosc: unsupported frame format version ${version}${hint}; expected ${BLOSC_VERSION_FORMAT}`,
    );
  }
  if (header.flags & FLAG_RESERVED) {
    throw new DecodeError(
      `blosc: header flags 0x${header.flags.toString(16)} set the reserved bit 3; not a Blosc1 frame`,
    );
  }
  if (nbytes < 0) throw new DecodeError(`blosc: negative decoded size ${nbytes} in the header`);
  if (expectedSize !== undefined && nbytes !== expectedSize) {
    throw new DecodeError(
      `blosc: the header says the chunk decodes to ${nbytes} bytes, but it must be ${expectedSize}`,
    );
  }
  if (nbytes > maxSize) {
    throw new DecodeError(
      `blosc: the header claims ${nbytes} decoded bytes, more than the ${maxSize} allowed`,
    );
  }
  if (cbytes < BLOSC_HEADER_SIZE)
    throw new DecodeError(`blosc: frame size ${cbytes} in the header is smaller than the header`);
  if (cbytes > inputLength) {
    throw new DecodeError(
      `blosc: the header says the frame has ${cbytes} bytes but only ${inputLength} are present; the chunk is truncated`,
    );
  }
  if (nbytes === 0) return;
  if (typesize === 0) throw new DecodeError("blosc: type size 0 in the header");
  if (blocksize <= 0 || blocksize > nbytes) {
    throw new DecodeError(
      `blosc: block size ${blocksize} in the header is not in 1..${nbytes} (the decoded size)`,
    );
  }
  if (header.memcpyed) {
    if (cbytes !== nbytes + BLOSC_HEADER_SIZE) {
      throw new DecodeError(
        `blosc: an uncompressed frame of ${nbytes} bytes must be ${nbytes + BLOSC_HEADER_SIZE} bytes long, the header says ${cbytes}`,
      );
    }
    return;
  }
  if (header.compressor === "unknown") {
    throw new DecodeError(
      `blosc: unknown compressor format ${header.flags >>> 5} in the header flags`,
    );
  }
  if (header.versionLz !== 1) {
    throw new DecodeError(
      `blosc: unsupported ${header.compressor} stream version ${header.versionLz}; expected 1`,
    );
  }
}

/** Reads a little-endian signed 32-bit integer. */
export function readInt32(bytes: Uint8Array, offset: number): number {
  return (
    bytes[offset] | (bytes[offset + 1] << 8) | (bytes[offset + 2] << 16) | (bytes[offset + 3] << 24)
  );
}

/** Writes a little-endian 32-bit integer. */
export function writeInt32(bytes: Uint8Array, offset: number, value: number): void {
  bytes[offset] = value & 0xff;
  bytes[offset + 1] = (value >>> 8) & 0xff;
  bytes[offset + 2] = (value >>> 16) & 0xff;
  bytes[offset + 3] = (value >>> 24) & 0xff;
}
