import { readFile } from "node:fs/promises";
import path from "node:path";
import { fixturePath, haveFixtures, havePython, runPython } from "@z/test-utils";
import { labelNames, labelPath, openMultiscale, readTile } from "@z/zarr/ome";
import { describe, expect, it } from "vitest";
import * as zarrita from "zarrita";

const hasFixtures = haveFixtures("OME-Zarr written by others");
const hasPython = havePython("OME-Zarr values read by zarr-python 2");

function external(...parts: string[]): string {
  return fixturePath("external", ...parts);
}

/** zarr-python 2's values of one plane of a v2 array: `[c, z]` then all of y and x. */
function pythonPlane(folder: string, arrayPath: string, lead: number[]): number[] {
  const out = runPython(
    `import zarr, json
a = zarr.open_array(${JSON.stringify(path.join(folder, arrayPath))}, mode="r")
print(json.dumps(a[tuple(${JSON.stringify(lead)})].ravel().tolist()))`,
  );
  return JSON.parse(out);
}

describe.skipIf(!hasFixtures)("OME-Zarr written by others", () => {
  it("reads zarr-java's 0.4 image: axes, levels, channels, labels, and zarr-python's values", async () => {
    const folder = external("zarr-java/testdata/ome/v0.4");
    const image = await openMultiscale(folder);
    expect(image.version).toBe("0.4");
    expect(image.name).toBe("test_image");
    expect(image.axes).toEqual([
      { name: "t", type: "time", unit: "millisecond" },
      { name: "c", type: "channel" },
      { name: "z", type: "space", unit: "micrometer" },
      { name: "y", type: "space", unit: "micrometer" },
      { name: "x", type: "space", unit: "micrometer" },
    ]);
    expect(image.levels.map((l) => l.shape)).toEqual([
      [1, 2, 8, 16, 16],
      [1, 2, 4, 8, 8],
    ]);
    expect(image.levels.map((l) => l.scale)).toEqual([
      [1, 1, 0.5, 0.5, 0.5],
      [1, 1, 1, 1, 1],
    ]);
    expect(image.multiscale.type).toBe("gaussian");
    expect(image.channels).toEqual([
      { label: "DAPI", color: "0000FF" },
      { label: "GFP", color: "00FF00" },
    ]);
    expect(await labelNames(image)).toEqual(["nuclei"]);
    const nuclei = await openMultiscale(image.group.store, { path: labelPath(image, "nuclei") });
    expect(nuclei.axes.map((a) => a.name)).toEqual(["z", "y", "x"]);
    expect(nuclei.levels[0].scale).toEqual([0.5, 0.5, 0.5]);
    if (!hasPython) return;
    for (const [c, z] of [
      [0, 0],
      [1, 5],
    ]) {
      const tile = await readTile(image, { level: 0, x: 0, y: 0, width: 16, height: 16, c, z });
      expect(Array.from(tile.data as Float32Array)).toEqual(pythonPlane(folder, "0", [0, c, z]));
    }
  });

  it("reads zarr-java's 0.5 image (v3, zstd) as its 0.4 twin's metadata, zarrita's values", async () => {
    const folder = external("zarr-java/testdata/ome/v0.5");
    const v5 = await openMultiscale(folder);
    const v4 = await openMultiscale(external("zarr-java/testdata/ome/v0.4"));
    expect(v5.version).toBe("0.5");
    expect(v5.axes).toEqual(v4.axes);
    expect(v5.levels.map((l) => [l.shape, l.scale])).toEqual(
      v4.levels.map((l) => [l.shape, l.scale]),
    );
    expect(v5.channels).toEqual(v4.channels);
    expect(await labelNames(v5)).toEqual(["nuclei"]);
    const root = zarrita.root({
      get: async (key: string) => {
        const bytes = await readFile(path.join(folder, key)).catch(() => undefined);
        return bytes && new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      },
    });
    for (const level of [0, 1]) {
      const request = { level, x: 3, y: 2, width: 11, height: 9, c: 1, z: 3 };
      const ours = await readTile(v5, request);
      const theirs = await zarrita.get(
        await zarrita.open.v3(root.resolve(String(level)), { kind: "array" }),
        [0, 1, 3, zarrita.slice(2, 2 + ours.height), zarrita.slice(3, 3 + ours.width)],
      );
      expect(ours.shape).toEqual(theirs.shape);
      expect(Array.from(ours.data as Float32Array)).toEqual(
        Array.from(theirs.data as Float32Array),
      );
    }
  });

  it("reads bioformats2raw's series (0.4, '/' separator) as zarr-python does", async () => {
    const folder = external("ome-zarr-py-bf2raw/tests/data/bf2raw/fake-series-2.zarr/0");
    const image = await openMultiscale(folder);
    expect(image.multiscale.metadata).toEqual({
      method: "loci.common.image.SimpleImageScaler",
      version: "Bio-Formats 6.9.1",
    });
    expect(image.levels.length).toBeGreaterThan(1);
    const last = image.levels.at(-1)!;
    const [, , , height, width] = last.shape;
    const tile = await readTile(image, { level: last, x: 0, y: 0, width, height });
    if (hasPython)
      expect(Array.from(tile.data as ArrayLike<number>)).toEqual(
        pythonPlane(folder, last.path, [0, 0, 0]),
      );
  });

  it("reads ome-zarr-py's 0.1 and 0.2 images (implied t, c, z, y, x)", async () => {
    for (const v of ["v1", "v2"]) {
      const folder = external("ome-zarr-py/tests/data", v);
      const image = await openMultiscale(folder);
      expect(image.version).toBe(v === "v1" ? "0.1" : "0.2");
      expect(image.axes.map((a) => a.name)).toEqual(["t", "c", "z", "y", "x"]);
      expect(image.levels[0].scale).toEqual([1, 1, 1, 1, 1]);
      const [, , , height, width] = image.levels[0].shape;
      const tile = await readTile(image, { level: 0, x: 0, y: 0, width, height, c: 1 });
      if (hasPython)
        expect(Array.from(tile.data as Uint8Array)).toEqual(pythonPlane(folder, "0", [0, 1, 0]));
    }
  });
});
