import type { JsonObject, NamedConfig } from "@z/metadata";
import { UnknownCodecError } from "./errors.js";
import type { Codec, CodecContext, CodecFactory } from "./types.js";
import { UNSUPPORTED_CODECS } from "./unsupported.js";

const factories = new Map<string, CodecFactory>();

/**
 * Registers a codec under a metadata name. v2 compressors and filters are registered under
 * `numcodecs.<id>`, the name zarr-python 3 gives them in v3 metadata and the name v2 metadata
 * is translated to.
 * @example
 * ```ts
 * registerCodec("example.invert", () => ({
 *   kind: "bytes_to_bytes",
 *   name: "example.invert",
 *   encode: (bytes) => bytes.map((b) => 255 - b),
 *   decode: (bytes) => bytes.map((b) => 255 - b),
 *   toJson: () => ({ name: "example.invert", configuration: {}, mustUnderstand: true }),
 * }));
 * await createArray(store, { shape: [8], dtype: "uint8", compressors: [{ name: "example.invert" }] });
 * ```
 * @category Extending
 */
export function registerCodec(name: string, factory: CodecFactory): void {
  factories.set(name, factory);
}

/**
 * Whether a codec name is registered.
 * @category Codecs
 */
export function hasCodec(name: string): boolean {
  return factories.has(name);
}

/** The registered codec names. */
export function registeredCodecs(): string[] {
  return [...factories.keys()].sort();
}

/**
 * Builds the codec a metadata entry describes, or `undefined` for an unknown codec that may
 * be ignored (`must_understand: false`).
 * @throws UnknownCodecError for an unknown codec that must be understood
 */
export function resolveCodec(
  entry: NamedConfig,
  context: CodecContext,
  where = "",
): Codec | undefined {
  const factory = factories.get(entry.name);
  if (!factory) {
    if (!entry.mustUnderstand) return undefined;
    const reason = Object.hasOwn(UNSUPPORTED_CODECS, entry.name)
      ? UNSUPPORTED_CODECS[entry.name]
      : undefined;
    throw new UnknownCodecError(entry.name, where, reason);
  }
  return factory(entry.configuration as JsonObject, context);
}
