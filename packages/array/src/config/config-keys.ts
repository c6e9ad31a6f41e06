// The settings `config` gathers, each backed by the setter that owns it: private to @z/array.
// config.ts holds the public side.
import { type ChunkDecodePool, setDefaultDecodePool, setDefaultWorkerCount } from "@z/codecs";
import {
  chosenDecodePool,
  chosenWorkerCount,
  compressionPathAllowed,
  useCompressionPaths,
} from "@z/codecs/internal";
import {
  type LogSink,
  type LogThreshold,
  logLevels,
  resetLogLevels,
  setLogger,
  setLogLevel,
} from "@z/log";
import {
  DEFAULT_METADATA_LIMITS,
  type MetadataLimits,
  metadataLimits,
  setMetadataLimits,
} from "@z/metadata";
import { DEFAULT_CONCURRENCY, setDefaultConcurrency } from "../io/concurrency.js";
import { settings } from "./settings.js";

/**
 * Every process-wide setting `config` reads and writes, by name, with its type. See
 * {@link config} for what each one does and its default.
 */
export interface ConfigValues {
  /** Chunks read or written, and metadata documents read, at once when a call names no `concurrency` (default 8). zarr-python: `async.concurrency`. */
  concurrency: number;
  /** Largest metadata document parsed, in bytes (default 256 MiB). */
  "metadata.maxDocumentBytes": number;
  /** Deepest nesting of JSON in metadata and attributes (default 512). */
  "metadata.maxJsonDepth": number;
  /** Most dimensions of an array (default 64). */
  "metadata.maxDimensions": number;
  /** Largest element, in bytes (default 16 MiB). */
  "metadata.maxItemSize": number;
  /** Largest decoded chunk, in bytes (default 256 MiB). */
  "metadata.maxChunkBytes": number;
  /** Deepest nesting of structured data types (default 32). */
  "metadata.maxStructDepth": number;
  /** Workers a new pool gets when its options name none; undefined: the cores minus one (default). zarr-python: `threading.max_workers`. */
  "workers.count": number | undefined;
  /** The pool reads decode chunks in; false: the calling thread; undefined: the platform's way (default). */
  "workers.pool": ChunkDecodePool | false | undefined;
  /** Each log namespace's own level (`{ store: "debug", "*": "warn" }`); `{}` (all off) by default, or what `ZARR_LOG` says. */
  "log.levels": Readonly<Record<string, LogThreshold>>;
  /** Where log messages go; undefined: standard error in Node, the console elsewhere (default). */
  "log.sink": LogSink | undefined;
  /** Whether native code (node:zlib's zstd) may run in this thread (default true). */
  "compression.native": boolean;
  /** Whether SIMD WebAssembly may run in this thread (default true). */
  "compression.simd": boolean;
  /** Bytes of shard indexes (partial decoders) each array keeps in memory (default 16 MiB). */
  "cache.shardIndexBytes": number;
}

/** The name of a setting. */
export type ConfigKey = keyof ConfigValues;

/** How one setting is read, written and checked. */
export interface KeySpec<V> {
  /** The value when nothing has changed it (for `config.reset` and the docs). */
  initial(): V;
  get(): V;
  set(value: V): void;
  /** What is wrong with a value, or undefined when it fits. */
  problem(value: unknown): string | undefined;
}

const positiveInteger = (value: unknown) =>
  typeof value === "number" && Number.isSafeInteger(value) && value >= 1
    ? undefined
    : "a positive integer";

const boolean = (value: unknown) => (typeof value === "boolean" ? undefined : "true or false");

const THRESHOLDS: readonly unknown[] = ["debug", "info", "warn", "off"];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function limit(name: keyof MetadataLimits): KeySpec<number> {
  return {
    initial: () => DEFAULT_METADATA_LIMITS[name],
    get: () => metadataLimits()[name],
    set: (value) => {
      setMetadataLimits({ [name]: value });
    },
    problem: positiveInteger,
  };
}

function compressionPath(path: "native" | "simd"): KeySpec<boolean> {
  return {
    initial: () => true,
    get: () => compressionPathAllowed(path),
    set: (value) => useCompressionPaths({ [path]: value }),
    problem: boolean,
  };
}

/** The settings, in the order the docs list them. */
export const CONFIG_KEYS: { [K in ConfigKey]: KeySpec<ConfigValues[K]> } = {
  concurrency: {
    initial: () => 8,
    get: () => DEFAULT_CONCURRENCY,
    set: (value) => {
      setDefaultConcurrency(value);
    },
    problem: positiveInteger,
  },
  "metadata.maxDocumentBytes": limit("maxDocumentBytes"),
  "metadata.maxJsonDepth": limit("maxJsonDepth"),
  "metadata.maxDimensions": limit("maxDimensions"),
  "metadata.maxItemSize": limit("maxItemSize"),
  "metadata.maxChunkBytes": limit("maxChunkBytes"),
  "metadata.maxStructDepth": limit("maxStructDepth"),
  "workers.count": {
    initial: () => undefined,
    get: chosenWorkerCount,
    set: setDefaultWorkerCount,
    problem: (value) => (value === undefined ? undefined : positiveInteger(value)),
  },
  "workers.pool": {
    initial: () => undefined,
    get: chosenDecodePool,
    set: setDefaultDecodePool,
    problem: (value) =>
      value === undefined ||
      value === false ||
      (isObject(value) && typeof value.decode === "function")
        ? undefined
        : "a pool (with a decode method), false or undefined",
  },
  "log.levels": {
    initial: () => ({}),
    get: logLevels,
    set: (levels) => {
      resetLogLevels();
      for (const [namespace, level] of Object.entries(levels)) setLogLevel(namespace, level);
    },
    problem: (value) =>
      isObject(value) && Object.values(value).every((level) => THRESHOLDS.includes(level))
        ? undefined
        : 'an object of namespace: "debug" | "info" | "warn" | "off"',
  },
  "log.sink": {
    initial: () => undefined,
    // setLogger is the only door to the sink: swap it out and back to read it.
    get: () => {
      const sink = setLogger(undefined);
      setLogger(sink);
      return sink;
    },
    set: (sink) => {
      setLogger(sink);
    },
    problem: (value) =>
      value === undefined ||
      (isObject(value) && ["debug", "info", "warn"].every((m) => typeof value[m] === "function"))
        ? undefined
        : "an object with debug, info and warn methods, or undefined",
  },
  "compression.native": compressionPath("native"),
  "compression.simd": compressionPath("simd"),
  "cache.shardIndexBytes": {
    initial: () => 16 << 20,
    get: () => settings.shardIndexCacheBytes,
    set: (value) => {
      settings.shardIndexCacheBytes = value;
    },
    problem: positiveInteger,
  },
};
