import { type NativeZstd, nativeCodecs } from "#native";
import { messageOf } from "../compressors/options.js";
import { DecodeError } from "../errors.js";

/**
 * zstd frames through numcodecs.js's WebAssembly zstd, loaded on first use; decoded with
 * node:zlib's native libzstd where Node has it. Every frame is
 * checked before it reaches the WebAssembly decoder: one frame, a declared content size equal
 * to the block size, block headers that end exactly at the end of the stream.
 */

interface ByteCodec {
  encode(data: Uint8Array): Uint8Array | Promise<Uint8Array>;
  decode(data: Uint8Array): Uint8Array | Promise<Uint8Array>;
}

interface ZstdModule {
  fromConfig(config: { id: string; level?: number }): ByteCodec;
}

let zstdModule: Promise<ZstdModule> | undefined;
const encoders = new Map<number, ByteCodec>();
let decoder: ByteCodec | undefined;

function loadZstd(): Promise<ZstdModule> {
  zstdModule ??= import("numcodecs/zstd").then((m) => m.default as unknown as ZstdModule);
  return zstdModule;
}

/** The zstd level c-blosc 1.21 uses for a Blosc clevel (2 * clevel - 1, and the maximum, 22, at 9). */
export function zstdLevelFor(clevel: number): number {
  return clevel < 9 ? clevel * 2 - 1 : 22;
}

/** Compresses `data` into one zstd frame at the level c-blosc uses for `clevel`. */
export async function zstdCompress(clevel: number, data: Uint8Array): Promise<Uint8Array> {
  const level = zstdLevelFor(clevel);
  let codec = encoders.get(level);
  if (!codec) {
    codec = (await loadZstd()).fromConfig({ id: "zstd", level });
    encoders.set(level, codec);
  }
  return codec.encode(data);
}

/**
 * Decodes one zstd frame that must hold exactly `expectedLength` bytes.
 * @throws DecodeError for a malformed frame or one of another size
 */
export async function zstdDecompress(
  frame: Uint8Array,
  expectedLength: number,
): Promise<Uint8Array> {
  checkZstdFrame(frame, expectedLength);
  const native = nativeCodecs?.zstd;
  if (native && expectedLength > 0)
    return checkedLength(nativeZstd(native, frame, expectedLength), expectedLength);
  decoder ??= (await loadZstd()).fromConfig({ id: "zstd" });
  let out: Uint8Array;
  try {
    out = await decoder.decode(frame);
  } catch (error) {
    throw new DecodeError(
      `blosc: corrupt zstd stream: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return checkedLength(out, expectedLength);
}

function checkedLength(out: Uint8Array, expectedLength: number): Uint8Array {
  if (out.length !== expectedLength) {
    throw new DecodeError(
      `blosc: corrupt zstd stream: it decodes to ${out.length} bytes, the block needs ${expectedLength}`,
    );
  }
  return out;
}

/** Decodes a checked frame with node:zlib's libzstd (synchronously: blosc blocks are small). */
function nativeZstd(native: NativeZstd, frame: Uint8Array, expectedLength: number): Uint8Array {
  try {
    return native.decompressSync(frame, expectedLength);
  } catch (error) {
    throw new DecodeError(`blosc: corrupt zstd stream: ${messageOf(error)}`);
  }
}

const DICT_ID_BYTES = [0, 1, 2, 4];
const CONTENT_SIZE_BYTES = [0, 2, 4, 8];

/**
 * Walks a zstd frame's header and block headers without decoding: one frame whose declared
 * content size is `expectedLength` and whose blocks end exactly at the end of `frame`.
 * @throws DecodeError naming what is wrong
 */
export function checkZstdFrame(frame: Uint8Array, expectedLength: number): void {
  const end = frame.length;
  if (end < 6 || frame[0] !== 0x28 || frame[1] !== 0xb5 || frame[2] !== 0x2f || frame[3] !== 0xfd) {
    throw zstdError("no zstd frame magic");
  }
  const descriptor = frame[4];
  if (descriptor & 0x08) throw zstdError("reserved frame header bit set");
  const singleSegment = (descriptor >>> 5) & 1;
  const contentSizeFlag = descriptor >>> 6;
  let pos = 5 + (singleSegment ? 0 : 1) + DICT_ID_BYTES[descriptor & 3];
  const sizeBytes = contentSizeFlag === 0 ? singleSegment : CONTENT_SIZE_BYTES[contentSizeFlag];
  if (sizeBytes === 0) throw zstdError("the frame does not declare its decoded size");
  if (pos + sizeBytes > end) throw zstdError("the frame header is cut off");
  let size = 0;
  for (let i = 0; i < sizeBytes; i++) size += frame[pos + i] * 2 ** (8 * i);
  if (sizeBytes === 2) size += 256;
  pos += sizeBytes;
  if (size !== expectedLength)
    throw zstdError(`the frame declares ${size} bytes, the block needs ${expectedLength}`);
  for (;;) {
    if (pos + 3 > end) throw zstdError("a block header is cut off");
    const header = frame[pos] | (frame[pos + 1] << 8) | (frame[pos + 2] << 16);
    pos += 3;
    const type = (header >>> 1) & 3;
    if (type === 3) throw zstdError("reserved block type");
    pos += type === 1 ? 1 : header >>> 3;
    if (pos > end) throw zstdError("a block runs past the end of the stream");
    if (header & 1) break;
  }
  if (descriptor & 0x04) pos += 4;
  if (pos !== end) throw zstdError(`the frame ends at byte ${pos} of a ${end}-byte stream`);
}

function zstdError(what: string): DecodeError {
  return new DecodeError(`blosc: corrupt zstd stream: ${what}`);
}
