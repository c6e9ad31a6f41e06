import { scratchFolders } from "@z/test-utils";
import { createArray, FsStore, openArray } from "@z/zarr";
import { describe, expect, it } from "vitest";
import { runMain } from "./support/run-main.js";

const scratch = scratchFolders("z-cli-rectilinear-");

describe("zarr info and tree show a rectilinear chunk grid", () => {
  it("prints the edge lengths, and the largest chunk as the chunk shape", async () => {
    const dir = scratch();
    await createArray(new FsStore(dir), {
      shape: [30, 8],
      dtype: "int16",
      chunks: [[10, 20], [[4, 2]]],
      compressors: null,
    });
    const tree = await runMain("tree", dir);
    expect(tree.code).toBe(0);
    expect(tree.stdout).toBe("/ (30, 8) int16 chunks=rectilinear[[10,20],[[4,2]]]\n");
    const info = await runMain("info", dir);
    expect(info.code).toBe(0);
    expect(info.stdout).toContain(
      'Chunk grid        : rectilinear(kind="inline", chunk_shapes=[[10,20],[[4,2]]])',
    );
    expect(info.stdout).toContain("Largest chunk     : (20, 4)");
    expect(info.stdout).toContain("Chunks            : 4 in the grid, 0 stored");
    const json = JSON.parse((await runMain("info", dir, "--json")).stdout);
    expect(json.chunks).toEqual([20, 4]);
    expect(json.chunk_grid).toEqual({
      name: "rectilinear",
      configuration: { kind: "inline", chunk_shapes: [[10, 20], [[4, 2]]] },
    });
  });
});

describe("zarr copy keeps a rectilinear chunk grid", () => {
  async function rectilinearSource(): Promise<{ dir: string; values: Int16Array }> {
    const dir = scratch();
    const array = await createArray(new FsStore(dir), {
      shape: [30, 8],
      dtype: "int16",
      chunks: [[10, 20], [[4, 2]]],
      compressors: null,
    });
    const values = Int16Array.from({ length: 240 }, (_, i) => i - 100);
    await array.set(null, { data: values, shape: [30, 8] });
    return { dir, values };
  }

  it("copies it into v3 with a new compressor, the grid and the values unchanged", async () => {
    const { dir, values } = await rectilinearSource();
    const destination = scratch();
    const result = await runMain("copy", dir, destination, "--compressor", "gzip");
    expect(result.code).toBe(0);
    const copy = await openArray(new FsStore(destination));
    expect(copy.metadata.chunkGrid.toJson()).toEqual({
      name: "rectilinear",
      configuration: { kind: "inline", chunk_shapes: [[10, 20], [[4, 2]]] },
    });
    expect(copy.metadata.codecs.map((c) => c.name)).toEqual(["bytes", "gzip"]);
    expect((await copy.get()).data).toEqual(values);
  });

  it("refuses to copy it into v2 or with --chunks, which need one chunk shape", async () => {
    const { dir } = await rectilinearSource();
    for (const args of [
      ["--format", "2"],
      ["--chunks", "5,5"],
    ]) {
      const result = await runMain("copy", dir, scratch(), ...args);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain("CopyOptionError: Cannot copy / with");
      expect(result.stderr).toContain("needs chunks of one shape");
    }
  });
});
