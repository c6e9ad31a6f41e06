import { type ByteRange, MapStore, sliceRange } from "@z/store-core";
import { ReferenceStore } from "@z/store-reference";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

/*
 * Random reference documents (inline text, base64, whole targets, ranges, version 1 templates
 * and generators) over random target files, read with random ranges, against a model: the
 * bytes each key should hold, worked out directly from the files.
 */

const encoder = new TextEncoder();
const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

/** What a key refers to, as the model sees it. */
type Spec =
  | { kind: "text"; text: string }
  | { kind: "base64"; bytes: Uint8Array }
  | { kind: "whole"; file: number }
  | { kind: "range"; file: number; offset: number; length: number };

const files = fc.array(fc.uint8Array({ maxLength: 64 }), { minLength: 1, maxLength: 4 });

function specFor(fileCount: number): fc.Arbitrary<Spec> {
  const file = fc.nat({ max: fileCount - 1 });
  return fc.oneof(
    fc.string({ maxLength: 20 }).map((text) => ({ kind: "text" as const, text })),
    fc.uint8Array({ maxLength: 30 }).map((bytes) => ({ kind: "base64" as const, bytes })),
    file.map((f) => ({ kind: "whole" as const, file: f })),
    fc.record({ file, offset: fc.nat({ max: 64 }), length: fc.nat({ max: 64 }) }).map((r) => ({
      kind: "range" as const,
      ...r,
    })),
  );
}

const range: fc.Arbitrary<ByteRange> = fc.oneof(
  fc.record({ offset: fc.nat({ max: 80 }), length: fc.nat({ max: 80 }) }),
  fc.record({ offset: fc.nat({ max: 80 }) }),
  fc.record({ suffix: fc.nat({ max: 80 }) }),
);

const keyName = fc.stringMatching(/^[a-z0-9._-]{1,8}$/).filter((s) => s !== "." && s !== "..");
const key = fc.array(keyName, { minLength: 1, maxLength: 3 }).map((parts) => parts.join("/"));

/** The bytes the model says an inline or whole-file spec holds. */
function modelBytes(spec: Spec, data: Uint8Array[]): Uint8Array | undefined {
  switch (spec.kind) {
    case "text":
      return encoder.encode(spec.text);
    case "base64":
      return spec.bytes;
    case "whole":
      return data[spec.file];
    case "range":
      return undefined;
  }
}

/** The document value of a spec; `templated` writes URLs through a version 1 template. */
function refValue(spec: Spec, templated: boolean): unknown {
  const url = (file: number) => (templated ? `{{root}}f${file}.bin` : `mem://files/f${file}.bin`);
  switch (spec.kind) {
    case "text":
      return spec.text.startsWith("base64:")
        ? `base64:${toBase64(encoder.encode(spec.text))}`
        : spec.text;
    case "base64":
      return `base64:${toBase64(spec.bytes)}`;
    case "whole":
      return [url(spec.file)];
    case "range":
      return [url(spec.file), spec.offset, spec.length];
  }
}

/** A resolver over the in-memory files, as a user's S3 resolver would be. */
function memoryResolver(data: Uint8Array[]) {
  const store = new MapStore(new Map(data.map((bytes, i) => [`f${i}.bin`, bytes])));
  return (url: string) =>
    url.startsWith("mem://files/") ? { store, key: url.slice("mem://files/".length) } : undefined;
}

describe("ReferenceStore against a model", () => {
  it("reads every key and range as the model says", async () => {
    await fc.assert(
      fc.asyncProperty(
        files.chain((data) =>
          fc.tuple(
            fc.constant(data),
            fc.uniqueArray(fc.tuple(key, specFor(data.length)), {
              selector: ([k]) => k,
              maxLength: 8,
            }),
            fc.boolean(),
            fc.array(range, { maxLength: 4 }),
          ),
        ),
        async ([data, entries, version1, ranges]) => {
          const refs = Object.fromEntries(
            entries.map(([k, spec]) => [k, refValue(spec, version1)]),
          );
          const doc = version1 ? { version: 1, templates: { root: "mem://files/" }, refs } : refs;
          const store = new ReferenceStore(JSON.stringify(doc), { resolve: memoryResolver(data) });
          for (const [k, spec] of entries) {
            for (const r of [undefined, ...ranges]) {
              const read = store.get(k, r === undefined ? undefined : { range: r });
              if (spec.kind === "range") {
                // The range inside the reference is that range of the target: bytes past the
                // target's end mean a reference longer than its file, an error.
                const [start, end] = rangeSpan(r, spec.length);
                const file = data[spec.file];
                if (end === start) expect(await read).toEqual(new Uint8Array(0));
                else if (spec.offset + end <= file.length)
                  expect(await read).toEqual(file.slice(spec.offset + start, spec.offset + end));
                else await expect(read).rejects.toThrow(/shorter than the reference says/);
              } else {
                expect(await read).toEqual(sliceRange(modelBytes(spec, data)!, r).slice());
              }
            }
          }
          const keys: string[] = [];
          for await (const k of store.list()) keys.push(k);
          expect(keys).toEqual(entries.map(([k]) => k).sort());
        },
      ),
      { numRuns: 150 },
    );
  });

  it("generators make the keys and ranges of their index products", () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 4 }),
        fc.nat({ max: 3 }),
        fc.integer({ min: 1, max: 9 }),
        (rows, cols, size) => {
          const doc = {
            version: 1,
            templates: { u: "mem://files/f0.bin" },
            gen: [
              {
                key: "a/{{i}}.{{j}}",
                url: "{{u}}",
                offset: `{{ (i * ${cols} + j) * ${size} }}`,
                length: String(size),
                dimensions: { i: { stop: rows }, j: [...Array(cols).keys()] },
              },
            ],
          };
          const store = new ReferenceStore(doc);
          expect(store.size).toBe(rows * cols);
          for (let i = 0; i < rows; i++)
            for (let j = 0; j < cols; j++)
              expect(store.reference(`a/${i}.${j}`)).toEqual({
                kind: "range",
                url: "mem://files/f0.bin",
                offset: (i * cols + j) * size,
                length: size,
              });
        },
      ),
    );
  });
});

/** The span `[start, end)` a range selects of a value of `size` bytes. */
function rangeSpan(range: ByteRange | undefined, size: number): [number, number] {
  if (range === undefined) return [0, size];
  if ("suffix" in range) return [Math.max(0, size - range.suffix), size];
  const start = Math.min(range.offset, size);
  const end = "length" in range ? Math.min(size, range.offset + range.length) : size;
  return [start, Math.max(start, end)];
}
