import { errorNames, isZarrError, nameErrorClass, ZarrError } from "@z/errors";

declare module "@z/errors" {
  interface ZarrErrorMap {
    InvalidMetadataError: InvalidMetadataError;
    CodecPipelineError: CodecPipelineError;
    InvalidSelectionError: InvalidSelectionError;
    UnsupportedError: UnsupportedError;
  }
}

/** The tags of zarrita's errors, as `isZarritaError` takes them. */
export type ZarritaErrorTag =
  | "NotFoundError"
  | "InvalidMetadataError"
  | "UnknownCodecError"
  | "CodecPipelineError"
  | "InvalidSelectionError"
  | "UnsupportedError";

/** Every tag, to tell the tagged errors from other `@z` errors. */
const ZARRITA_TAGS: ReadonlySet<ZarritaErrorTag> = new Set<ZarritaErrorTag>([
  "NotFoundError",
  "InvalidMetadataError",
  "UnknownCodecError",
  "CodecPipelineError",
  "InvalidSelectionError",
  "UnsupportedError",
]);

/**
 * Whether an error is one of the tagged errors below. Each carries a `_tag` naming it, so code
 * written for zarrita (`if (isZarritaError(err, "NotFoundError"))`) keeps working; the `@z` error
 * the stack threw is the `cause`. They are `@z` errors too (`isZarrError` knows them by name).
 * They extend `ZarrError` directly, so the API docs show `ZarrError`'s members as inherited.
 */
function isTagged(err: unknown): err is AnyZarritaError {
  return err instanceof ZarrError && ZARRITA_TAGS.has((err as { _tag?: unknown })._tag as never);
}

/** A node or chunk that is not there (zarrita's `NotFoundError`). @category Errors */
export class NotFoundError extends ZarrError {
  static {
    nameErrorClass(NotFoundError, "NotFoundError");
  }
  /** The tag zarrita code narrows on. */
  readonly _tag = "NotFoundError" as const;
  /** The store path looked at. */
  override readonly path: string | undefined;
  /** What was found there instead (`"array"` or `"group"`), when something was. */
  readonly found: "array" | "group" | undefined;
  constructor(
    context: string,
    options: { path?: string; found?: "array" | "group"; cause?: unknown } = {},
  ) {
    super(`Not found: ${context}`, { cause: options.cause });
    this.path = options.path;
    this.found = options.found;
  }
}

