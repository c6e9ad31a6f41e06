import * as zarr from "@z/zarrita";
import { describe, expect, test } from "vitest";

// The errors of the @z stack reach zarrita code as zarrita's tagged errors, with the stack's
// error as the cause.

const encoder = new TextEncoder();
function arrayDocument(overrides: Record<string, unknown> = {}): Uint8Array {
  return encoder.encode(
    JSON.stringify({
      zarr_format: 3,
      node_type: "array",
      shape: [4],
      data_type: "int16",
      chunk_grid: { name: "regular", configuration: { chunk_shape: [4] } },
      chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
      codecs: [
        { name: "bytes", configuration: { endian: "little" } },
        { name: "gzip", configuration: { level: 1 } },
      ],
      fill_value: 0,
      attributes: {},
      ...overrides,
    }),
  );
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (err: unknown) => err,
  );
}

describe("errors of the stack as zarrita's", () => {
  test("a corrupt chunk is a CodecPipelineError (decode), caused by the codec's error", async () => {
    const store = new Map([
      ["/a/zarr.json", arrayDocument()],
      ["/a/c/0", new Uint8Array([1, 2, 3, 4, 5])],
    ]);
    const arr = await zarr.open(zarr.root(store).resolve("a"), { kind: "array" });
    const err = await caught(zarr.get(arr));
    expect(zarr.isZarritaError(err, "CodecPipelineError")).toBe(true);
    expect((err as zarr.CodecPipelineError).direction).toBe("decode");
    expect((err as Error).cause).toBeInstanceOf(Error);
  });

  test("an unknown codec is an UnknownCodecError naming it", async () => {
    const codecs = [{ name: "bytes", configuration: { endian: "little" } }, { name: "nope" }];
    const store = new Map([["/zarr.json", arrayDocument({ codecs })]]);
    const err = await caught(zarr.open(zarr.root(store), { kind: "array" }));
    expect(zarr.isZarritaError(err, "UnknownCodecError")).toBe(true);
    expect((err as zarr.UnknownCodecError).codec).toBe("nope");
  });

  test("metadata that is not valid is an InvalidMetadataError", async () => {
    const store = new Map([["/zarr.json", arrayDocument({ shape: "four" })]]);
    const err = await caught(zarr.open.v3(zarr.root(store), { kind: "array" }));
    expect(zarr.isZarritaError(err, "InvalidMetadataError")).toBe(true);
  });

  test("no node is a NotFoundError with the path; the other kind says what was found", async () => {
    const store = new Map([
      ["/g/zarr.json", encoder.encode('{"zarr_format":3,"node_type":"group"}')],
    ]);
    const missing = await caught(zarr.open(zarr.root(store).resolve("nothing")));
    expect(zarr.isZarritaError(missing, "NotFoundError")).toBe(true);
    expect((missing as zarr.NotFoundError).path).toBe("/nothing");
    const group = await caught(zarr.open.v3(zarr.root(store).resolve("g"), { kind: "array" }));
    expect((group as zarr.NotFoundError).found).toBe("group");
  });

  test("a selection out of bounds is an InvalidSelectionError", async () => {
    const store = new Map([["/zarr.json", arrayDocument({ codecs: [] })]]);
    const arr = await zarr.open(zarr.root(store), { kind: "array" });
    const err = await caught(zarr.get(arr, [zarr.slice(0, 2), 0]));
    expect(zarr.isZarritaError(err, "InvalidSelectionError")).toBe(true);
  });

  test("isZarritaError tells zarrita's errors from others", () => {
    expect(zarr.isZarritaError(new Error("x"))).toBe(false);
    expect(zarr.isZarritaError(new zarr.UnsupportedError("f"))).toBe(true);
    expect(zarr.isZarritaError(new zarr.UnsupportedError("f"), "NotFoundError")).toBe(false);
  });
});
