import { readFileSync } from "node:fs";
import path from "node:path";
import { havePython, runPython, tempDir } from "@z/test-utils";
import {
  copyNode,
  FsStore,
  fromArray,
  MemoryStore,
  openArray,
  openGroup,
  type ZarrArray,
} from "@z/zarr";
import { afterAll, describe, expect, it } from "vitest";
import * as zarrita from "zarrita";

/**
 * v2 object arrays as zarr-python 2 writes them (fill value 0 by default, the object codec as
 * the only filter, blosc) converted to v3 by fromArray and copyNode, with zarr copy's
 * defaults: vlen-bytes becomes the `bytes` type, vlen-utf8 `string`, json2 an object array
 * with json2 as its serializer. The values are compared with what zarr-python 2 reads, and
 * zarrita reads the v3 strings; a copy back into v2 is read by zarr-python 2 again.
 */
const suite = "v2 object arrays copied to v3";
const { dir, remove } = tempDir("z-copy-objects-");
afterAll(remove);

/** Elements as JSON: bytes as `{b64}`, everything else as it is. */
const WRITE = `
import base64, json, sys, numcodecs, numpy as np, zarr
g = zarr.open_group(sys.argv[1], mode="w")
vb = g.create_dataset("vb", shape=(7,), chunks=(3,), dtype=object, object_codec=numcodecs.VLenBytes())
vb[:5] = np.array([b"a", b"", b"xyz", b"\\x00q", b"\\xff" * 40], dtype=object)
vs = g.create_dataset("vs", shape=(7,), chunks=(3,), dtype=object, object_codec=numcodecs.VLenUTF8())
vs[:5] = np.array(["a", "", "h\\u00e9llo", "\\u65e5\\u672c", "\\U0001F680"], dtype=object)
js = g.create_dataset("js", shape=(7,), chunks=(3,), dtype=object, object_codec=numcodecs.JSON())
js[:5] = np.array([1, "x", [1, 2], {"a": None}, 2.5], dtype=object)
`;

const READ = `
import base64, json, sys, zarr
g = zarr.open_group(sys.argv[1], mode="r")
def enc(v):
    if isinstance(v, bytes):
        return {"b64": base64.b64encode(v).decode()}
    return v
out = {}
for name in sys.argv[2:]:
    a = g[name]
    out[name] = {"fill_value": a.fill_value, "values": [enc(v) for v in a[:].tolist()]}
print(json.dumps(out))
`;

const b64 = (bytes: Uint8Array) => ({ b64: Buffer.from(bytes).toString("base64") });

/** Our elements in zarr-python's JSON terms. */
async function ours(array: ZarrArray): Promise<unknown[]> {
  const data = (await array.get()).data as unknown[];
  return data.map((v) => (v instanceof Uint8Array ? b64(v) : v));
}

/** What a v3 copy holds for zarr-python 2's elements: its `0` fill elements read as empty. */
function asV3(name: string, values: unknown[]): unknown[] {
  if (name === "vb") return values.map((v) => (v === 0 ? { b64: "" } : v));
  if (name === "vs") return values.map((v) => (v === 0 ? "" : v));
  return values;
}

function runScript(script: string, ...args: string[]): string {
  return runPython(
    `import sys; sys.argv = ["-c", ${args.map((a) => JSON.stringify(a)).join(", ")}]\n${script}`,
  );
}

describe.skipIf(!havePython(suite))(suite, () => {
  const source = path.join(dir, "source.zarr");
  let expected: Record<string, { fill_value: unknown; values: unknown[] }>;

  it("zarr-python 2 writes them with fill value 0 (its default)", () => {
    runScript(WRITE, source);
    expected = JSON.parse(runScript(READ, source, "vb", "vs", "js"));
    for (const name of ["vb", "vs", "js"]) {
      const zarray = JSON.parse(readFileSync(path.join(source, name, ".zarray"), "utf8"));
      expect([zarray.dtype, zarray.fill_value], name).toEqual(["|O", 0]);
      // Element 6 is in a chunk never written: the fill value, 0. (Element 5 was in a written
      // chunk, where numcodecs stores 0 as empty for strings and bytes.)
      expect(expected[name].values[6], name).toBe(0);
    }
  });

  it.each([
    ["vb", "bytes", "vlen-bytes", ""],
    ["vs", "string", "vlen-utf8", ""],
    ["js", "z.object", "numcodecs.json2", 0],
  ])("fromArray converts %s to the v3 type %s", async (name, dataType, serializer, fill) => {
    const from = await openArray(new FsStore(source, { readOnly: true }), { path: name });
    expect(await ours(from)).toEqual(expected[name].values);
    const store = new MemoryStore();
    const copy = await fromArray(store, from, { path: name, zarrFormat: 3 });
    const doc = JSON.parse(new TextDecoder().decode(await store.get(`${name}/zarr.json`)));
    expect(doc.data_type).toBe(dataType);
    expect(doc.fill_value).toEqual(fill);
    expect(doc.codecs.map((c: { name: string }) => c.name)).toEqual([serializer, "blosc"]);
    expect(await ours(await openArray(store, { path: name }))).toEqual(
      asV3(name, expected[name].values),
    );
    expect(await ours(copy)).toEqual(asV3(name, expected[name].values));
  });

  it("copyNode converts the whole group the same way, and zarrita reads the strings", async () => {
    const to = path.join(dir, "v3.zarr");
    await copyNode(await openGroup(new FsStore(source, { readOnly: true })), new FsStore(to), {
      zarrFormat: 3,
    });
    const copied = await openGroup(new FsStore(to));
    for (const name of ["vb", "vs", "js"]) {
      const array = (await copied.get(name)) as ZarrArray;
      expect(await ours(array), name).toEqual(asV3(name, expected[name].values));
      // The same metadata as fromArray's copy: one conversion, whichever entry point.
      const alone = new MemoryStore();
      await fromArray(alone, await openArray(new FsStore(source), { path: name }), {
        path: name,
        zarrFormat: 3,
      });
      expect(readFileSync(path.join(to, name, "zarr.json"), "utf8")).toBe(
        new TextDecoder().decode(await alone.get(`${name}/zarr.json`)),
      );
    }
    const location = zarrita.root({
      get: async (key: string) => {
        try {
          return new Uint8Array(readFileSync(path.join(to, key.replace(/^\//, ""))));
        } catch {
          return undefined;
        }
      },
    });
    const strings = await zarrita.open.v3(location.resolve("vs"), { kind: "array" });
    const read = await zarrita.get(strings as never);
    expect(Array.from((read as { data: unknown[] }).data)).toEqual(asV3("vs", expected.vs.values));
  });

  it("the v3 copies copied back into v2 read in zarr-python 2", async () => {
    const back = path.join(dir, "back.zarr");
    await copyNode(await openGroup(new FsStore(path.join(dir, "v3.zarr"))), new FsStore(back), {
      zarrFormat: 2,
    });
    const read = JSON.parse(runScript(READ, back, "vb", "vs", "js"));
    for (const name of ["vb", "vs", "js"])
      expect(read[name].values, name).toEqual(asV3(name, expected[name].values));
  });
});
