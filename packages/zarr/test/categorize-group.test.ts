import path from "node:path";
import { havePython, runPython, tempDir } from "@z/test-utils";
import { FsStore, openGroup, slice, UnreadableNode, type ZarrArray, ZarrGroup } from "@z/zarr";
import { afterAll, describe, expect, it } from "vitest";

/**
 * numcodecs' categorize filter as zarr-python's documentation uses it: an object (`|O`) array
 * of strings with `filters=[Categorize(labels, dtype=object, astype="u1")]` and no object
 * codec, so the codes are the chunk's bytes. Its group opens, lists every member, and the
 * array reads (and writes) the strings zarr-python reads.
 */
const suite = "a categorize array in a zarr-python 2 group";
const { dir, remove } = tempDir("z-categorize-");
afterAll(remove);

const WRITE = `
import sys, warnings, numcodecs, numpy as np, zarr
# zarr-python 2 warns that the array has no object codec: that is the documented use.
warnings.simplefilter("ignore", FutureWarning)
root = sys.stdin.read()
g = zarr.open_group(root, mode="w")
data = np.array(["female", "male", "female", "female", "male", "unexpected", "male"], dtype=object)
z = g.zeros("sex", shape=(10,), chunks=(4,), dtype=object,
            filters=[numcodecs.Categorize(["female", "male"], dtype=object, astype="u1")])
z[:7] = data
g.array("ages", np.arange(10, dtype="<i2"), chunks=(5,))
g.create_group("more").array("x", np.ones(3), chunks=(3,))
`;

const READ = `
import json, sys, zarr
g = zarr.open_group(sys.stdin.read(), mode="r")
print(json.dumps({"values": g["sex"][:].tolist(), "members": sorted(g.keys())}))
`;

describe.skipIf(!havePython(suite))(suite, () => {
  const root = path.join(dir, "data.zarr");

  it("opens, lists its members and reads the strings zarr-python reads", async () => {
    runPython(WRITE, root);
    const expected = JSON.parse(runPython(READ, root));
    // Codes 0 ("unexpected", not a label) read as "", the chunk never written as the fill value 0.
    expect(expected.values).toEqual([
      "female",
      "male",
      "female",
      "female",
      "male",
      "",
      "male",
      "",
      0,
      0,
    ]);
    const group = await openGroup(new FsStore(root, { readOnly: true }));
    const members = await group.members();
    expect(members.map(([name]) => name)).toEqual(expected.members);
    expect(members.some(([, node]) => node instanceof UnreadableNode)).toBe(false);
    expect((await group.arrays()).map(([name]) => name)).toEqual(["ages", "sex"]);
    expect((await group.groups()).map(([name]) => name)).toEqual(["more"]);
    const sex = (await group.get("sex")) as ZarrArray;
    expect(sex.metadata.v2?.dtype).toBe("|O");
    expect((await sex.get()).data).toEqual(expected.values);
    expect((await sex.get([slice(1, 6)])).data).toEqual(expected.values.slice(1, 6));
    expect(await group.tree()).toContain("sex (10,) object");
  });

  it("writes strings zarr-python reads back through the same filter", async () => {
    const group = await openGroup(new FsStore(root));
    const sex = (await group.get("sex")) as ZarrArray;
    await sex.set([slice(6, 10)], ["female", "other", "male", "female"]);
    const read = JSON.parse(runPython(READ, root));
    expect(read.values.slice(6)).toEqual(["female", "", "male", "female"]);
    expect((await (await openGroup(new FsStore(root))).get("more")) instanceof ZarrGroup).toBe(
      true,
    );
  });
});
