import { scratchFolders } from "@z/test-utils";
import { createArray, FsStore } from "@z/zarr";
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
