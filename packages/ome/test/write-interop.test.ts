import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { FsStore } from "@z/store-fs";
import { havePython, runPython, tempDir } from "@z/test-utils";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { writePyramid } from "../src/index.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const schema = (file: string) => JSON.parse(readFileSync(path.join(here, "schemas", file), "utf8"));

function validator() {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addSchema(schema("0.5/_version.schema"));
  return {
    "0.4": ajv.compile(schema("0.4/image.schema")),
    "0.5": ajv.compile(schema("0.5/image.schema")),
  };
}

const hasPython = havePython("pyramids read by zarr-python 2", ["zarr", "numpy"]);

/** A smooth 3-channel image with a different pattern per channel. */
function image(shape: [number, number, number]): Float32Array {
  const [c, h, w] = shape;
  return Float32Array.from({ length: c * h * w }, (_, i) => {
    const x = i % w;
    const y = Math.floor(i / w) % h;
    const ch = Math.floor(i / (w * h));
    return Math.sin(x / 7 + ch) * 100 + y * (ch + 1) + (i % 3) * 0.25;
  });
}

describe("written pyramids as others read them", () => {
  const validate = validator();

  for (const version of ["0.4", "0.5"] as const) {
    it(`writes ${version} metadata the official schema accepts`, async () => {
      const { dir, remove } = tempDir("z-ome-schema-");
      try {
        const shape: [number, number, number] = [3, 40, 50];
        await writePyramid({ data: image(shape), shape }, new FsStore(dir), {
          version,
          levels: 3,
          axes: [
            { name: "c", type: "channel" },
            { name: "y", type: "space", unit: "micrometer" },
            { name: "x", type: "space", unit: "micrometer" },
          ],
          scale: [1, 0.3, 0.3],
          translation: [0, 5, 5],
          name: "schema check",
          omero: {
            channels: [{ label: "DAPI" }, { label: "GFP", color: "00FF00", active: false }],
          },
        });
        const attributes =
          version === "0.4"
            ? JSON.parse(readFileSync(path.join(dir, ".zattrs"), "utf8"))
            : JSON.parse(readFileSync(path.join(dir, "zarr.json"), "utf8")).attributes;
        const check = validate[version];
        expect(check(attributes), JSON.stringify(check.errors)).toBe(true);
        // The validator does reject: the same document without its datasets' scales fails.
        const broken = structuredClone(attributes);
        const ms = version === "0.4" ? broken.multiscales[0] : broken.ome.multiscales[0];
        ms.datasets[1].coordinateTransformations = [];
        expect(check(broken)).toBe(false);
      } finally {
        remove();
      }
    });
  }

  it.skipIf(!hasPython)(
    "writes 0.4 levels zarr-python 2 reads, each the mean of the level before",
    async () => {
      const { dir, remove } = tempDir("z-ome-python-");
      try {
        const shape: [number, number, number] = [3, 64, 48];
        const data = image(shape);
        const written = await writePyramid({ data, shape }, new FsStore(dir), {
          levels: 3,
          chunks: [1, 16, 16],
          axes: ["c", "y", "x"],
        });
        const ours = await Promise.all(
          written.levels.map(async (l) => Array.from((await l.array.get()).data as Float32Array)),
        );
        const out = runPython(
          `import zarr, numpy as np, json
g = zarr.open_group(${JSON.stringify(dir)}, mode="r")
ms = g.attrs["multiscales"][0]
levels = [np.asarray(g[d["path"]][...]) for d in ms["datasets"]]
means_ok = []
for fine, coarse in zip(levels, levels[1:]):
    c, h, w = fine.shape
    expected = fine.astype(np.float64).reshape(c, h // 2, 2, w // 2, 2).mean(axis=(2, 4)).astype(np.float32)
    means_ok.append(bool(np.allclose(expected, coarse, rtol=1e-6, atol=1e-5)))
print(json.dumps({"shapes": [list(a.shape) for a in levels], "means_ok": means_ok,
  "values": [a.ravel().tolist() for a in levels], "scales": [d["coordinateTransformations"][0]["scale"] for d in ms["datasets"]],
  "dtype": str(levels[0].dtype), "chunks": list(g["1"].chunks)}))`,
        );
        const theirs = JSON.parse(out);
        expect(theirs.shapes).toEqual([
          [3, 64, 48],
          [3, 32, 24],
          [3, 16, 12],
        ]);
        expect(theirs.dtype).toBe("float32");
        expect(theirs.chunks).toEqual([1, 16, 16]);
        expect(theirs.means_ok).toEqual([true, true]);
        expect(theirs.scales).toEqual([
          [1, 1, 1],
          [1, 2, 2],
          [1, 4, 4],
        ]);
        for (const [k, values] of theirs.values.entries()) expect(values).toEqual(ours[k]);
        expect(theirs.values[0]).toEqual(Array.from(data));
      } finally {
        remove();
      }
    },
  );
});
