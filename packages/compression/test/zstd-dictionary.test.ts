// zstd with a dictionary: what the zstd tool (Debian's, libzstd 1.5.4 like the decoder here)
// trains and compresses, zstdDecompress decodes to the input; bounds hold; corrupt and mutated
// frames, wrong and corrupt dictionaries give a DecompressionError, and a mutated frame decodes
// only when the zstd tool decodes it too, to the same bytes.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tempDir } from "@z/test-utils";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DecompressionError } from "../src/errors.js";
import { zstdCompress, zstdDecompress } from "../src/zstd.js";
import { rejection } from "./samples.js";

const { dir, remove } = tempDir("z-zstd-dict-");
afterAll(remove);

/** Runs the zstd tool on `input`; its output, or undefined when it fails. */
function zstd(args: string[], input: Uint8Array): Uint8Array | undefined {
  const result = spawnSync("zstd", ["-q", ...args], { input, maxBuffer: 1 << 26 });
  if (result.error) throw result.error;
  return result.status === 0 ? new Uint8Array(result.stdout) : undefined;
}

/** Compresses `input` with the zstd tool from a file, so the frame declares its content size. */
function compressSized(args: string[], input: Uint8Array): Uint8Array {
  const file = `${dir}/input`;
  writeFileSync(file, input);
  const frame = zstd(["-c", ...args, file], new Uint8Array(0));
  expect(frame).toBeDefined();
  return frame as Uint8Array;
}

/** A URL-like location, as the locations of virtual chunks are. */
function location(i: number, seed: number): string {
  const bucket = ["archive", "model-output", "obs"][seed % 3];
  return `s3://${bucket}-${seed}/run/${2000 + (i % 24)}/${String(i % 12).padStart(2, "0")}/data_${i}.nc`;
}

/** Trains a dictionary of at most `maxSize` bytes on `samples` with `zstd --train`. */
function train(name: string, samples: string[], maxSize: number): Uint8Array {
  const sampleDir = `${dir}/${name}`;
  mkdirSync(sampleDir);
  for (const [i, s] of samples.entries()) writeFileSync(`${sampleDir}/${i}`, s);
  const out = `${dir}/${name}.dict`;
  const result = spawnSync(
    "zstd",
    ["-q", "--train", "-r", sampleDir, "-o", out, `--maxdict=${maxSize}`],
    { encoding: "utf8" },
  );
  // It warns (on stderr) when the samples are small for the dictionary size; only failure matters.
  expect(result.status, result.stderr).toBe(0);
  return new Uint8Array(readFileSync(out));
}

const text = new TextEncoder();
let dictPath: string;
let dictionary: Uint8Array;

beforeAll(() => {
  dictionary = train(
    "urls",
    Array.from({ length: 600 }, (_, i) => location(i, i % 7)),
    4096,
  );
  dictPath = `${dir}/urls.dict`;
});

