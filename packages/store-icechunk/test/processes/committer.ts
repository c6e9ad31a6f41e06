import { createInterface } from "node:readline";
import { FsStore } from "@z/store-fs";
import { IcechunkConflictError, openRepository } from "@z/store-icechunk";
import { S3Store } from "@z/store-s3";
import { createArray } from "@z/zarr";

/** The values writer `index` puts in its array: distinct per writer and element. */
export function committedValue(index: number, i: number): number {
  return index * 1000 + i;
}

/** Where the repository is: a folder, or a prefix in an S3 bucket. */
export type StoreSpec =
  | { kind: "fs"; root: string }
  | { kind: "s3"; url: string; endpoint: string; accessKeyId: string; secretAccessKey: string };

/** The store a spec names. */
export function storeOf(spec: StoreSpec): FsStore | S3Store {
  if (spec.kind === "fs") return new FsStore(spec.root, { fsync: false });
  const { url, endpoint, accessKeyId, secretAccessKey } = spec;
  return new S3Store(url, { endpoint, credentials: { accessKeyId, secretAccessKey }, env: {} });
}

/**
 * One committer: writes its own array `w<index>` in a session on `main`, prints `ready`, waits
 * for `go` on stdin (so every committer commits at once), commits, and prints the outcome.
 */
export async function main([spec, index, rebase]: string[]): Promise<void> {
  const n = Number(index);
  const repo = await openRepository(storeOf(JSON.parse(spec)));
  const session = await repo.writableSession({ branch: "main" });
  const arr = await createArray(session.store, {
    path: `w${n}`,
    shape: [256],
    chunks: [64],
    dtype: "int32",
  });
  const data = Int32Array.from({ length: 256 }, (_, i) => committedValue(n, i));
  await arr.set(null, { data, shape: [256], stride: [1] } as never);
  process.stdout.write("ready\n");
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) if (line === "go") break;
  lines.close();
  try {
    const id = await session.commit(`writer ${n}`, { rebase: rebase === "rebase" });
    process.stdout.write(`${JSON.stringify({ landed: id })}\n`);
  } catch (error) {
    if (!(error instanceof IcechunkConflictError)) throw error;
    process.stdout.write(`${JSON.stringify({ conflict: error.message })}\n`);
  }
}
