import { openRepository } from "@z/store-icechunk";
import { openArray, slice } from "@z/zarr";
import { type StoreSpec, storeOf } from "./committer.js";

/** The value the fork test writes at a row and column of `big`. */
export function forkValue(r: number, c: number): number {
  return r * 1000 + c;
}

/** Rows each fork writes: one whole shard row. */
export const FORK_ROWS = 32;

/**
 * One fork: opens a session from the piece, writes its shard-aligned band of rows of `big`
 * (chunk files go to the repository at once) and prints the session's `done()` result.
 */
export async function main([spec, piece, index]: string[]): Promise<void> {
  const repo = await openRepository(storeOf(JSON.parse(spec) as StoreSpec));
  const session = await repo.sessionFromFork(JSON.parse(piece));
  const arr = await openArray(session.store, { path: "big" });
  const r0 = Number(index) * FORK_ROWS;
  const data = new Int32Array(FORK_ROWS * 64);
  for (let r = 0; r < FORK_ROWS; r++)
    for (let c = 0; c < 64; c++) data[r * 64 + c] = forkValue(r0 + r, c);
  await arr.set([slice(r0, r0 + FORK_ROWS), null], {
    data,
    shape: [FORK_ROWS, 64],
    stride: [64, 1],
  } as never);
  process.stdout.write(`${JSON.stringify(session.done())}\n`);
}
