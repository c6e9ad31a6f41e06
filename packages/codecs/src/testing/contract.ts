import { isZarrError } from "@z/errors";
import type { JsonObject, JsonValue, NamedConfig } from "@z/metadata";
import type { Chunk } from "@z/ndarray";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { CodecPipeline } from "../pipeline.js";
import { resolveCodec } from "../registry.js";
import type { BytesToBytesCodec, ChunkSpec, Codec } from "../types.js";
import { chunkValues, smallerSpec } from "./chunks.js";

/** Sample chunks of one spec for {@link describeCodecContract}. */
export interface CodecSample {
  /** The chunk spec (shape, data type, fill value) the codec is built for. */
  spec: ChunkSpec;
  /** Chunks of that spec (any strides); each is encoded and decoded. */
  chunks: Chunk[];
}

/** What {@link describeCodecContract} checks a codec with. */
export interface CodecContractOptions {
  /** The codec's metadata entry: its registered name and configuration. */
  codec: { name: string; configuration?: JsonObject };
  /** Specs with sample chunks (at least one chunk in all). */
  samples: CodecSample[];
  /** The Zarr format the codec is built for (default 3). */
  zarrFormat?: 2 | 3;
  /**
   * The array-to-bytes codec that completes the pipeline around an array-to-array or
   * bytes-to-bytes codec (default: the data type's default serializer, else `bytes` LE).
   */
  serializer?: { name: string; configuration?: JsonObject };
  /**
   * Checks a decoded chunk's elements against the original's (JSON forms, C order), for lossy
   * codecs (default: equal).
   */
  compare?: (decoded: JsonValue[], original: JsonValue[], spec: ChunkSpec) => void;
  /**
   * A spec with fewer elements than `spec` that the codec can also be built for, to check the
   * decoder's size bound (default: the first axis longer than 1 halved; undefined skips).
   */
  smallerSpec?: (spec: ChunkSpec) => ChunkSpec | undefined;
  /**
   * For a bytes-to-bytes codec that only decodes (bz2): makes its encoded form of the
   * serialized bytes, standing in for the codec's own `encode`.
   */
  encode?: (bytes: Uint8Array) => Uint8Array | Promise<Uint8Array>;
  /** Random corruptions tried per sample chunk (default 30). */
  corruptions?: number;
  /** Names of tests known to fail for this codec (they run as `test.fails`). */
  expectedFailures?: string[];
}

/** Fails unless `error` is a branded `@z` error, showing what it was instead. */
function expectTyped(error: unknown, what: string): void {
  if (!isZarrError(error)) {
    const shown = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    expect.fail(`${what}: expected a typed @z error (isZarrError), got ${shown}`);
  }
}

/** The codec list of a pipeline that exercises `codec`, completed by `serializer`. */
function pipelineEntries(codec: Codec, entry: NamedConfig, serializer: NamedConfig): NamedConfig[] {
  if (codec.kind === "array_to_array") return [entry, serializer];
  if (codec.kind === "bytes_to_bytes") return [serializer, entry];
  return [entry];
}

function named(c: { name: string; configuration?: JsonObject }): NamedConfig {
  return { name: c.name, configuration: c.configuration ?? {}, mustUnderstand: true };
}

/** Runs a decode and returns its chunk, or undefined after checking that it failed typed. */
async function decodeOrTypedError(
  pipeline: CodecPipeline,
  bytes: Uint8Array,
  what: string,
): Promise<Chunk | undefined> {
  try {
    return await pipeline.decode(bytes);
  } catch (error) {
    expectTyped(error, what);
    return undefined;
  }
}

/**
 * Registers the vitest tests every codec must pass, in a `describe` block named after it:
 * round trips of the sample chunks; an honest `encodedSize` (equal to the real encoded length
 * wherever the codec or its pipeline declares one); a decoder bounded by the chunk spec (bytes
 * of a larger chunk are refused, and a bytes-to-bytes decoder never returns more than its
 * `maxSize`); and truncated, corrupted or arbitrary input that fails with a typed `@z` error
 * (`DecodeError` or another branded error), never a raw TypeError/RangeError or a hang.
 *
 * @example
 * ```ts
 * import { chunkOf, describeCodecContract } from "@z/codecs/testing";
 * const spec = { shape: [4], dataType: resolveDataTypeV3("int16"), fillValue: 0 };
 * describeCodecContract("gzip", {
 *   codec: { name: "gzip", configuration: { level: 1 } },
 *   samples: [{ spec, chunks: [chunkOf(spec, [1, 2, 3, 4])] }],
 * });
 * ```
 */
