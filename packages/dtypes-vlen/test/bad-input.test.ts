import { type ChunkSpec, DecodeError, loadCodecs, resolveCodec } from "@z/codecs";
import {
  bytesDataType,
  ObjectDataType,
  stringDataType,
  VlenBytesCodec,
  VlenOffsetsCodec,
  VlenUtf8Codec,
} from "@z/dtypes-vlen";
import type { DataType } from "@z/metadata";
import { describe, expect, it } from "vitest";
import { stringSpec } from "./helpers.js";

// The describe blocks build these codecs as they are collected; they load on first use.
await loadCodecs(["numcodecs.json2", "numcodecs.msgpack2", "numcodecs.vlen-array"]);

const u32 = (n: number) => [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, n >>> 24];
const bytes = (...parts: (number | number[])[]) => new Uint8Array(parts.flat());
const utf8 = new VlenUtf8Codec();

/** Runs `decode`, expecting a DecodeError whose message matches, and that it was cheap. */
function expectDecodeError(run: () => unknown, message: RegExp): void {
  const before = process.memoryUsage().arrayBuffers;
  const started = performance.now();
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(DecodeError);
  expect((caught as Error).message).toMatch(message);
  expect(performance.now() - started).toBeLessThan(500);
  expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(64 << 20);
}

describe("the vlen layout refuses bad chunks with a DecodeError, cheaply", () => {
  it("truncated before the item count", () => {
    for (const size of [0, 1, 3])
      expectDecodeError(
        () => utf8.decode(new Uint8Array(size), stringSpec(1)),
        /too few for the 4-byte item count/,
      );
  });

  it("a count that does not match the chunk", () => {
    expectDecodeError(
      () => utf8.decode(bytes(u32(5), u32(0)), stringSpec(3)),
      /holds 5 items; the chunk shape has 3/,
    );
    expectDecodeError(() => utf8.decode(bytes(u32(0)), stringSpec(1)), /holds 0 items/);
  });

  it("a count of 2^32-1 is refused before anything is allocated for it", () => {
    // The chunk shape agrees with the count, so only the buffer size check stands between
    // the hostile count and 2^32 table slots.
    const spec: ChunkSpec = { shape: [2 ** 32 - 1], dataType: stringDataType, fillValue: "" };
    expectDecodeError(
      () => utf8.decode(bytes(u32(2 ** 32 - 1), u32(1), 97), spec),
      /need at least 17179869184 bytes; the chunk has only 9/,
    );
    expectDecodeError(
      () => utf8.decode(bytes(u32(2 ** 32 - 1), u32(1), 97), stringSpec(2)),
      /holds 4294967295 items/,
    );
  });

  it("a length past the end, and a length prefix cut short", () => {
    expectDecodeError(
      () => utf8.decode(bytes(u32(2), u32(3), 97, 98, 99, u32(10), 1, 2), stringSpec(2)),
      /item 1 of 2 claims 10 bytes but only 2 remain/,
    );
    expectDecodeError(
      () => utf8.decode(bytes(u32(1), u32(2 ** 32 - 1), 1, 2, 3), stringSpec(1)),
      /claims 4294967295 bytes/,
    );
    expectDecodeError(
      () => utf8.decode(bytes(u32(2), u32(1), 97, 0, 0, 0, 0, 0), stringSpec(2)),
      /unexpected bytes after|truncated/,
    );
    expectDecodeError(
      () => utf8.decode(bytes(u32(3), u32(3), 97, 97, 97, u32(0), 0, 0), stringSpec(3)),
      /truncated: item 2 of 3/,
    );
  });

  it("trailing bytes after the last item (a count too small for the data)", () => {
    expectDecodeError(
      () => utf8.decode(bytes(u32(1), u32(1), 97, u32(1), 98), stringSpec(1)),
      /5 unexpected bytes after the last of 1 items/,
    );
  });

  it("the same checks hold for vlen-bytes", () => {
    const spec = { shape: [2], dataType: bytesDataType, fillValue: new Uint8Array(0) };
    expectDecodeError(
      () => new VlenBytesCodec().decode(bytes(u32(2), u32(1), 7, u32(9)), spec),
      /item 1 of 2 claims 9 bytes/,
    );
  });
});

