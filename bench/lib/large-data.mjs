// The arrays of the large case, generated once per edge and kept on disk (bench/data/large/<edge>,
// not committed): the zarrs benchmark suite's "compressed" (zstd level 0 in 256³ chunks) and
// "compressed + sharded" (256³ shards of 64³ zstd chunks) uint16 cubes, written by us, and a v2
// twin of the first for zarr-python 2 (which reads neither v3 nor sharding): its chunk files are
// hard links to the v3 ones, under v2 keys, so the bytes read are the very same.
import { existsSync } from "node:fs";
import { link, mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createArray, FsStore, slice } from "@z/zarr";
import { fillLargeBox, largeLayout } from "./large-values.mjs";

/** Bumped whenever the generated arrays change, so an older cache is written anew. */
const GENERATION = 1;

/** zstd level 0 (libzstd's default, 3), no checksum: the zarrs suite's setting. */
const ZSTD = { name: "zstd", configuration: { level: 0, checksum: false } };

/**
 * The folders of the large arrays for `edge` under `root`, generated first when missing or from
 * an older generation: `{zstd, sharded, zstdV2, storedBytes}`. The folder of an edge is complete
 * or absent: arrays are written into a temporary folder renamed at the end.
 * @param {string} root
 * @param {number} edge
 * @param {(line: string) => void} say
 */
export async function ensureLargeArrays(root, edge, say = () => {}) {
  const dir = join(root, String(edge));
  const marker = join(dir, "complete.json");
  const folders = {
    zstd: join(dir, "zstd.zarr"),
    sharded: join(dir, "sharded.zarr"),
    zstdV2: join(dir, "zstd-v2.zarr"),
  };
  if (existsSync(marker)) {
    const done = JSON.parse(await readFile(marker, "utf8"));
    if (done.generation === GENERATION && done.edge === edge)
      return { ...folders, storedBytes: done.storedBytes };
  }
  const partial = `${dir}.partial`;
  await rm(partial, { recursive: true, force: true });
  await rm(dir, { recursive: true, force: true });
  const started = performance.now();
  say(`large: generating the ${edge}³ uint16 arrays once (kept in ${dir})`);
  await writeLargeArrays(partial, edge, say);
  const storedBytes = {
    zstd: await folderBytes(join(partial, "zstd.zarr")),
    sharded: await folderBytes(join(partial, "sharded.zarr")),
  };
  const seconds = (performance.now() - started) / 1000;
  await writeFile(
    join(partial, "complete.json"),
    `${JSON.stringify({ generation: GENERATION, edge, storedBytes, seconds })}\n`,
  );
  await rename(partial, dir);
  say(`large: generated in ${seconds.toFixed(0)} s`);
  return { ...folders, storedBytes };
}

/**
 * Writes both v3 arrays chunk by chunk (each 256³ box generated once and written to both: a
 * chunk of one and a shard of the other), then the v2 twin of the unsharded one.
 */
async function writeLargeArrays(dir, edge, say) {
  const { shape, chunks, inner } = largeLayout(edge);
  const common = { shape, dtype: "uint16", fillValue: 0, compressors: [ZSTD] };
  // No fsync: the data can be generated again; a crash leaves only the `.partial` folder.
  const store = (name) => new FsStore(join(dir, name), { fsync: false });
  const plain = await createArray(store("zstd.zarr"), { ...common, chunks });
  const sharded = await createArray(store("sharded.zarr"), {
    ...common,
    chunks: inner,
    shards: chunks,
  });
  const box = new Uint16Array(chunks[0] * chunks[1] * chunks[2]);
  const grid = shape.map((n, i) => n / chunks[i]);
  const total = grid[0] * grid[1] * grid[2];
  let written = 0;
  for (let cz = 0; cz < grid[0]; cz++) {
    for (let cy = 0; cy < grid[1]; cy++) {
      for (let cx = 0; cx < grid[2]; cx++) {
        const start = [cz * chunks[0], cy * chunks[1], cx * chunks[2]];
        fillLargeBox(box, start, chunks);
        const region = start.map((s, i) => slice(s, s + chunks[i]));
        const value = { data: box, shape: chunks };
        await Promise.all([plain.set(region, value), sharded.set(region, value)]);
        if (++written % 8 === 0 || written === total) say(`large: ${written}/${total} chunks`);
      }
    }
  }
  await writeV2Twin(join(dir, "zstd.zarr"), join(dir, "zstd-v2.zarr"), shape, chunks);
}

/**
 * A Zarr v2 array over the chunk files of the v3 array at `v3Dir` (default chunk keys
 * `c/z/y/x`): `.zarray` with the same dtype, chunks and compressor, and hard links `z.y.x`.
 */
async function writeV2Twin(v3Dir, v2Dir, shape, chunks) {
  await mkdir(v2Dir, { recursive: true });
  const zarray = {
    zarr_format: 2,
    shape,
    chunks,
    dtype: "<u2",
    compressor: { id: "zstd", level: 0 },
    fill_value: 0,
    order: "C",
    filters: null,
  };
  await writeFile(join(v2Dir, ".zarray"), `${JSON.stringify(zarray, null, 2)}\n`);
  for (const key of await chunkKeys(join(v3Dir, "c"))) {
    await link(join(v3Dir, "c", ...key), join(v2Dir, key.join(".")));
  }
}

/** The chunk keys under a v3 `c` folder, as lists of grid indices. */
async function chunkKeys(folder, prefix = []) {
  const keys = [];
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    if (entry.isDirectory())
      keys.push(...(await chunkKeys(join(folder, entry.name), [...prefix, entry.name])));
    else keys.push([...prefix, entry.name]);
  }
  return keys;
}

/** Bytes of the files under a folder. */
async function folderBytes(folder) {
  let total = 0;
  for (const entry of await readdir(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile())
      total += (await stat(join(entry.parentPath ?? entry.path, entry.name))).size;
  }
  return total;
}
