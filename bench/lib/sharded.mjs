// A sharded read: the volume as a v3 array of 64³ inner chunks (zstd) in shards of
// [128, 256, 256] (32 chunks each), written by us, read whole by us and by zarrita
// (zarr-python 2 has no sharding).
import { rm } from "node:fs/promises";
import { createArray, FsStore, openArray } from "@z/zarr";
import FileSystemStore from "@zarrita/storage/fs";
import * as zarrita from "zarrita";
import { measure, median } from "./measure.mjs";
import { assertSameArray } from "./volume.mjs";
import { poolFor } from "./workers.mjs";

const MiB = 1024 * 1024;

/** The shard shape for a volume: up to [128, 256, 256], never past the volume. */
function shardShape(volume, chunks) {
  return volume.shape.map((n, i) => Math.min(Math.max(chunks[i], [128, 256, 256][i]), n));
}

/** Writes the sharded array untimed, then times full reads by both libraries, alternating. */
export async function benchSharded(volume, dir, options, settings, say) {
  await rm(dir, { recursive: true, force: true });
  say("sharded: writing the source array (untimed)");
  const arr = await createArray(new FsStore(dir, { fsync: false }), {
    shape: volume.shape,
    chunks: settings.chunks,
    shards: shardShape(volume, settings.chunks),
    dtype: "float32",
    compressors: [{ name: "zstd", configuration: { level: 3, checksum: false } }],
    fillValue: 0,
  });
  await arr.set(null, { data: volume.data, shape: volume.shape });
  const workers = poolFor(options.workers);
  const ours = await openArray(new FsStore(dir));
  const theirs = await zarrita.open.v3(new FileSystemStore(dir), { kind: "array" });
  const libs = [
    { name: "ours", read: () => ours.get(null, { workers }) },
    { name: "zarrita", read: () => zarrita.get(theirs) },
  ];
  const times = { ours: [], zarrita: [] };
  for (let rep = 0; rep < options.repeats; rep++) {
    for (const lib of rep % 2 ? [...libs].reverse() : libs) {
      say(`sharded: read ${rep + 1}/${options.repeats} (${lib.name})`);
      const run = await measure(lib.read);
      assertSameArray(run.value, volume, `sharded full read by ${lib.name}`);
      times[lib.name].push(run.seconds);
    }
  }
  await rm(dir, { recursive: true, force: true });
  const mib = volume.data.byteLength / MiB;
  const stat = (list) => ({ mibPerSec: mib / median(list), seconds: median(list), runs: list });
  return {
    op: "sharded",
    codec: "zstd",
    shards: shardShape(volume, settings.chunks),
    ours: stat(times.ours),
    zarrita: stat(times.zarrita),
  };
}
