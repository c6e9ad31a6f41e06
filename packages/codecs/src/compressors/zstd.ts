import type { JsonObject, NamedConfig } from "@z/metadata";
import { type NativeZstd, nativeCodecs } from "#native";
import { DecodeError } from "../errors.js";
import type { BytesDecodeOptions, BytesToBytesCodec } from "../types.js";
import { booleanOption, decodeLimit, integerOption, messageOf } from "./options.js";
import { loadZstd, loadZstdDecoder } from "./wasm.js";
import { xxhash64 } from "./xxhash64.js";
import { withContentSize, type ZstdFrame, zstdLayout } from "./zstd-frame.js";

/** libzstd's default level, which it also uses when asked for level 0. */
const DEFAULT_LEVEL = 3;
/** libzstd's level range (ZSTD_minCLevel() and ZSTD_maxCLevel()); levels beyond it are clamped. */
const MIN_LEVEL = -131072;
const MAX_LEVEL = 22;

/**
 * The zstd codec: v3 `zstd` and v2 `numcodecs.zstd` (`{level, checksum}`): node:zlib's native
 * libzstd on libuv's thread pool where Node has it (22.15 and later), else libzstd compiled to
 * WebAssembly (numcodecs.js to encode, zstddec to decode, loaded on first use).
 *
 * Encoding writes one frame that states its content size, like numcodecs. Level 0 means libzstd's
 * default (3); levels are capped at 22 as libzstd does. numcodecs.js cannot reach negative levels
 * and uses 1 for them (native libzstd takes them). numcodecs.js has no checksum option, so with
 * `checksum: true` the frame gets its XXH64 content checksum here, exactly where libzstd would put it.
 *
 * Decoding first walks the frame and block headers: a declared content size beyond the chunk's
 * bound fails at once, and truncated or malformed frames never reach libzstd. A frame that does
 * not declare its size gets its header rewritten to declare the chunk's size when that is known
 * exactly, so libzstd itself refuses to write more or less; otherwise it is decoded only when its
 * block headers prove it fits (a compressed block yields at most 128 KiB, or the window size).
 */
export class ZstdCodec implements BytesToBytesCodec {
  readonly kind = "bytes_to_bytes";

  constructor(
    readonly level: number = 0,
    readonly checksum: boolean = false,
    readonly name: "zstd" | "numcodecs.zstd" = "zstd",
  ) {}

  /** Builds the codec; missing fields take zarr-python's defaults for `zstd` (level 0) and numcodecs' (level 1) otherwise. */
  static fromConfig(
    configuration: JsonObject,
    name: "zstd" | "numcodecs.zstd" = "zstd",
  ): ZstdCodec {
    return new ZstdCodec(
      integerOption(configuration, "level", name, name === "zstd" ? 0 : 1),
      booleanOption(configuration, "checksum", name, false),
      name,
    );
  }

  /**
   * The metadata entry. `numcodecs.zstd` leaves out `checksum: false`: numcodecs before 0.12
   * (Debian's zarr 2) refuses a configuration that names it.
   */
  toJson(): NamedConfig {
    const configuration: JsonObject =
      this.name === "numcodecs.zstd" && !this.checksum
        ? { level: this.level }
        : { level: this.level, checksum: this.checksum };
    return { name: this.name, configuration, mustUnderstand: true };
  }

  async encode(bytes: Uint8Array): Promise<Uint8Array> {
    const native = nativeCodecs?.zstd;
    if (native) {
      const level =
        this.level === 0 ? DEFAULT_LEVEL : Math.max(MIN_LEVEL, Math.min(MAX_LEVEL, this.level));
      return native.compress(bytes, level, this.checksum);
    }
    const Zstd = await loadZstd();
    const frame = await new Zstd(this.level === 0 ? DEFAULT_LEVEL : this.level).encode(bytes);
    return this.checksum ? addContentChecksum(frame, bytes) : frame;
  }

