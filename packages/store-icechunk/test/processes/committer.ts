import { createInterface } from "node:readline";
import { FsStore } from "@z/store-fs";
import { IcechunkConflictError, openRepository } from "@z/store-icechunk";
import { createArray } from "@z/zarr";

/** The values writer `index` puts in its array: distinct per writer and element. */
export function committedValue(index: number, i: number): number {
  return index * 1000 + i;
}

/**
 * One committer: writes its own array `w<index>` in a session on `main`, prints `ready`, waits
 * for `go` on stdin (so every committer commits at once), commits, and prints the outcome.
 */
export async function main([root, index, rebase]: string[]): Promise<void> {
  const n = Number(index);
  const repo = await openRepository(new FsStore(root, { fsync: false }));
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
