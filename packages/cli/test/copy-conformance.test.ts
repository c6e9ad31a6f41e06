import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import {
  deferredReason,
  type ExpectedArray,
  expectedArrays,
  expectedValues,
  haveFixtures,
  havePython,
  runCli,
  runPython,
  scratchFolders,
  tempDir,
  toFixtureEncoding,
} from "@z/test-utils";
import { FsStore, openArray, type ZarrArray } from "@z/zarr";
import { afterAll, describe, expect, it } from "vitest";
import * as zarrita from "zarrita";
import { zarritaFolder } from "./support/zarrita-folder.js";

/**
 * `zarr copy` of every fixture array, in every direction the format allows: v2 to v3, v3 to
 * v2, the same format, and v3 to v3 with new chunks. Each copy is read back through our
 * reader and compared with the values zarr-python read from the source; sharded copies are
 * also read by zarrita, and v2 copies of the v3 fixtures by zarr-python 2.
 */
const suite = "fixture conformance (zarr copy)";
const scratch = scratchFolders("z-copy-");
const entries = haveFixtures(suite)
  ? expectedArrays().filter((e) => deferredReason(e) === undefined)
  : [];

async function valuesOf(array: ZarrArray): Promise<unknown[]> {
  const { data, shape } = await array.get();
  const n = shape.reduce((a, b) => a * b, 1);
  return Array.from({ length: n }, (_, i) =>
    toFixtureEncoding(array.dataType.toJsonElement(array.dataType.getElement(data, i))),
  );
}

const isV3 = (entry: ExpectedArray) => entry.label.startsWith("zarrita/v3");

/** Fixture arrays v2 cannot express, with why. */
const NOT_IN_V2: Record<string, RegExp> = {
  "zarrita/v3/data.zarr/3d.contiguous.delta.i4.mixed": /cannot express transpose order \[1,0,2\]/,
};

/** Whether a v2 fixture array is compressed with bz2, which can be read but not written. */
function isBz2(entry: ExpectedArray): boolean {
  const file = path.join(entry.storeRoot, entry.path, ".zarray");
  return existsSync(file) && JSON.parse(readFileSync(file, "utf8")).compressor?.id === "bz2";
}

const refusals = new Map<string, number>();

/** A copy refused while planning: exit code 2, a CopyOptionError naming the node, nothing written. */
async function expectRefused(entry: ExpectedArray, args: string[], reason: RegExp) {
  const dir = path.join(scratch(), "destination");
  const result = await runCli("copy", entry.storeRoot, dir, "--path", entry.path, ...args);
  expect(result.code).toBe(2);
  expect(result.stderr).toContain(`CopyOptionError: Cannot copy /${entry.path} with`);
  expect(result.stderr).toMatch(reason);
  expect(existsSync(dir) && readdirSync(dir).length > 0).toBe(false);
  refusals.set(args.join(" "), (refusals.get(args.join(" ")) ?? 0) + 1);
}

/** A chunk shape unlike the source's: about a third of each extent. */
const newChunks = (shape: number[]) => shape.map((n) => Math.max(1, Math.ceil(n / 3)));

/** zarrita's result in C order, bools as booleans (its BoolArray reads through get()). */
function zarritaValues(chunk: { data: unknown; shape: number[]; stride: number[] }): unknown[] {
  const out: unknown[] = [];
  const data = chunk.data as ArrayLike<unknown> & { get?: (i: number) => unknown };
  const read = (i: number) =>
    typeof data.get === "function" && !ArrayBuffer.isView(data) ? data.get(i) : data[i];
  const walk = (axis: number, offset: number) => {
    if (axis === chunk.shape.length) return void out.push(read(offset));
    for (let i = 0; i < chunk.shape[axis]; i++) walk(axis + 1, offset + i * chunk.stride[axis]);
  };
  walk(0, 0);
  return out;
}

const counts = new Map<string, number>();
const count = (direction: string) => counts.set(direction, (counts.get(direction) ?? 0) + 1);
/** v2 copies of v3 fixtures, kept for zarr-python 2 to read at the end. */
const pythonCopies = tempDir("z-copy-v2-");
afterAll(() => pythonCopies.remove());
const forPython: { root: string; path: string; expected: unknown[] }[] = [];
let zarritaReads = 0;

