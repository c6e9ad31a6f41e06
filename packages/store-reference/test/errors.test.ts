import { writeFileSync } from "node:fs";
import path from "node:path";
import { isZarrError, MapStore } from "@z/store-core";
import {
  InvalidReferenceError,
  parseReferences,
  ReferenceStore,
  ReferenceTargetError,
} from "@z/store-reference";
import { tempDir } from "@z/test-utils";
import { afterAll, describe, expect, it } from "vitest";

const sandbox = tempDir("z-ref-errors-");
afterAll(() => sandbox.remove());

/** The InvalidReferenceError a document gives, with where it points. */
function invalid(doc: unknown): InvalidReferenceError {
  try {
    parseReferences(doc);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidReferenceError);
    expect(isZarrError(error)).toBe(true);
    return error as InvalidReferenceError;
  }
  throw new Error(`no error for ${JSON.stringify(doc)}`);
}

describe("malformed documents are InvalidReferenceErrors that say what and where", () => {
  it.each([
    ["{not json", "the document", /not JSON/],
    [[1, 2], "the document", /JSON object/],
    [{ version: 2, refs: {} }, "version", /versions 0 .* and 1/],
    [{ a: 5 }, '["a"]', /not 5/],
    [{ a: ["f", 1] }, '["a"]', /\[url\] or \[url, offset, length\]/],
    [{ a: [null] }, '["a"]', /URL string/],
    [{ a: ["f", -1, 4] }, '["a"]', /offset must be a non-negative integer, got -1/],
    [{ a: ["f", 0, 1.5] }, '["a"]', /length must be a non-negative integer/],
    [{ a: "base64:***" }, '["a"]', /not base64/],
    [{ "../escape": "x" }, '["../escape"]', /'\.\.' segments/],
    [{ "/abs": "x" }, '["/abs"]', /must not start with/],
    [{ version: 1, refs: { k: ["{{nope}}", 0, 1] } }, 'refs["k"]', /unknown name "nope"/],
    [{ version: 1, templates: { u: 3 }, refs: {} }, "templates.u", /a template is a string/],
    [{ version: 1, gen: {} }, "gen", /list of generators/],
    [
      { version: 1, gen: [{ key: "k/{{i}}", url: "f", dimensions: { i: { stop: 2, step: 0 } } }] },
      "gen[0].dimensions.i",
      /step must not be 0/,
    ],
    [
      {
        version: 1,
        gen: [{ key: "k/{{i}}", url: "f", offset: "{{i}}", dimensions: { i: { stop: 2 } } }],
      },
      "gen[0]",
      /offset and length come together/,
    ],
    [
      {
        version: 1,
        gen: [
          { key: "k/{{i}}", url: "f", offset: "{{ i / 0 }}", length: "1", dimensions: { i: [1] } },
        ],
      },
      "gen[0]",
      /division by zero/,
    ],
    [
      { version: 1, gen: [{ key: "k/{{ i.__class__ }}", url: "f", dimensions: { i: [1] } }] },
      "gen[0]",
      /unsupported template expression/,
    ],
  ])("%j", (doc, where, message) => {
    const error = invalid(doc);
    expect(error.where).toBe(where);
    expect(error.message).toMatch(message);
  });

  it("generators that would make too many keys fail before making them", () => {
    const doc = {
      version: 1,
      gen: [{ key: "k/{{i}}.{{j}}", url: "f", dimensions: { i: { stop: 1e6 }, j: { stop: 1e6 } } }],
    };
    expect(() => parseReferences(doc)).toThrow(/more than 1000000 keys/);
    expect(() => parseReferences(doc, { maxGeneratedKeys: 10 })).toThrow(/more than 10 keys/);
  });
});

describe("targets that cannot give their bytes are ReferenceTargetErrors", () => {
  it("a missing file", async () => {
    const store = new ReferenceStore({ k: [path.join(sandbox.dir, "absent.bin"), 0, 4] });
    const error = await store.get("k").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReferenceTargetError);
    expect((error as ReferenceTargetError).key).toBe("k");
    expect((error as Error).message).toMatch(/does not exist/);
  });

  it("a file shorter than the reference says", async () => {
    const file = path.join(sandbox.dir, "short.bin");
    writeFileSync(file, new Uint8Array(10));
    const store = new ReferenceStore({ k: [file, 4, 100] });
    await expect(store.get("k")).rejects.toThrow(/gave 6 of the 100 bytes/);
    // A range that stays inside the file reads fine.
    expect(await store.get("k", { range: { offset: 0, length: 6 } })).toEqual(new Uint8Array(6));
  });

  it("a huge length allocates only what the file has", async () => {
    const file = path.join(sandbox.dir, "tiny.bin");
    writeFileSync(file, new Uint8Array([1, 2, 3]));
    const store = new ReferenceStore({ k: [file, 0, 2 ** 52] });
    await expect(store.get("k")).rejects.toBeInstanceOf(ReferenceTargetError);
  });

  it("a scheme no store handles, unless a resolver maps it", async () => {
    const doc = { k: ["s3://bucket/file.nc", 2, 3] };
    await expect(new ReferenceStore(doc).get("k")).rejects.toThrow(/pass a resolve option/);
    const bucket = new MapStore(new Map([["file.nc", new Uint8Array([0, 1, 2, 3, 4, 5])]]));
    const store = new ReferenceStore(doc, {
      resolve: (url) =>
        url.startsWith("s3://bucket/")
          ? { store: bucket, key: url.slice("s3://bucket/".length) }
          : undefined,
    });
    expect(await store.get("k")).toEqual(new Uint8Array([2, 3, 4]));
  });

  it("a missing key is undefined, not an error", async () => {
    const store = new ReferenceStore({ k: "v" });
    expect(await store.get("other")).toBeUndefined();
    expect(await store.getRanges("other", [{ offset: 0, length: 1 }])).toBeUndefined();
    expect(await store.has("other")).toBe(false);
  });
});