describe("invalid UTF-8 is a DecodeError naming the item (the documented policy: strict, as numcodecs)", () => {
  const cases: [string, number[]][] = [
    ["a lone continuation byte", [0x80]],
    ["an overlong encoding of NUL", [0xc0, 0x80]],
    ["an encoded surrogate", [0xed, 0xa0, 0x80]],
    ["a truncated 4-byte sequence", [0xf0, 0x9f, 0x98]],
    ["a code point past U+10FFFF", [0xf4, 0x90, 0x80, 0x80]],
  ];
  it.each(cases)("%s", (_name, bad) => {
    const chunk = bytes(u32(3), u32(2), 111, 107, u32(bad.length), bad, u32(1), 122);
    expectDecodeError(() => utf8.decode(chunk, stringSpec(3)), /item 1 is not valid UTF-8/);
  });

  it("a character split across two items is invalid in both layouts", () => {
    // "€" is e2 82 ac: item 0 ends with e2 82, item 1 starts with ac.
    const vlen = bytes(u32(2), u32(3), 97, 0xe2, 0x82, u32(2), 0xac, 98);
    expectDecodeError(() => utf8.decode(vlen, stringSpec(2)), /item (0|1) is not valid UTF-8/);
    const codec = new VlenOffsetsCodec("int32", "utf8");
    const good = codec.encode({ data: ["a€", "b"], shape: [2], stride: [1] }, stringSpec(2));
    // Move the boundary into the middle of "€": offsets [0, 3, 5] instead of [0, 4, 5].
    new DataView(good.buffer).setInt32(4, 3, true);
    expectDecodeError(() => codec.decode(good, stringSpec(2)), /item (0|1) is not valid UTF-8/);
  });

  it("long items (non-ASCII length prefixes) take the copying path and are checked too", () => {
    const long = new Uint8Array(200).fill(97);
    long[150] = 0xff;
    const chunk = bytes(u32(2), u32(1), 98, u32(200), Array.from(long));
    expectDecodeError(() => utf8.decode(chunk, stringSpec(2)), /item 1 is not valid UTF-8/);
  });
});

function objectCodec(
  name: string,
  configuration: Record<string, unknown>,
  shape: number[],
  dataType: DataType = new ObjectDataType(),
) {
  const spec: ChunkSpec = { shape, dataType, fillValue: 0 };
  const codec = resolveCodec(
    { name, configuration: configuration as never, mustUnderstand: true },
    { spec, zarrFormat: 2 },
  );
  return { codec: codec as VlenUtf8Codec, spec };
}
const text = (s: string) => new TextEncoder().encode(s);

describe("json2 refuses bad chunks", () => {
  const { codec, spec } = objectCodec("numcodecs.json2", {}, [2]);
  it("not UTF-8, not JSON, the wrong structure", () => {
    expectDecodeError(() => codec.decode(bytes(0xff), spec), /not valid UTF-8/);
    expectDecodeError(() => codec.decode(text('["a","b","|O",[2]'), spec), /not valid JSON/);
    expectDecodeError(() => codec.decode(text('{"a":1}'), spec), /expected a list/);
    expectDecodeError(() => codec.decode(text('["a","b",3,[2]]'), spec), /dtype entry is 3/);
    expectDecodeError(() => codec.decode(text('["a","b","|O",[-2]]'), spec), /not a list of sizes/);
  });

  it("a count or shape that does not match the chunk", () => {
    expectDecodeError(
      () => codec.decode(text('["a","|O",[1]]'), spec),
      /holds 1 elements; the chunk shape \[2\] has 2/,
    );
    expectDecodeError(() => codec.decode(text('["a","b","c","|O",[3]]'), spec), /holds 3 elements/);
    const grid = objectCodec("numcodecs.json2", {}, [2, 2]);
    expectDecodeError(
      () => grid.codec.decode(text('[[1,2],[3],"|O",[2,2]]'), grid.spec),
      /do not have the shape \[2,2\]/,
    );
  });

  it("deep nesting is refused, not a stack overflow", () => {
    const deep = `[${"[".repeat(200_000)}${"]".repeat(200_000)},NaN,"|O",[2]]`;
    expectDecodeError(() => codec.decode(text(deep), spec), /nesting deeper than 1000 levels/);
  });

  it("a circular value is an EncodeError, not a stack overflow", () => {
    const loop: unknown[] = ["a"];
    loop.push(loop);
    expect(() => codec.encode({ data: [loop, "b"], shape: [2], stride: [1] }, spec)).toThrow(
      /circular reference/,
    );
    const shared = ["x"];
    expect(
      new TextDecoder().decode(
        codec.encode({ data: [shared, shared], shape: [2], stride: [1] }, spec),
      ),
    ).toBe('[["x"],["x"],"|O",[2]]');
  });

  it("elements that do not fit the data type", () => {
    const strings = objectCodec("numcodecs.json2", {}, [2], stringDataType);
    expectDecodeError(
      () => strings.codec.decode(text('["a",1,"|O",[2]]'), strings.spec),
      /element 1 does not fit the string data type/,
    );
  });
});