async function copyAndCompare(
  entry: ExpectedArray,
  direction: string,
  args: string[],
  dir = scratch(),
): Promise<{ dir: string; copy: ZarrArray }> {
  const result = await runCli("copy", entry.storeRoot, dir, "--path", entry.path, ...args);
  expect(result.stderr).toMatch(
    /^copied \d+ nodes? \(1 array, \d+ groups?\), \d+ chunks?, \d+ bytes?/,
  );
  expect(result.code).toBe(0);
  const copy = await openArray(new FsStore(dir), { path: entry.path });
  const source = await openArray(new FsStore(entry.storeRoot, { readOnly: true }), {
    path: entry.path,
  });
  expect(copy.shape).toEqual(entry.shape);
  // v2 has one type string (|O) for every object type; the format kept, the type must be too.
  if (copy.zarrFormat === source.zarrFormat) expect(copy.dtype).toBe(source.dtype);
  expect(copy.attrs).toEqual(
    copy.zarrFormat === source.zarrFormat || source.dimensionNames === undefined
      ? source.attrs
      : copy.attrs,
  );
  expect(await valuesOf(copy)).toEqual(expectedValues(entry));
  count(direction);
  return { dir, copy };
}

async function readWithZarrita(dir: string, entry: ExpectedArray, copy: ZarrArray) {
  const location = zarrita.root(zarritaFolder(dir)).resolve(entry.path);
  const theirs = await zarrita.open.v3(location, { kind: "array" });
  const got = await zarrita.get(theirs);
  const ours = await copy.get();
  const expected = Array.from({ length: ours.data.length }, (_, i) =>
    copy.dataType.getElement(ours.data, i),
  );
  expect(zarritaValues(got as never)).toEqual(expected);
  zarritaReads++;
}

describe.skipIf(entries.length === 0)(suite, () => {
  afterAll(() =>
    console.log(
      `[${suite}] ${entries.length} fixture arrays; copies read back equal: ${[...counts].map(([d, n]) => `${d} ${n}`).join(", ")}; ` +
        `refused before writing: ${[...refusals].map(([d, n]) => `${d} ${n}`).join(", ")}; sharded copies read by zarrita: ${zarritaReads}`,
    ),
  );

  it.each(entries.map((e) => [e.label, e] as const))("%s", async (_label, entry) => {
    // The same format, no options.
    const same = await copyAndCompare(entry, isV3(entry) ? "v3->v3" : "v2->v2", []);
    if (same.copy.shards) await readWithZarrita(same.dir, entry, same.copy);
    if (!isV3(entry)) {
      if (isBz2(entry)) {
        // Re-encoding needs a compressor that can write; the same-format copy above copied
        // the stored bytes.
        await expectRefused(entry, ["--format", "3"], /writing bz2 is not supported.*--compressor/);
        await copyAndCompare(entry, "v2->v3", ["--format", "3", "--compressor", "zstd"]);
      } else await copyAndCompare(entry, "v2->v3", ["--format", "3"]);
      return;
    }
    if (NOT_IN_V2[entry.label])
      await expectRefused(entry, ["--format", "2"], NOT_IN_V2[entry.label]);
    else {
      const v2 = await copyAndCompare(
        entry,
        "v3->v2",
        ["--format", "2"],
        path.join(pythonCopies.dir, entry.path),
      );
      expect(v2.copy.zarrFormat).toBe(2);
      forPython.push({ root: v2.dir, path: entry.path, expected: expectedValues(entry) });
    }
    const chunks = newChunks(entry.shape);
    const rechunked = await copyAndCompare(entry, "v3->v3 --chunks", [
      "--chunks",
      chunks.join(","),
    ]);
    expect(rechunked.copy.chunks).toEqual(chunks);
    if (rechunked.copy.shards) {
      expect(rechunked.copy.shards.every((n, axis) => n % chunks[axis] === 0)).toBe(true);
      await readWithZarrita(rechunked.dir, entry, rechunked.copy);
    }
  });
});

describe.skipIf(entries.length === 0 || !havePython(suite))(`${suite}: zarr-python 2`, () => {
  it("reads the v2 copies of the v3 fixtures as zarr-python 3 read the sources", () => {
    expect(forPython.length).toBeGreaterThan(40);
    const script = `
import json, sys, zarr
for job in json.loads(sys.stdin.read()):
    a = zarr.open_array(zarr.DirectoryStore(job["root"]), path=job["path"], mode="r")
    print(json.dumps([x if isinstance(x, (str, bool)) else float(x) if a.dtype.kind == "f" else int(x) for x in a[...].ravel().tolist()]))
`;
    const lines = runPython(script, JSON.stringify(forPython)).trim().split("\n");
    expect(lines).toHaveLength(forPython.length);
    lines.forEach((line, i) => {
      const expected = forPython[i].expected.map((v) => (v === "NaN" ? null : v));
      const got = JSON.parse(line.replace(/NaN/g, "null"));
      expect(got, forPython[i].path).toEqual(expected);
    });
  });
});