/** Metadata that cannot be parsed or is not valid Zarr (zarrita's `InvalidMetadataError`). @category Errors */
export class InvalidMetadataError extends ZarrError {
  static {
    nameErrorClass(InvalidMetadataError, "InvalidMetadataError");
  }
  /** The tag zarrita code narrows on. */
  readonly _tag = "InvalidMetadataError" as const;
  /** The store path of the metadata, when known. */
  override readonly path: string | undefined;
  constructor(message: string, options: { path?: string; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.path = options.path;
  }
}

/** A codec that is not registered (zarrita's `UnknownCodecError`). @category Errors */
export class UnknownCodecError extends ZarrError {
  static {
    nameErrorClass(UnknownCodecError, "UnknownCodecError");
  }
  /** The tag zarrita code narrows on. */
  readonly _tag = "UnknownCodecError" as const;
  /** The codec's name or id. */
  override readonly codec: string;
  constructor(codec: string, options: { cause?: unknown } = {}) {
    super(`Unknown codec: ${codec}`, { cause: options.cause });
    this.codec = codec;
  }
}

/** A chunk that failed to decode or encode (zarrita's `CodecPipelineError`). @category Errors */
export class CodecPipelineError extends ZarrError {
  static {
    nameErrorClass(CodecPipelineError, "CodecPipelineError");
  }
  /** The tag zarrita code narrows on. */
  readonly _tag = "CodecPipelineError" as const;
  /** Whether decoding or encoding failed. */
  readonly direction: "encode" | "decode";
  /** The codec that failed, when known. */
  override readonly codec: string | undefined;
  /** The chunk's store path, when known. */
  readonly chunkPath: string | undefined;
  constructor(options: {
    direction: "encode" | "decode";
    codec?: string;
    chunkPath?: string;
    cause?: unknown;
  }) {
    const where = [
      `Failed to ${options.direction} chunk`,
      options.codec && `via codec "${options.codec}"`,
      options.chunkPath && `at ${options.chunkPath}`,
    ];
    super(where.filter(Boolean).join(" "), { cause: options.cause });
    this.direction = options.direction;
    this.codec = options.codec;
    this.chunkPath = options.chunkPath;
  }
}

/** A selection that does not fit the array (zarrita's `InvalidSelectionError`). @category Errors */
export class InvalidSelectionError extends ZarrError {
  static {
    nameErrorClass(InvalidSelectionError, "InvalidSelectionError");
  }
  /** The tag zarrita code narrows on. */
  readonly _tag = "InvalidSelectionError" as const;
}

/** A feature zarrita's API does not offer (zarrita's `UnsupportedError`). @category Errors */
export class UnsupportedError extends ZarrError {
  static {
    nameErrorClass(UnsupportedError, "UnsupportedError");
  }
  /** The tag zarrita code narrows on. */
  readonly _tag = "UnsupportedError" as const;
  /** The feature asked for. */
  readonly feature: string;
  constructor(feature: string, options: { cause?: unknown } = {}) {
    super(`Unsupported: ${feature}`, { cause: options.cause });
    this.feature = feature;
  }
}

/** The zarrita error class of each tag. */
export interface ZarritaErrorMap {
  NotFoundError: NotFoundError;
  InvalidMetadataError: InvalidMetadataError;
  UnknownCodecError: UnknownCodecError;
  CodecPipelineError: CodecPipelineError;
  InvalidSelectionError: InvalidSelectionError;
  UnsupportedError: UnsupportedError;
}

/** Any of zarrita's tagged errors. */
export type AnyZarritaError = ZarritaErrorMap[ZarritaErrorTag];

/**
 * Whether `err` is one of zarrita's tagged errors, and (given tags) one of those.
 * @example
 * ```ts
 * try { await open(root(store), { kind: "array" }); }
 * catch (err) { if (isZarritaError(err, "NotFoundError")) console.log(err.path); }
 * ```
 * @category Errors
 */
export function isZarritaError<T extends ZarritaErrorTag[]>(
  err: unknown,
  ...tags: T
): err is T extends [] ? AnyZarritaError : ZarritaErrorMap[T[number]] {
  if (!isTagged(err)) return false;
  return tags.length === 0 || tags.includes(err._tag);
}

/** A field of an error object, when it is a string. */
function field(err: object, name: string): string | undefined {
  const value = (err as Record<string, unknown>)[name];
  return typeof value === "string" ? value : undefined;
}

/**
 * The zarrita error for an error of the `@z` stack (which becomes its `cause`), so zarrita code
 * that narrows on tags sees the tags it knows. Errors with no zarrita counterpart (aborts, store
 * failures, read-only stores) pass through unchanged.
 */
export function toZarritaError(err: unknown, path?: string): unknown {
  if (isTagged(err) || !isZarrError(err)) return err;
  const names = errorNames(err);
  const message = (err as Error).message;
  if (names.includes("NotFoundError")) {
    return new NotFoundError(message, { path: path ?? field(err, "key"), cause: err });
  }
  if (names.includes("UnknownCodecError")) {
    return new UnknownCodecError(field(err, "codec") ?? message, { cause: err });
  }
  if (names.includes("CodecError")) {
    const direction = names.includes("EncodeError") ? "encode" : "decode";
    return new CodecPipelineError({
      direction,
      codec: field(err, "codec"),
      chunkPath: field(err, "key"),
      cause: err,
    });
  }
  if (names.includes("MetadataError")) {
    return new InvalidMetadataError(message, { path: path ?? field(err, "key"), cause: err });
  }
  if (names.includes("SelectionError")) {
    return new InvalidSelectionError(message, { cause: err });
  }
  return err;
}