describe("msgpack2 refuses bad chunks without trusting their sizes", () => {
  const { codec, spec } = objectCodec("numcodecs.msgpack2", {}, [2]);
  it("an array header claiming 2^32-1 entries in five bytes", () => {
    expectDecodeError(
      () => codec.decode(bytes(0xdd, 0xff, 0xff, 0xff, 0xff), spec),
      /not valid MessagePack/,
    );
  });
  it("a string longer than the chunk, truncated input, the wrong structure", () => {
    expectDecodeError(
      () => codec.decode(bytes(0x93, 0xdb, 0x7f, 0xff, 0xff, 0xff, 0x61), spec),
      /not valid MessagePack/,
    );
    expectDecodeError(() => codec.decode(bytes(0x94, 0xa1, 0x61), spec), /not valid MessagePack/);
    expectDecodeError(() => codec.decode(bytes(0xa1, 0x61), spec), /expected a list/);
  });
});

describe("vlen-array refuses items that are not whole values", () => {
  it("a 3-byte item of <i2 values", () => {
    const { codec, spec } = objectCodec("numcodecs.vlen-array", { dtype: "<i2" }, [1]);
    expectDecodeError(
      () => codec.decode(bytes(u32(1), u32(3), 1, 0, 2), spec),
      /item 0 has 3 bytes, not a whole number of <i2 values/,
    );
  });
});

describe("the offsets layout refuses bad chunks", () => {
  const codec32 = new VlenOffsetsCodec("int32", "utf8");
  const codec64 = new VlenOffsetsCodec("int64", "binary");
  const good = () => codec32.encode({ data: ["ab", "c"], shape: [2], stride: [1] }, stringSpec(2));
  const setOffset = (chunk: Uint8Array, index: number, value: number) =>
    new DataView(chunk.buffer).setInt32(index * 4, value, true);

  it("a chunk too short for its offsets", () => {
    expectDecodeError(
      () => codec32.decode(new Uint8Array(10), stringSpec(2)),
      /need 3 int32 offsets padded to 64 bytes/,
    );
    const spec: ChunkSpec = { shape: [2 ** 31], dataType: stringDataType, fillValue: "" };
    expectDecodeError(
      () => codec32.decode(new Uint8Array(64), spec),
      /need 2147483649 int32 offsets/,
    );
  });

  it("offsets that do not start at 0, decrease, or overrun the data", () => {
    let chunk = good();
    setOffset(chunk, 0, 1);
    expectDecodeError(() => codec32.decode(chunk, stringSpec(2)), /first offset is 1/);
    chunk = good();
    setOffset(chunk, 1, 3);
    setOffset(chunk, 2, 2);
    expectDecodeError(
      () => codec32.decode(chunk, stringSpec(2)),
      /offset 2 \(2\) is below offset 1 \(3\)/,
    );
    chunk = good();
    setOffset(chunk, 1, -5);
    expectDecodeError(() => codec32.decode(chunk, stringSpec(2)), /offset 1/);
    chunk = good();
    setOffset(chunk, 2, 1000);
    expectDecodeError(() => codec32.decode(chunk, stringSpec(2)), /past the data's end/);
  });

  it("data longer or shorter than the last offset (wrong element count, truncation)", () => {
    const chunk = good();
    expectDecodeError(
      () => codec32.decode(chunk.subarray(0, chunk.length - 1), stringSpec(2)),
      /past the data's end|last offset/,
    );
    const padded = new Uint8Array(chunk.length + 1);
    padded.set(chunk);
    expectDecodeError(
      () => codec32.decode(padded, stringSpec(2)),
      /last offset is 3 but the data has 4 bytes/,
    );
  });

  it("64-bit offsets beyond any real size", () => {
    const spec = { shape: [1], dataType: bytesDataType, fillValue: new Uint8Array(0) };
    const chunk = codec64.encode({ data: [new Uint8Array([1, 2])], shape: [1], stride: [1] }, spec);
    new DataView(chunk.buffer).setBigInt64(8, 2n ** 62n, true);
    expectDecodeError(() => codec64.decode(chunk, spec), /offset 1 \(out of range\)/);
  });
});
