import { lz4FrameCompress, lz4FrameDecompress } from "@z/compression/lz4";
import { DecodeError } from "../errors.js";
import { translatingErrors } from "./decompression.js";

/** Options of {@link decodeLz4Frame}. */
export interface Lz4FrameDecodeOptions {
  /** The exact decoded size, when known: the output is allocated once at this size. */
  expectedSize?: number;
  /** The most bytes the frames may decode to. */
  maxSize: number;
  /** Names the data in error messages. */
  where?: string;
}

/**
 * Decodes one or more concatenated LZ4 frames (the LZ4 frame format of the `lz4` command line
 * tool and Arrow IPC's LZ4_FRAME body compression; skippable frames are skipped), bounded by
 * `options`, checking every checksum the frames carry.
 * @throws DecodeError naming `options.where` for corrupt, truncated or oversized data
 */
export function decodeLz4Frame(bytes: Uint8Array, options: Lz4FrameDecodeOptions): Uint8Array {
  return translatingErrors(
    () => lz4FrameDecompress(bytes, options),
    (error) =>
      new DecodeError(`${options.where ?? "LZ4 frame"}: ${error.problem}`, { cause: error }),
  );
}

/**
 * Encodes bytes as one LZ4 frame: independent 4 MiB blocks (liblz4 compiled to WebAssembly,
 * loaded on first use; a block that does not shrink is stored), the content size in the
 * descriptor, no checksums. The `lz4` command line tool and every Arrow implementation read it.
 */
export function encodeLz4Frame(bytes: Uint8Array): Promise<Uint8Array> {
  return lz4FrameCompress(bytes);
}
