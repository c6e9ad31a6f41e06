/*
 * A writer process of the multi-process test (run with run-ts.mjs): it races the other
 * writers to create arrays, then, for each round the parent announces on stdin, writes its
 * share of the rows of two arrays in one FsStore folder (rows of all writers share chunks and
 * shards) and answers "done <round>".
 */
import { createArray, openArray } from "@z/array";
import { slice } from "@z/indexing";
import { FsStore } from "@z/store-fs";

/** The value row `row` gets in round `round`. */
export function rowValue(round: number, row: number): number {
  return round * 1000 + row + 1;
}

/** The arrays the writers share: path, and layout. */
export const ARRAYS = {
  sharded: { shape: [8, 12], shards: [4, 12], chunks: [2, 6] },
  plain: { shape: [8, 12], chunks: [4, 6] },
} as const;

/** Paths the writers all try to create (exactly one may succeed for each). */
export const RACED_PATHS = Array.from({ length: 6 }, (_, i) => `race/r${i}`);

export async function main([root, index, count]: string[]): Promise<void> {
  const writer = Number(index);
  const writers = Number(count);
  const store = new FsStore(root, { fsync: false });
  const send = (message: unknown) => process.stdout.write(`${JSON.stringify(message)}\n`);

  // Racing creators: each path is created by every writer at once.
  const created = await Promise.all(
    RACED_PATHS.map((path) =>
      createArray(store, { path, shape: [4], chunks: [2], dtype: "int32" }).then(
        () => "created",
        (error: Error) => error.name,
      ),
    ),
  );
  send({ created });

  const arrays = await Promise.all(Object.keys(ARRAYS).map((path) => openArray(store, { path })));
  const mine = Array.from({ length: ARRAYS.plain.shape[0] }, (_, row) => row).filter(
    (row) => row % writers === writer,
  );
  let buffered = "";
  for await (const chunk of process.stdin) {
    buffered += chunk;
    let newline = buffered.indexOf("\n");
    while (newline >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      newline = buffered.indexOf("\n");
      if (line === "exit") return;
      const round = Number(line);
      // Every row is its own set, all at once: overlapping within this process too.
      await Promise.all(
        arrays.flatMap((arr) =>
          mine.map((row) => arr.set([slice(row, row + 1), null], rowValue(round, row))),
        ),
      );
      send({ done: round });
    }
  }
}
