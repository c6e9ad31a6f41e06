import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { havePython, runPython, scratchFolders } from "@z/test-utils";
import {
  copyNode,
  createArray,
  createHierarchy,
  FsStore,
  MemoryStore,
  openArray,
  openGroup,
  type ZarrArray,
} from "@z/zarr";
import { describe, expect, it } from "vitest";
import { runMain } from "./support/run-main.js";

/**
 * `zarr copy` is all or nothing: a copy that fails in the middle of a hierarchy (a corrupt
 * chunk of one array) names that array, leaves the destination as it was (a new folder is
 * not left behind, an existing one keeps exactly its files), and the rerun, once the chunk is
 * fixed, succeeds instead of finding a half-written copy in the way.
 */
const scratch = scratchFolders("z-cli-rollback-");

const ARRAYS = ["a_ok", "b_bad", "sub/c_ok"];

/** A v2 hierarchy of three zlib arrays; `b_bad`'s second chunk is garbage when `corrupt`. */
async function source(dir: string, corrupt: boolean): Promise<void> {
  const store = new FsStore(dir);
  const created = await createHierarchy(
    store,
    Object.fromEntries(
      ARRAYS.map((p) => [
        p,
        {
          kind: "array" as const,
          shape: [7],
          chunks: [3],
          dtype: "int32",
          compressor: { id: "zlib" },
        },
      ]),
    ),
    { zarrFormat: 2, overwrite: true },
  );
  for (const p of ARRAYS)
    await (created.get(p) as ZarrArray).set(
      null,
      Int32Array.from({ length: 7 }, (_, i) => i * 11),
    );
  if (corrupt) await store.set("b_bad/1", new TextEncoder().encode("garbage, not zlib"));
}

/** Every file below a folder with its bytes (base64), by relative path. */
function files(dir: string): Record<string, string> {
  if (!existsSync(dir)) return {};
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    out[path.relative(dir, full)] = readFileSync(full).toString("base64");
  }
  return out;
}

describe("zarr copy is all or nothing", () => {
  it("a corrupt chunk: the error names the array, a new destination is not left behind, the rerun works", async () => {
    const from = scratch();
    await source(from, true);
    const to = path.join(scratch(), "new.zarr");
    const failed = await runMain("copy", from, to, "--format", "3");
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/^zarr: .* \(node \/b_bad\): DecodeError: copy of \/b_bad: /);
    expect(existsSync(to)).toBe(false);

    await source(from, false);
    const rerun = await runMain("copy", from, to, "--format", "3");
    expect(rerun.stderr).toMatch(/^copied 5 nodes \(3 arrays, 2 groups\)/);
    expect(rerun.code).toBe(0);
    for (const p of ARRAYS) {
      const copy = await openArray(new FsStore(to), { path: p });
      expect(copy.zarrFormat).toBe(3);
      expect(Array.from((await copy.get()).data as Int32Array)).toEqual(
        Array.from({ length: 7 }, (_, i) => i * 11),
      );
    }
  });

  it("into a folder that holds other data: the same files afterwards, byte for byte", async () => {
    const from = scratch();
    await source(from, true);
    const to = scratch();
    const other = await createArray(new FsStore(to), {
      path: "other",
      shape: [2],
      dtype: "uint8",
      zarrFormat: 2,
    });
    await other.set(null, Uint8Array.of(5, 6));
    const before = files(to);
    const failed = await runMain("copy", from, to, "--path", "b_bad", "--format", "3");
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain("(node /b_bad)");
    expect(files(to)).toEqual(before);

    await source(from, false);
    // A copy of the same format copies stored chunks as bytes; v2 then, beside the v2 array.
    expect((await runMain("copy", from, to, "--path", "b_bad")).code).toBe(0);
    expect(Object.keys(files(to)).sort()).toEqual(
      [...Object.keys(before), "b_bad/.zarray", "b_bad/0", "b_bad/1", "b_bad/2"].sort(),
    );
  });
});

const python = "zarr copy of v2 object arrays";
describe.skipIf(!havePython(python))(python, () => {
  it("writes the metadata copyNode and fromArray write: the conversion lives in the library", async () => {
    const from = scratch();
    runPython(
      `
import sys, numcodecs, numpy as np, zarr
g = zarr.open_group(sys.stdin.read(), mode="w")
g.create_dataset("vb", shape=(4,), chunks=(3,), dtype=object, object_codec=numcodecs.VLenBytes())[:2] = np.array([b"a", b"bc"], dtype=object)
g.create_dataset("vs", shape=(4,), chunks=(3,), dtype=object, object_codec=numcodecs.VLenUTF8())[:2] = np.array(["a", "bc"], dtype=object)
g.create_dataset("js", shape=(4,), chunks=(3,), dtype=object, object_codec=numcodecs.JSON())[:2] = np.array([[1], {"a": 2}], dtype=object)
`,
      from,
    );
    const to = scratch();
    const result = await runMain("copy", from, to, "--format", "3");
    expect(result.code).toBe(0);
    const library = new MemoryStore();
    await copyNode(await openGroup(new FsStore(from, { readOnly: true })), library, {
      zarrFormat: 3,
    });
    for (const name of ["vb", "vs", "js"]) {
      const ours = readFileSync(path.join(to, name, "zarr.json"), "utf8");
      expect(ours, name).toBe(new TextDecoder().decode(await library.get(`${name}/zarr.json`)));
    }
    const strings = await openArray(new FsStore(to), { path: "vs" });
    expect((await strings.get()).data).toEqual(["a", "bc", "", ""]);
  });
});
