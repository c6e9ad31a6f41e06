import { DecompressionError } from "@z/compression/errors";
import { zstdDecompress } from "@z/compression/zstd";
import { IcechunkFormatError } from "../errors.js";
import type { FbTable } from "./flatbuffers.js";

/**
 * The longest location the official implementation decompresses (its
 * MAX_DECOMPRESSED_LOCATION_SIZE): a frame that decodes to more is corrupt.
 */
const MAX_LOCATION_BYTES = 1024;

/** `Manifest.compression_algorithm`: 1, the default, is zstd with `location_dictionary`. */
const ZSTD_DICTIONARY = 1;

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Decodes one `ChunkRef.compressed_location` of a manifest to its URL. */
export type LocationDecoder = (compressed: Uint8Array) => Promise<string>;

/**
 * The decoder of a manifest's compressed virtual chunk locations (spec version 2 manifests with
 * many virtual chunks): each is one zstd frame compressed with the manifest's
 * `location_dictionary`. It fails only when called, so manifests without compressed locations
 * never need a dictionary, nor load the zstd dictionary decoder.
 */
export function locationDecoder(file: string, manifest: FbTable): LocationDecoder {
  const dictionary = manifest.bytes(2, "location_dictionary");
  const algorithm = manifest.u8(3, "compression_algorithm", ZSTD_DICTIONARY);
  return async (compressed) => {
    if (algorithm !== ZSTD_DICTIONARY)
      throw new IcechunkFormatError(
        file,
        `it holds compressed virtual chunk locations with compression algorithm ${algorithm} (1 = zstd with a dictionary is the only one)`,
      );
    if (dictionary === undefined)
      throw new IcechunkFormatError(
        file,
        "it holds compressed virtual chunk locations but no location dictionary",
      );
    let bytes: Uint8Array;
    try {
      bytes = await zstdDecompress(compressed, { maxSize: MAX_LOCATION_BYTES, dictionary });
    } catch (error) {
      if (!(error instanceof DecompressionError)) throw error;
      throw new IcechunkFormatError(
        file,
        `a compressed virtual chunk location does not decode: ${error.message}`,
        { cause: error },
      );
    }
    try {
      return utf8.decode(bytes);
    } catch (error) {
      throw new IcechunkFormatError(file, "a compressed virtual chunk location is not UTF-8", {
        cause: error,
      });
    }
  };
}
