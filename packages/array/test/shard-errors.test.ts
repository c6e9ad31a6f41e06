import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { openArray } from "@z/array";
import { ChecksumError, DecodeError } from "@z/codecs";
import { encodeIndex } from "@z/codecs/testing";
import { isZarrError, MapStore, type Readable } from "@z/store-core";
import { HttpStore } from "@z/store-http";
import { scratchFolders, startTestHttpServer } from "@z/test-utils";
import { describe, expect, it } from "vitest";

/*
 * A broken shard must say which shard it is: the store key in the message and as the error's
 * `key`, on the partial-read path, on whole-shard decode (a gzip after sharding_indexed) and
 * for a broken inner shard of nested sharding.
 */

const PATH = "group/arr";
const KEY = `${PATH}/c/0`;
const EMPTY = 0xffff_ffff_ffff_ffffn;
const bytesCodec = { name: "bytes", configuration: { endian: "little" } };
const indexCodecs = [bytesCodec, { name: "crc32c" }];
const sharding = (chunk: number, codecs: object[]) => ({
  name: "sharding_indexed",
  configuration: { chunk_shape: [chunk], codecs, index_codecs: indexCodecs, index_location: "end" },
});

/** A shard of `data` bytes of inner chunks and an index of `entries` ([offset, nbytes], undefined: empty). */
function shard(entries: ([bigint, bigint] | undefined)[], data = 32): Uint8Array {
  const index = new BigUint64Array(entries.length * 2).fill(EMPTY);
  entries.forEach((e, i) => {
    if (e) [index[2 * i], index[2 * i + 1]] = e;
  });
  const body = Uint8Array.from({ length: data }, (_, k) => k);
  const indexBytes = encodeIndex(index, true);
  const out = new Uint8Array(body.length + indexBytes.length);
  out.set(body);
  out.set(indexBytes, body.length);
  return out;
}

function arrayObjects(codecs: object[], shardBytes: Uint8Array): Map<string, Uint8Array> {
  const meta = {
    zarr_format: 3,
    node_type: "array",
    shape: [8],
    data_type: "int32",
    chunk_grid: { name: "regular", configuration: { chunk_shape: [8] } },
    chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
    fill_value: 0,
    codecs,
    attributes: {},
  };
  return new Map([
    [`${PATH}/zarr.json`, new TextEncoder().encode(JSON.stringify(meta))],
    [KEY, shardBytes],
  ]);
}

/** Reads the whole array and returns the error it fails with. */
async function failure(store: Readable): Promise<Error & { key?: string }> {
  const array = await openArray(store, { path: PATH });
  const error = await array.get().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Error & { key?: string };
}

function expectNamed(error: Error & { key?: string }, pattern: RegExp): void {
  expect(isZarrError(error)).toBe(true);
  expect(error).toBeInstanceOf(DecodeError);
  expect(error.message).toContain(`/${KEY}`);
  expect(error.message).toMatch(pattern);
  expect(error.key).toBe(KEY);
}

type Entries = ([bigint, bigint] | undefined)[];

/** Broken indexes; entry 1 is the bad one, so the first two entries make a broken 2-chunk shard too. */
const BROKEN: { what: string; entries: Entries; pattern: RegExp }[] = [
  {
    what: "an entry past the end of the shard",
    entries: [[0n, 8n], [256n, 8n], undefined, [8n, 8n]],
    pattern: /256.*past the end of the shard/,
  },
  {
    what: "a half-empty entry",
    entries: [[0n, 8n], [EMPTY, 8n], undefined, undefined],
    pattern: /entry 1 is half empty/,
  },
  {
    what: "an entry beyond 2^53",
    entries: [[0n, 8n], [2n ** 60n, 8n], undefined, undefined],
    pattern: /past the end of the shard/,
  },
];

describe("shard errors name the shard's store key", () => {
  const scratch = scratchFolders("z-shard-errors-");

  for (const { what, entries, pattern } of BROKEN) {
    it(`partial reads: ${what}`, async () => {
      const store = new MapStore(arrayObjects([sharding(2, [bytesCodec])], shard(entries)));
      expectNamed(await failure(store), pattern);
    });

    it(`whole-shard decode (gzip after sharding_indexed): ${what}`, async () => {
      const store = new MapStore(
        arrayObjects([sharding(2, [bytesCodec]), { name: "gzip" }], gzipSync(shard(entries))),
      );
      expectNamed(await failure(store), pattern);
    });

    it(`nested sharding, a broken inner shard: ${what}`, async () => {
      // The outer shard holds two inner chunks of 4 elements, each a shard of two 2-element
      // chunks; the first is broken, the second empty.
      const inner = shard(entries.slice(0, 2), 16);
      const index = new BigUint64Array([0n, BigInt(inner.length), EMPTY, EMPTY]);
      const outer = new Uint8Array(inner.length + 36);
      outer.set(inner);
      outer.set(encodeIndex(index, true), inner.length);
      const store = new MapStore(arrayObjects([sharding(4, [sharding(2, [bytesCodec])])], outer));
      const error = await failure(store);
      expectNamed(error, pattern);
      expect(error.message).toMatch(/inner chunk \[0\]/);
    });
  }

  it("a corrupt index (checksum) and a truncated shard", async () => {
    const good = shard([
      [0n, 8n],
      [8n, 8n],
      [16n, 8n],
      [24n, 8n],
    ]);
    const corrupt = good.slice();
    corrupt[corrupt.length - 10] ^= 0xff;
    const checksum = await failure(
      new MapStore(arrayObjects([sharding(2, [bytesCodec])], corrupt)),
    );
    expect(checksum).toBeInstanceOf(ChecksumError);
    expectNamed(checksum, /checksum|crc32c/i);

    const truncated = good.subarray(0, 20);
    for (const codecs of [
      [sharding(2, [bytesCodec])],
      [sharding(2, [bytesCodec]), { name: "gzip" }],
    ]) {
      const stored = codecs.length === 2 ? gzipSync(truncated) : truncated;
      expectNamed(await failure(new MapStore(arrayObjects(codecs, stored))), /truncated/);
    }
  });

  it("over HTTP: an entry past the end of the shard", async () => {
    const dir = scratch();
    const objects = arrayObjects([sharding(2, [bytesCodec])], shard(BROKEN[0].entries));
    for (const [key, bytes] of objects) {
      mkdirSync(path.dirname(path.join(dir, key)), { recursive: true });
      writeFileSync(path.join(dir, key), bytes);
    }
    const server = await startTestHttpServer({ root: dir });
    try {
      expectNamed(await failure(new HttpStore(server.url)), BROKEN[0].pattern);
    } finally {
      await server.stop();
    }
  });
});