export function describeCodecContract(name: string, options: CodecContractOptions): void {
  const zarrFormat = options.zarrFormat ?? 3;
  const entry = named(options.codec);
  const expectedFailures = new Set(options.expectedFailures ?? []);
  const names = new Set<string>();
  const check = (title: string, body: () => Promise<void>) => {
    names.add(title);
    (expectedFailures.has(title) ? test.fails : test)(title, body);
  };
  const codecFor = (spec: ChunkSpec) => resolveCodec(entry, { spec, zarrFormat }, name)!;
  const serializerFor = (spec: ChunkSpec) =>
    named(
      options.serializer ??
        spec.dataType.defaultSerializer?.() ?? {
          name: "bytes",
          configuration: { endian: "little" },
        },
    );
  const pipelineFor = (spec: ChunkSpec) =>
    CodecPipeline.create(
      pipelineEntries(codecFor(spec), entry, serializerFor(spec)),
      spec,
      zarrFormat,
      {},
      `codec contract ${name}`,
    );
  const serialize = (spec: ChunkSpec, chunk: Chunk) =>
    CodecPipeline.create([serializerFor(spec)], spec, zarrFormat).encode(chunk);
  /** The bytes-to-bytes codec's own encode, or the stand-in for decode-only codecs. */
  const encodeBytes = (spec: ChunkSpec, bytes: Uint8Array) => {
    const codec = codecFor(spec) as BytesToBytesCodec;
    return options.encode ? options.encode(bytes) : codec.encode(bytes);
  };
  /** A chunk's stored bytes through the codec's pipeline. */
  const encodeChunk = async (spec: ChunkSpec, chunk: Chunk) =>
    options.encode
      ? encodeBytes(spec, await serialize(spec, chunk))
      : pipelineFor(spec).encode(chunk);
  const cases = () =>
    options.samples.flatMap((sample) =>
      sample.chunks.map((chunk, i) => ({
        spec: sample.spec,
        chunk,
        label: `[${sample.spec.shape}] ${sample.spec.dataType.name} #${i}`,
      })),
    );

  describe(`codec contract: ${name}`, () => {
    check("has samples, and builds for each spec", async () => {
      expect(cases().length).toBeGreaterThan(0);
      for (const { spec } of options.samples) expect(codecFor(spec)).toBeDefined();
    });

    check("round-trips every sample chunk", async () => {
      for (const { spec, chunk, label } of cases()) {
        const pipeline = pipelineFor(spec);
        const decoded = await pipeline.decode(await encodeChunk(spec, chunk));
        expect(decoded.shape, label).toEqual(spec.shape);
        const got = chunkValues(decoded, spec);
        const want = chunkValues(chunk, spec);
        if (options.compare) options.compare(got, want, spec);
        else expect(got, label).toEqual(want);
      }
    });

    check("declares honest encoded sizes", async () => {
      for (const { spec, chunk, label } of cases()) {
        const codec = codecFor(spec);
        const pipeline = pipelineFor(spec);
        const encoded = await encodeChunk(spec, chunk);
        if (pipeline.encodedSize !== undefined)
          expect(encoded.length, `${label}: pipeline encodedSize`).toBe(pipeline.encodedSize);
        if (codec.kind === "array_to_bytes") {
          const size = codec.encodedSize?.(spec);
          if (size !== undefined) expect(encoded.length, `${label}: encodedSize`).toBe(size);
        } else if (codec.kind === "bytes_to_bytes") {
          const input = await serialize(spec, chunk);
          const size = codec.encodedSize?.(input.length);
          if (size !== undefined) {
            const output = await encodeBytes(spec, input);
            expect(output.length, `${label}: encodedSize(${input.length})`).toBe(size);
          }
        }
      }
    });

    check("refuses to decode more than the chunk spec allows", async () => {
      let checked = 0;
      for (const { spec, chunk, label } of cases()) {
        const small = (options.smallerSpec ?? smallerSpec)(spec);
        if (!small) continue;
        checked++;
        const encoded = await encodeChunk(spec, chunk);
        const bounded = pipelineFor(small);
        const what = `${label} decoded into [${small.shape}]`;
        const accepted = await decodeOrTypedError(bounded, encoded, what);
        if (accepted) {
          // Accepting is right only when the bytes are also a valid encoding of the smaller
          // chunk (an all-empty string chunk can be); anything else is a larger chunk let in.
          expect(accepted.shape, what).toEqual(small.shape);
          const again = await encodeChunk(small, accepted);
          expect(
            Array.from(again),
            `${what}: accepted bytes that do not encode a chunk of that spec`,
          ).toEqual(Array.from(encoded));
        }
        const codec = codecFor(spec);
        if (codec.kind === "bytes_to_bytes") {
          // The codec itself, told a bound smaller than what the bytes hold.
          const input = await serialize(spec, chunk);
          const compressed = await encodeBytes(spec, input);
          const limit = Math.floor(input.length / 2);
          for (const bound of [{ expectedSize: limit, maxSize: limit }, { maxSize: limit }]) {
            const out = await Promise.resolve()
              .then(() => codec.decode(compressed, bound))
              .catch((error: unknown) => {
                expectTyped(error, `${label}: decode with ${JSON.stringify(bound)}`);
                return undefined;
              });
            if (out !== undefined) {
              expect(
                out.length,
                `${label}: decoded with ${JSON.stringify(bound)}`,
              ).toBeLessThanOrEqual(limit);
            }
          }
        }
      }
      if (options.samples.some((s) => (options.smallerSpec ?? smallerSpec)(s.spec)))
        expect(checked).toBeGreaterThan(0);
    });

    check("rejects truncated input with a typed error", async () => {
      for (const { spec, chunk, label } of cases()) {
        const pipeline = pipelineFor(spec);
        const encoded = await encodeChunk(spec, chunk);
        const cuts = [...new Set([0, 1, Math.floor(encoded.length / 2), encoded.length - 1])];
        for (const cut of cuts.filter((c) => c >= 0 && c < encoded.length)) {
          await expect(
            pipeline.decode(encoded.slice(0, cut)),
            `${label}: ${cut} of ${encoded.length} bytes`,
          ).rejects.toSatisfy((error: unknown) => {
            expectTyped(error, `${label} truncated to ${cut} of ${encoded.length} bytes`);
            return true;
          });
        }
      }
    });

    check("corrupted input decodes to a chunk of the spec or fails typed", async () => {
      for (const { spec, chunk, label } of cases()) {
        const pipeline = pipelineFor(spec);
        const encoded = await encodeChunk(spec, chunk);
        if (encoded.length === 0) continue;
        await fc.assert(
          fc.asyncProperty(
            fc.array(fc.tuple(fc.nat(encoded.length - 1), fc.integer({ min: 1, max: 255 })), {
              minLength: 1,
              maxLength: 4,
            }),
            async (flips) => {
              const bad = encoded.slice();
              for (const [at, xor] of flips) bad[at] ^= xor;
              const decoded = await decodeOrTypedError(pipeline, bad, `${label} corrupted`);
              if (decoded) expect(decoded.shape).toEqual(spec.shape);
            },
          ),
          { numRuns: options.corruptions ?? 30, seed: 1 },
        );
      }
    });

    check("arbitrary bytes decode to a chunk of the spec or fail typed", async () => {
      for (const sample of options.samples) {
        const pipeline = pipelineFor(sample.spec);
        const encoded = await encodeChunk(sample.spec, sample.chunks[0]);
        await fc.assert(
          fc.asyncProperty(
            fc.nat(encoded.length),
            fc.uint8Array({ maxLength: 64 }),
            async (keep, tail) => {
              const bytes = new Uint8Array(keep + tail.length);
              bytes.set(encoded.subarray(0, keep));
              bytes.set(tail, keep);
              const decoded = await decodeOrTypedError(pipeline, bytes, "arbitrary bytes");
              if (decoded) expect(decoded.shape).toEqual(sample.spec.shape);
            },
          ),
          { numRuns: options.corruptions ?? 30, seed: 2 },
        );
      }
    });

    test("expectedFailures name existing tests", () => {
      expect([...expectedFailures].filter((n) => !names.has(n))).toEqual([]);
    });
  });
}
