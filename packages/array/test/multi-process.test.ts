import { type ChildProcess, spawn } from "node:child_process";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { createArray, openArray } from "@z/array";
import { FsStore } from "@z/store-fs";
import { tempDir } from "@z/test-utils";
import { afterAll, describe, expect, it } from "vitest";
import { ARRAYS, RACED_PATHS, rowValue } from "./processes/row-writer.js";

/*
 * Several `node` processes write disjoint rows of the same arrays in one FsStore folder, rows
 * that share chunks and shards, round after round; after each round the union of their writes
 * must be there, whole. Before that, they race to create the same arrays: one wins each.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const WRITERS = 3;
const ROUNDS = 50;
const sandbox = tempDir("z-array-processes-");
afterAll(() => sandbox.remove());

interface Writer {
  process: ChildProcess;
  next(): Promise<Record<string, unknown>>;
}

function startWriter(root: string, index: number): Writer {
  const child = spawn(
    process.execPath,
    [
      path.join(here, "processes/run-ts.mjs"),
      path.join(here, "processes/row-writer.ts"),
      root,
      String(index),
      String(WRITERS),
    ],
    { stdio: ["pipe", "pipe", "inherit"] },
  );
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  let buffered = "";
  child.stdout!.setEncoding("utf8");
  child.stdout!.on("data", (chunk: string) => {
    buffered += chunk;
    for (let i = buffered.indexOf("\n"); i >= 0; i = buffered.indexOf("\n")) {
      const line = buffered.slice(0, i);
      buffered = buffered.slice(i + 1);
      const take = waiting.shift();
      if (take) take(line);
      else lines.push(line);
    }
  });
  const exited = new Promise<never>((_, reject) =>
    child.once("exit", (code) => reject(new Error(`writer ${index} exited with ${code}`))),
  );
  exited.catch(() => {});
  return {
    process: child,
    next: () =>
      Promise.race([
        new Promise<string>((resolve) => {
          const line = lines.shift();
          if (line !== undefined) resolve(line);
          else waiting.push(resolve);
        }),
        exited,
      ]).then((line) => JSON.parse(line)),
  };
}

describe("writers in several processes", () => {
  it(`${WRITERS} processes, ${ROUNDS} rounds of rows sharing chunks and shards: no update lost`, async () => {
    const root = path.join(sandbox.dir, "shared.zarr");
    const store = new FsStore(root, { fsync: false });
    for (const [name, layout] of Object.entries(ARRAYS))
      await createArray(store, { path: name, ...layout, dtype: "int32" });

    const writers = Array.from({ length: WRITERS }, (_, i) => startWriter(root, i));
    try {
      // Racing creators: of the writers creating each path, exactly one succeeded.
      const reports = await Promise.all(writers.map((w) => w.next()));
      RACED_PATHS.forEach((racedPath, i) => {
        const outcomes = reports.map((r) => (r.created as string[])[i]).sort();
        expect(outcomes, `creators of ${racedPath}`).toEqual([
          "ContainsArrayError",
          "ContainsArrayError",
          "created",
        ]);
      });

      for (let round = 1; round <= ROUNDS; round++) {
        for (const w of writers) w.process.stdin!.write(`${round}\n`);
        const done = await Promise.all(writers.map((w) => w.next()));
        expect(done).toEqual(writers.map(() => ({ done: round })));
        for (const name of Object.keys(ARRAYS)) {
          // A fresh array object each round: nothing cached from the previous one.
          const arr = await openArray(new FsStore(root), { path: name });
          const { data, shape } = await arr.get();
          const rows = Array.from({ length: shape[0] }, (_, row) =>
            Array.from(data.slice(row * shape[1], (row + 1) * shape[1]) as Int32Array),
          );
          expect(rows, `${name}, round ${round}`).toEqual(
            rows.map((_, row) => new Array(shape[1]).fill(rowValue(round, row))),
          );
        }
      }
    } finally {
      for (const w of writers) w.process.stdin!.end("exit\n");
      await Promise.all(
        writers.map(
          (w) =>
            new Promise((resolve) => {
              if (w.process.exitCode !== null) resolve(undefined);
              else w.process.once("exit", resolve);
            }),
        ),
      );
    }
  }, 240_000);
});
