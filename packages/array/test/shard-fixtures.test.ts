import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { openArray, type ZarrArray } from "@z/array";
import { slice } from "@z/indexing";
import { MapStore } from "@z/store-core";
import { FsStore } from "@z/store-fs";
import { openZipFile } from "@z/store-zip/node";
import { expectedArrays, fixturePath, haveFixtures } from "@z/test-utils";
import { describe, expect, it } from "vitest";
import { Reference } from "./reference.js";

/*
 * The sharded arrays zarr-python 3 wrote (inner chunks in Morton order, empty ones left out),
 * read with every selection mode: inner chunk by inner chunk from the folder and the
 * uncompressed zip, and through whole-shard decode (the same shards gzipped whole, behind a
 * gzip codec after `sharding_indexed`).
 */
const suite = "zarrita v3 sharded fixtures";
const entries = haveFixtures(suite)
  ? expectedArrays().filter((e) => e.label.startsWith("zarrita/v3/") && e.path.includes("sharded"))
  : [];

/** Every element of a result as the fixtures write values (JSON forms). */
function jsonValues(array: ZarrArray, data: unknown): unknown[] {
  const n = (data as ArrayLike<unknown>).length;
  return Array.from({ length: n }, (_, i) =>
    array.dataType.toJsonElement(array.dataType.getElement(data as never, i)),
  );
}

/** The stored objects of the array folder `dir` (keys relative to it). */
function objectsOf(dir: string, prefix = ""): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      for (const [k, v] of objectsOf(full, `${prefix}${name}/`)) out.set(k, v);
    } else out.set(`${prefix}${name}`, new Uint8Array(readFileSync(full)));
  }
  return out;
}

/**
 * The same array with each shard gzipped whole and `gzip` added after `sharding_indexed`, so
 * every read goes through whole-shard decode.
 */
function wrappedInGzip(dir: string): MapStore {
  const objects = objectsOf(dir);
  const meta = JSON.parse(new TextDecoder().decode(objects.get("zarr.json")));
  meta.codecs = [...meta.codecs, { name: "gzip", configuration: { level: 1 } }];
  for (const [key, bytes] of objects) {
    if (key.startsWith("c/")) objects.set(key, new Uint8Array(gzipSync(bytes)));
  }
  objects.set("zarr.json", new TextEncoder().encode(JSON.stringify(meta)));
  return new MapStore(objects);
}

/** Reads `array` with every selection mode and compares with the values zarr-python read. */
async function checkEverySelection(array: ZarrArray, shape: number[], values: unknown[]) {
  const ref = new Reference(shape, values);
  const read = async (p: Promise<{ data: unknown }>) => jsonValues(array, (await p).data);
  expect(await read(array.get())).toEqual(values);

  const basic = shape.map((n) => slice(n - 1, null, -2));
  expect(await read(array.get(basic))).toEqual(ref.read(ref.orthogonal(basic).positions));
  const single = shape.map((n) => n - 1);
  expect(await read(array.get(single))).toEqual(ref.read(ref.orthogonal(single).positions));

  const ortho = shape.map((n) => [n - 1, 0, Math.floor(n / 2), n - 1]);
  expect(await read(array.getOrthogonal(ortho))).toEqual(ref.read(ref.orthogonal(ortho).positions));

  const points = shape.map((n, axis) => [0, n - 1, (axis + 1) % n, Math.floor(n / 2)]);
  expect(await read(array.getCoordinates(points))).toEqual(ref.read(ref.coordinates(points)));

  const mask = values.map((_, i) => i % 3 !== 1);
  expect(await read(array.getMask({ data: mask, shape }))).toEqual(ref.read(ref.mask(mask)));

  // The last block (shard) along every axis.
  const grid = array.metadata.chunkGrid.chunkShape as readonly number[];
  const blocks = shape.map((n, axis) => Math.ceil(n / grid[axis]) - 1);
  const region = blocks.map((b, axis) => slice(b * grid[axis], shape[axis]));
  expect(await read(array.getBlocks(blocks))).toEqual(ref.read(ref.orthogonal(region).positions));
}

describe.skipIf(entries.length === 0)(suite, () => {
  it("finds the 15 sharded arrays", () => {
    expect(entries.length).toBe(15);
  });

  it.each(entries.map((e) => [e.path, e] as const))("%s", async (_path, entry) => {
    const dir = path.join(entry.storeRoot, entry.path);
    const fromFolder = await openArray(new FsStore(entry.storeRoot, { readOnly: true }), {
      path: entry.path,
    });
    await checkEverySelection(fromFolder, entry.shape, entry.values);

    const zip = await openZipFile(fixturePath("zarrita", "v3", "data.uncompressed.zarr.zip"));
    try {
      await checkEverySelection(
        await openArray(zip, { path: entry.path }),
        entry.shape,
        entry.values,
      );
    } finally {
      await zip.close();
    }

    const whole = await openArray(wrappedInGzip(dir));
    expect(whole.access.runner.pipeline.bytesToBytes.map((c) => c.name)).toEqual(["gzip"]);
    await checkEverySelection(whole, entry.shape, entry.values);
  });
});