  async decode(bytes: Uint8Array, options: BytesDecodeOptions): Promise<Uint8Array> {
    const label = `${this.name} codec`;
    const limit = decodeLimit(options);
    const layout = zstdLayout(bytes);
    if ("error" in layout) throw new DecodeError(`${label}: not valid zstd data: ${layout.error}`);
    const { frames } = layout;
    const declared = frames.reduce((sum, f) => sum + (f.contentSize ?? 0), 0);
    if (declared > limit) {
      throw new DecodeError(
        `${label}: the data declares ${declared} bytes of content, more than the ${limit} this chunk may hold`,
      );
    }
    const [only] = frames;
    const native = nativeCodecs?.zstd;
    if (native && frames.length === 1 && only.contentSize !== undefined && only.contentSize > 0)
      return decodeNatively(native, bytes.subarray(only.start, only.end), only.contentSize, label);
    const inputs = planFrames(bytes, frames, limit, options.expectedSize !== undefined, label);
    const decodeFrame = await loadZstdDecoder();
    const parts: Uint8Array[] = [];
    let total = 0;
    for (const { frame, capacity, exact } of inputs) {
      // libzstd's errors come back as a negative size, i.e. fewer bytes than the frame holds.
      const part = capacity === 0 ? new Uint8Array(0) : decodeFrame(frame, capacity);
      if (exact ? part.length !== capacity : part.length === 0) {
        throw new DecodeError(
          `${label}: corrupt data (a frame that should decode to ${exact ? capacity : "some"} bytes decoded to ${part.length})`,
        );
      }
      total += part.length;
      if (total > limit)
        throw new DecodeError(`${label}: the data decompresses to more than ${limit} bytes`);
      parts.push(part);
    }
    return concat(parts, total);
  }
}

/**
 * Decodes one frame that declares its size (`size`, already checked against the chunk's bound)
 * with node:zlib's libzstd, which refuses to write more; fewer bytes are an error here.
 */
async function decodeNatively(
  native: NativeZstd,
  frame: Uint8Array,
  size: number,
  label: string,
): Promise<Uint8Array> {
  let out: Uint8Array;
  try {
    out = await native.decompress(frame, size);
  } catch (error) {
    throw new DecodeError(`${label}: corrupt data (${messageOf(error)})`);
  }
  if (out.length !== size) {
    throw new DecodeError(
      `${label}: corrupt data (a frame that should decode to ${size} bytes decoded to ${out.length})`,
    );
  }
  return out;
}

/** One frame to decode, with the output size it must have (`exact`) or may reach. */
interface FrameInput {
  frame: Uint8Array;
  capacity: number;
  exact: boolean;
}

/**
 * The frames to hand to libzstd, one at a time, each with its output capacity: its declared
 * content size (which it must decode to exactly), or for a frame without one, the exact size
 * when the chunk's size is known (the frame is given that content size, so libzstd holds it to
 * it), else the bound its block headers give, decoded only when that bound fits the limit.
 */
function planFrames(
  data: Uint8Array,
  frames: ZstdFrame[],
  limit: number,
  exact: boolean,
  label: string,
): FrameInput[] {
  const known = frames.reduce((sum, f) => sum + (f.contentSize ?? 0), 0);
  const unsized = frames.filter((f) => f.contentSize === undefined);
  const unknownBound = unsized.reduce((sum, f) => sum + f.blockBound, 0);
  const patch = exact && unsized.length === 1;
  if (!patch && known + unknownBound > limit) {
    throw new DecodeError(
      `${label}: a zstd frame does not declare its content size and its blocks could decode to ${unknownBound} bytes, ` +
        `more than the ${limit - known} this chunk leaves for it; refusing to decode it`,
    );
  }
  return frames.map((f) => {
    if (f.contentSize !== undefined)
      return { frame: data.subarray(f.start, f.end), capacity: f.contentSize, exact: true };
    if (patch) {
      const size = limit - known;
      return { frame: withContentSize(data, f, size), capacity: size, exact: true };
    }
    return { frame: data.subarray(f.start, f.end), capacity: f.blockBound, exact: false };
  });
}

/** Sets the Content_Checksum flag of a single-frame encoding and appends XXH64's low 32 bits. */
function addContentChecksum(frame: Uint8Array, content: Uint8Array): Uint8Array {
  const out = new Uint8Array(frame.length + 4);
  out.set(frame);
  out[4] |= 0x04;
  new DataView(out.buffer).setUint32(frame.length, xxhash64(content)[1], true);
  return out;
}

function concat(parts: Uint8Array[], total: number): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
