import { MetadataError } from "./errors.js";

/**
 * Bounds on what metadata may declare, so a hostile or corrupt document gives a
 * {@link MetadataLimitError} instead of a stack overflow or a huge allocation. Every bound is
 * far above what real data uses; raise one with {@link setMetadataLimits} if a dataset needs it.
 */
export interface MetadataLimits {
  /**
   * Largest metadata document parsed, in bytes (default 256 MiB). Consolidated metadata of
   * hierarchies with 100,000+ nodes (about 1 KiB each) fits; V8 strings end at 512 MiB anyway.
   */
  maxDocumentBytes: number;
  /**
   * Deepest nesting of JSON lists and objects, in metadata and in attributes given by users
   * (default 512). Python's json module stops near 1,000 levels, so zarr-python writes nothing
   * deeper; 512 keeps every recursive walk far from the stack limit.
   */
  maxJsonDepth: number;
  /** Most dimensions of an array (default 64, NumPy 2's limit). */
  maxDimensions: number;
  /**
   * Largest element, in bytes (default 16 MiB): `|V`, `|S`, `<U`, raw bytes, structured
   * records. One element is allocated when the metadata is opened (its default fill value).
   */
  maxItemSize: number;
  /**
   * Largest chunk, in bytes once decoded (default 256 MiB: part of a chunk is read or written by
   * decoding or building it whole). For a sharded array this is the inner chunk, the unit that
   * is decoded, and the shard's index (16 bytes per inner chunk).
   */
  maxChunkBytes: number;
  /** Deepest nesting of structured data types (records in records; default 32). */
  maxStructDepth: number;
}

/** The limits in force when nothing has changed them. */
export const DEFAULT_METADATA_LIMITS: Readonly<MetadataLimits> = Object.freeze({
  maxDocumentBytes: 256 * 2 ** 20,
  maxJsonDepth: 512,
  maxDimensions: 64,
  maxItemSize: 16 * 2 ** 20,
  maxChunkBytes: 2 ** 28,
  maxStructDepth: 32,
});

let current: Readonly<MetadataLimits> = DEFAULT_METADATA_LIMITS;

/** The limits in force. */
export function metadataLimits(): Readonly<MetadataLimits> {
  return current;
}

/**
 * Changes some limits for the whole process (the others keep their values); returns the
 * previous limits, so a caller can put them back.
 * @throws MetadataError for a limit that is not a positive safe integer
 */
export function setMetadataLimits(changes: Partial<MetadataLimits>): Readonly<MetadataLimits> {
  const previous = current;
  const next = { ...current };
  for (const [name, value] of Object.entries(changes)) {
    if (!(name in DEFAULT_METADATA_LIMITS))
      throw new MetadataError(`Unknown metadata limit ${JSON.stringify(name)}`);
    if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1)
      throw new MetadataError(
        `The metadata limit ${name} must be a positive integer, got ${value}`,
      );
    next[name as keyof MetadataLimits] = value;
  }
  current = Object.freeze(next);
  return previous;
}
