import { createArray, createGroup, openArray, slice } from "@z/zarr";
import { icechunk, mapStorage, officialZarrStore } from "./official.js";

/*
 * A repository written by the official implementation: arrays of every numeric data type,
 * strings, a sharded array and a nested group, over three commits on two branches, with tags
 * (one deleted). Values follow `valueAt`, so a test knows what each snapshot holds.
 */

/** The numeric data types written, each as a 300-element array in chunks of 100. */
export const NUMERIC_DTYPES = [
  "bool",
  "int8",
  "int16",
  "int32",
  "int64",
  "uint8",
  "uint16",
  "uint32",
  "uint64",
  "float16",
  "float32",
  "float64",
  "complex64",
  "complex128",
] as const;

/** The commits: c1 writes everything, c2 (main) rewrites elements 0..100, c3 (dev) 200..300. */
export type CommitLabel = "c1" | "c2" | "c3";

/** Which commit last wrote element `i` as seen from `label`. */
export function versionAt(label: CommitLabel, i: number): number {
  if (label === "c2" && i < 100) return 2;
  if (label === "c3" && i >= 200) return 3;
  return 1;
}

/** The value element `i` of an array of `dtype` has when written by commit `v`. */
export function valueAt(dtype: string, i: number, v: number): unknown {
  const n = (i * 7 + v * 13) % 100;
  switch (dtype) {
    case "bool":
      return (i + v) % 3 === 0;
    case "int8":
    case "int16":
    case "int32":
      return n - 50;
    case "int64":
      return BigInt(n - 50) * 10_000_000_000n;
    case "uint64":
      return BigInt(n) * 100_000_000_000n;
    case "uint8":
    case "uint16":
    case "uint32":
      return n * 2;
    case "string":
      return `s${v}-${i}${"é".repeat(i % 3)}`;
    default:
      return (n - 50) / 4;
  }
}

/** The values of elements `[from, to)` written by commit `v`, as the array's container. */
function valuesOf(dtype: string, from: number, to: number, v: number, like: ArrayLike<unknown>) {
  const out = new (like.constructor as new (n: number) => unknown[])(
    dtype.startsWith("complex") ? 2 * (to - from) : to - from,
  );
  for (let i = from; i < to; i++) {
    const value = valueAt(dtype, i, v);
    if (dtype.startsWith("complex")) {
      out[2 * (i - from)] = value;
      out[2 * (i - from) + 1] = -(value as number);
    } else out[i - from] = value;
  }
  return out;
}

/** The sharded array's value at `[r, c]` after commit `v` (c2 rewrites rows 0..16). */
export function shardedAt(label: CommitLabel, r: number, c: number): number {
  const v = label === "c2" && r < 16 ? 2 : 1;
  return r * 64 + c + v * 10_000;
}

/** What the official implementation reported about the repository it wrote. */
export interface OfficialRepo {
  files: Map<string, Uint8Array>;
  specVersion: 1 | 2;
  snapshots: Record<CommitLabel, string>;
  /** Ancestry of main, dev and each tag, as the official `ancestry` lists it (ids). */
  ancestry: Record<string, string[]>;
  /** Commit times, from the official `ancestry`. */
  writtenAt: Record<string, string>;
  /** What each commit changed, from the official `diff` of it and its parent. */
  diffs: Record<string, unknown>;
  /** Snapshot metadata, from the official `ancestry`. */
  metadata: Record<string, unknown>;
  branches: string[];
  tags: string[];
}

/** Writes (or overwrites a range of) one array per dtype under `numeric/`. */
export async function writeArrays(
  store: Parameters<typeof createArray>[0],
  v: number,
  from: number,
  to: number,
  create: boolean,
) {
  for (const dtype of [...NUMERIC_DTYPES, "string"]) {
    const arr = create
      ? await createArray(store, {
          path: `numeric/${dtype}`,
          shape: [300],
          chunks: [100],
          dtype,
          fillValue:
            dtype === "string"
              ? ""
              : dtype === "bool"
                ? false
                : dtype.includes("64") && dtype.includes("int")
                  ? 0n
                  : 0,
        } as Parameters<typeof createArray>[1])
      : await openArray(store, { path: `numeric/${dtype}` });
    const current = await arr.get([slice(0, 1)]);
    await arr.set([slice(from, to)], {
      data: valuesOf(dtype, from, to, v, current.data as ArrayLike<unknown>),
      shape: [to - from],
      stride: [1],
    } as never);
  }
}

