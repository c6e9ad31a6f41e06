import {
  decodeObjectId,
  encodeObjectId,
  IcechunkFormatError,
  INITIAL_SNAPSHOT_ID,
} from "@z/store-icechunk";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseHeader } from "../src/format/header.js";
import { decodeRefFile } from "../src/format/ref-file.js";
import { metadataFile } from "./build-manifest.js";

describe("object ids", () => {
  it("encode as the spec's example", () => {
    const bytes = Uint8Array.of(
      0x0b,
      0x1c,
      0xc8,
      0xd6,
      0x78,
      0x75,
      0x80,
      0xf0,
      0xe3,
      0x3a,
      0x65,
      0x34,
    );
    expect(encodeObjectId(bytes)).toBe(INITIAL_SNAPSHOT_ID);
    expect(decodeObjectId(INITIAL_SNAPSHOT_ID, 12)).toEqual(bytes);
    expect(decodeObjectId(INITIAL_SNAPSHOT_ID.toLowerCase(), 12)).toEqual(bytes);
  });

  it("round-trip any 8 or 12 bytes and refuse wrong lengths and letters", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 8, maxLength: 8 }),
        fc.uint8Array({ minLength: 12, maxLength: 12 }),
        (a, b) => {
          expect(encodeObjectId(a)).toHaveLength(13);
          expect(decodeObjectId(encodeObjectId(a), 8)).toEqual(a);
          expect(decodeObjectId(encodeObjectId(b), 12)).toEqual(b);
          expect(decodeObjectId(encodeObjectId(b), 8)).toBeUndefined();
        },
      ),
    );
    expect(decodeObjectId("1CECHNKREP0F1RSTCMTU", 12)).toBeUndefined(); // U is not in the alphabet
    expect(decodeObjectId("1CECHNKREP0F1RSTCMT1", 12)).toBeUndefined(); // non-zero padding bits
  });
});

describe("file headers", () => {
  const good = metadataFile(1, 2, 0, new Uint8Array(8));
  const at = (i: number, v: number) => {
    const out = good.slice();
    out[i] = v;
    return out;
  };
  it("read the writer, spec version, type and compression", () => {
    expect(parseHeader("snapshots/X", good, "snapshot")).toEqual({
      implementation: "z-test",
      specVersion: 2,
      fileType: "snapshot",
      compression: "none",
    });
  });
  it.each([
    ["a short file", good.slice(0, 20), /fewer than the 39-byte header/],
    ["bad magic bytes", at(4, 0), /magic bytes/],
    ["spec version 3", at(36, 3), /spec version 3 is not supported/],
    ["file type 9", at(37, 9), /file type 9 is unknown/],
    [
      "a manifest where a snapshot is expected",
      at(37, 2),
      /a manifest file where a snapshot file was expected/,
    ],
    ["compression 7", at(38, 7), /compression algorithm 7/],
  ])("refuse %s with IcechunkFormatError naming the file", (_name, bytes, message) => {
    expect(() => parseHeader("snapshots/X", bytes, "snapshot")).toThrow(IcechunkFormatError);
    expect(() => parseHeader("snapshots/X", bytes, "snapshot")).toThrow(message);
    expect(() => parseHeader("snapshots/X", bytes, "snapshot")).toThrow(/snapshots\/X/);
  });
});

describe("ref files", () => {
  const enc = (s: string) => new TextEncoder().encode(s);
  it("read the snapshot id", () => {
    expect(
      decodeRefFile("refs/branch.main/ref.json", enc(`{"snapshot":"${INITIAL_SNAPSHOT_ID}"}`)),
    ).toBe(INITIAL_SNAPSHOT_ID);
  });
  it.each(["", "{", "[]", '{"snapshot":1}', '{"snapshot":"ABC"}', "null"])("refuse %j", (text) => {
    expect(() => decodeRefFile("refs/tag.v1/ref.json", enc(text))).toThrow(IcechunkFormatError);
  });
});
