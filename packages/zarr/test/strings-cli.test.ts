import { runCli, scratchFolders } from "@z/test-utils";
import { createArray, FsStore, openArray, slice } from "@z/zarr";
import { describe, expect, it } from "vitest";

const TEXTS = ["", "é", "🚀", "a\0b", "日本", "z"];

const scratch = scratchFolders("z-cli-strings-");
const run = runCli;

describe("zarr get --json on variable-length arrays", () => {
  it("prints strings as strings and bytes as {base64}", async () => {
    const dir = scratch();
    const store = new FsStore(dir);
    const strings = await createArray(store, {
      path: "s",
      shape: [2, 3],
      chunks: [1, 2],
      dtype: "string",
      serializer: "vlen-utf8",
      fillValue: "",
    });
    await strings.set(null, { data: TEXTS, shape: [2, 3] });
    const bytes = await createArray(store, {
      path: "b",
      shape: [3],
      chunks: [2],
      dtype: "bytes",
      serializer: "vlen-bytes",
      fillValue: new Uint8Array([1]),
    });
    await bytes.set([slice(0, 2)], [new Uint8Array([104, 105]), new Uint8Array(0)]);
    const s = await run("get", dir, "--path", "s", "--json");
    expect(s.code, s.stderr).toBe(0);
    expect(JSON.parse(s.stdout)).toEqual({
      shape: [2, 3],
      dtype: "string",
      fill_value: "",
      values: TEXTS,
    });
    const b = await run("get", dir, "--path", "b", "--json");
    expect(JSON.parse(b.stdout)).toEqual({
      shape: [3],
      dtype: "bytes",
      fill_value: { base64: "AQ==" },
      values: [{ base64: "aGk=" }, { base64: "" }, { base64: "AQ==" }],
    });
    const one = await run("get", dir, "--path", "s", "--select", "1,::-1", "--json");
    expect(JSON.parse(one.stdout).values).toEqual(["z", "日本", "a\0b"]);
  });
});

describe("zarr copy on string arrays", () => {
  it("v3 -> v2 -> v3 keeps every value; v2 is |O with a vlen-utf8 filter", async () => {
    const source = scratch();
    const arr = await createArray(new FsStore(source), {
      path: "s",
      shape: [6],
      chunks: [4],
      dtype: "string",
      serializer: "vlen-utf8",
      fillValue: "",
    });
    await arr.set(null, TEXTS);
    const v2 = scratch();
    const there = await run("copy", source, v2, "--format", "2");
    expect(there.code, there.stderr).toBe(0);
    const copied = await openArray(new FsStore(v2), { path: "s" });
    expect(copied.metadata.v2?.dtype).toBe("|O");
    expect(copied.metadata.v2?.filters).toEqual([{ id: "vlen-utf8" }]);
    expect((await copied.get()).data).toEqual(TEXTS);
    const back = scratch();
    const again = await run(
      "copy",
      v2,
      back,
      "--format",
      "3",
      "--chunks",
      "3",
      "--compressor",
      "gzip",
    );
    expect(again.code, again.stderr).toBe(0);
    const final = await openArray(new FsStore(back), { path: "s" });
    expect(final.dataType.toV3()).toBe("string");
    expect(final.chunks).toEqual([3]);
    expect((await final.get()).data).toEqual(TEXTS);
  });
});