/** Writes rows of the sharded int32 array `sharded`. */
export async function writeSharded(
  store: Parameters<typeof createArray>[0],
  label: CommitLabel,
  rows: [number, number],
  create: boolean,
) {
  const arr = create
    ? await createArray(store, {
        path: "sharded",
        shape: [64, 64],
        shards: [32, 32],
        chunks: [8, 8],
        dtype: "int32",
        compressors: [{ name: "zstd" }],
      } as Parameters<typeof createArray>[1])
    : await openArray(store, { path: "sharded" });
  const [r0, r1] = rows;
  const data = new Int32Array((r1 - r0) * 64);
  for (let r = r0; r < r1; r++)
    for (let c = 0; c < 64; c++) data[(r - r0) * 64 + c] = shardedAt(label, r, c);
  await arr.set([slice(r0, r1), null], { data, shape: [r1 - r0, 64], stride: [64, 1] } as never);
}

/** Writes the repository with the official implementation, spec version 1 or 2. */
export async function writeOfficialRepository(specVersion: 1 | 2): Promise<OfficialRepo> {
  const ic = icechunk();
  const files = new Map<string, Uint8Array>();
  const repo = await ic.Repository.create(mapStorage(files), null, specVersion);

  let session = await repo.writableSession("main");
  let store = officialZarrStore(session.store);
  await createGroup(store, { attributes: { title: "interop", commit: 1 } });
  await createGroup(store, { path: "numeric" });
  await writeArrays(store, 1, 0, 300, true);
  await writeSharded(store, "c1", [0, 64], true);
  const doomed = await createArray(store, {
    path: "doomed",
    shape: [4],
    chunks: [2],
    dtype: "uint8",
  });
  await doomed.set(null, { data: Uint8Array.of(1, 2, 3, 4), shape: [4], stride: [1] } as never);
  const c1: string = await session.commit("first data");
  await repo.createTag("v1", c1);
  await repo.createBranch("dev", c1);
  await repo.createTag("gone", c1);
  await repo.deleteTag("gone");

  session = await repo.writableSession("main");
  store = officialZarrStore(session.store);
  await writeArrays(store, 2, 0, 100, false);
  await writeSharded(store, "c2", [0, 16], false);
  await session.store.deleteDir("doomed");
  await createGroup(store, { path: "extra/sub", attributes: { nested: true } });
  const tiny = await createArray(store, {
    path: "extra/sub/tiny",
    shape: [3],
    chunks: [3],
    dtype: "uint8",
  });
  await tiny.set(null, { data: Uint8Array.of(7, 8, 9), shape: [3], stride: [1] } as never);
  const c2: string = await session.commit("second data");
  await repo.createTag("v2", c2);

  session = await repo.writableSession("dev");
  store = officialZarrStore(session.store);
  await writeArrays(store, 3, 200, 300, false);
  const c3: string = await session.commit("dev data");

  const ancestry: Record<string, string[]> = {};
  const writtenAt: Record<string, string> = {};
  const metadata: Record<string, unknown> = {};
  for (const [name, options] of Object.entries({
    main: { branch: "main" },
    dev: { branch: "dev" },
    v1: { tag: "v1" },
    v2: { tag: "v2" },
  })) {
    const list: { id: string; writtenAt: string; metadata: unknown }[] =
      await repo.ancestry(options);
    ancestry[name] = list.map((s) => s.id);
    for (const s of list) {
      writtenAt[s.id] = s.writtenAt;
      metadata[s.id] = s.metadata;
    }
  }
  const diffs: Record<string, unknown> = {};
  for (const id of [c1, c2, c3]) {
    const parent =
      ancestry[id === c3 ? "dev" : "main"][ancestry[id === c3 ? "dev" : "main"].indexOf(id) + 1];
    diffs[id] = await repo.diff({ fromSnapshotId: parent, toSnapshotId: id });
  }
  return {
    diffs,
    files,
    specVersion,
    snapshots: { c1, c2, c3 },
    ancestry,
    writtenAt,
    metadata,
    branches: await repo.listBranches(),
    tags: await repo.listTags(),
  };
}