describe("zstdDecompress with a dictionary", () => {
  it("the zstd tool trains a dictionary in zstd's format", () => {
    expect([...dictionary.subarray(0, 4)]).toEqual([0x37, 0xa4, 0x30, 0xec]);
  });

  it("decodes what the zstd tool compresses with the dictionary, at many levels and sizes", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 5000 }),
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 1, max: 19 }),
        fc.boolean(),
        fc.boolean(),
        async (first, count, level, checksum, fromFile) => {
          const input = text.encode(
            Array.from({ length: count }, (_, i) => location(first + i, first)).join("\n"),
          );
          const args = ["-c", `-${level}`, "-D", dictPath, checksum ? "--check" : "--no-check"];
          // From a file the tool writes the content size in the frame header, as Icechunk does;
          // from a pipe it does not, and the decoder bounds the frame by its block headers.
          const frame = fromFile ? compressSized(args.slice(1), input) : zstd(args, input);
          expect(frame).toBeDefined();
          const out = await zstdDecompress(frame as Uint8Array, { maxSize: 1 << 20, dictionary });
          expect(Buffer.from(out).equals(Buffer.from(input))).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("decodes frames made with different dictionaries, one after the other", async () => {
    const other = train(
      "other",
      Array.from({ length: 400 }, (_, i) => `key/${i}/v${i % 9}`),
      2048,
    );
    const otherPath = `${dir}/other.dict`;
    for (let i = 0; i < 6; i++) {
      const [dict, path] = i % 2 === 0 ? [dictionary, dictPath] : [other, otherPath];
      const input = text.encode(location(i * 31, i));
      const frame = compressSized(["-D", path], input);
      expect(await zstdDecompress(frame, { maxSize: 1024, dictionary: dict })).toEqual(input);
    }
  });

  it("decodes concatenated frames and a raw-content dictionary", async () => {
    const raw = text.encode(Array.from({ length: 50 }, (_, i) => location(i, 3)).join(""));
    const rawPath = `${dir}/raw.bin`;
    writeFileSync(rawPath, raw);
    const a = text.encode(location(7, 3));
    const b = text.encode(location(8, 3).repeat(40));
    const frames = Buffer.concat([
      compressSized(["-D", rawPath], a),
      compressSized(["-D", rawPath], b),
    ]);
    const out = await zstdDecompress(frames, { maxSize: 1 << 16, dictionary: raw });
    expect(Buffer.from(out).toString()).toBe(Buffer.concat([a, b]).toString());
  });

  it("decodes frames compressed without a dictionary too", async () => {
    const input = text.encode(location(1, 1).repeat(30));
    const frame = await zstdCompress(input, 3);
    expect(await zstdDecompress(frame, { maxSize: 10_000, dictionary })).toEqual(input);
  });

  it("holds the output to maxSize and expectedSize", async () => {
    const input = text.encode(location(5, 2).repeat(20));
    const sized = compressSized(["-D", dictPath], input);
    const unsized = zstd(["-c", "-D", dictPath], input);
    for (const frame of [sized, unsized] as Uint8Array[]) {
      const error = await rejection(() =>
        zstdDecompress(frame, { maxSize: input.length - 1, dictionary }),
      );
      expect(error.limit).toBe(input.length - 1);
      await rejection(() =>
        zstdDecompress(frame, { maxSize: 1 << 20, expectedSize: input.length - 1, dictionary }),
      );
      expect(
        await zstdDecompress(frame, { maxSize: 1 << 20, expectedSize: input.length, dictionary }),
      ).toEqual(input);
    }
  });

  it("rejects data compressed with another dictionary, or decoded without one", async () => {
    const other = train(
      "third",
      Array.from({ length: 300 }, (_, i) => `#${i}:${i * i}`),
      1024,
    );
    const input = text.encode(location(11, 4));
    const frame = compressSized(["-D", dictPath], input);
    const wrong = await rejection(() =>
      zstdDecompress(frame, { maxSize: 1024, dictionary: other }),
    );
    expect(wrong.message).toBe("corrupt zstd data: it was compressed with another dictionary");
    await rejection(() => zstdDecompress(frame, { maxSize: 1024 }));
  });

  it("rejects a corrupt dictionary", async () => {
    const corrupt = dictionary.slice(0, 40);
    const frame = compressSized(["-D", dictPath], text.encode(location(3, 3)));
    const error = await rejection(() =>
      zstdDecompress(frame, { maxSize: 1024, dictionary: corrupt }),
    );
    expect(error.message).toMatch(/dictionary is corrupt/);
  });

  it("random bytes give a DecompressionError, never a crash", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.uint8Array({ maxLength: 300 }),
          fc
            .uint8Array({ maxLength: 300 })
            .map((b) => Buffer.concat([Buffer.from([0x28, 0xb5, 0x2f, 0xfd]), b])),
        ),
        async (data) => {
          await expect(
            zstdDecompress(data, { maxSize: 1 << 16, dictionary }),
          ).rejects.toBeInstanceOf(DecompressionError);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a mutated frame decodes only where the zstd tool decodes it, to the same bytes", async () => {
    const frames = [0, 1, 2, 3].map((i) => {
      const input = text.encode(
        Array.from({ length: 1 + i * 7 }, (_, j) => location(j, i)).join("|"),
      );
      const level = `-${1 + i * 5}`;
      return compressSized([level, "-D", dictPath, i % 2 ? "--check" : "--no-check"], input);
    });
    // Changed literal bytes in a frame without a checksum still decode: both outcomes are seen.
    let decoded = 0;
    let rejected = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.nat(3),
        fc.array(fc.record({ at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }), {
          maxLength: 3,
        }),
        fc.option(fc.nat(), { nil: undefined }),
        async (which, edits, cut) => {
          const data = frames[which].slice(
            0,
            cut === undefined ? undefined : cut % (frames[which].length + 1),
          );
          for (const { at, value } of edits) if (data.length > 0) data[at % data.length] = value;
          const reference = zstd(["-d", "-c", "-D", dictPath], data);
          let ours: Uint8Array | undefined;
          try {
            ours = await zstdDecompress(data, { maxSize: 1 << 20, dictionary });
            decoded++;
          } catch (error) {
            expect(error).toBeInstanceOf(DecompressionError);
            rejected++;
          }
          if (ours !== undefined) {
            expect(reference).toBeDefined();
            expect(Buffer.from(ours).equals(Buffer.from(reference as Uint8Array))).toBe(true);
          }
        },
      ),
      { numRuns: 200 },
    );
    expect(decoded).toBeGreaterThan(0);
    expect(rejected).toBeGreaterThan(0);
  });
});
