// numcodecs.fletcher32: the data, then its Fletcher-32 checksum as HDF5 computes it, 4 bytes
// little-endian. Checked against HDF5's own filter (chunks written by h5py with
// fletcher32=True, read raw) and against arrays zarr-python wrote with numcodecs.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { type Checksum32Codec, ChecksumError, loadCodecs, resolveCodec } from "@z/codecs";
import { resolveDataTypeV3 } from "@z/metadata";
import { fixturePath, haveFixtures, havePython, runPython } from "@z/test-utils";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";

let codec: Checksum32Codec;
beforeAll(async () => {
  await loadCodecs(["numcodecs.fletcher32"]);
  const spec = { shape: [1], dataType: resolveDataTypeV3("uint8"), fillValue: 0 };
  codec = resolveCodec(
    { name: "numcodecs.fletcher32", configuration: {}, mustUnderstand: true },
    { spec, zarrFormat: 2 },
  ) as Checksum32Codec;
});

/** Raw chunks HDF5 wrote with its Fletcher-32 filter, one per input (uint8, so any length). */
const H5_SCRIPT = `
import base64, io, json, sys, h5py, numpy as np
out = []
for item in json.load(sys.stdin):
    data = np.frombuffer(base64.b64decode(item), dtype="u1")
    f = h5py.File(io.BytesIO(), "w")
    d = f.create_dataset("x", data=data, chunks=(len(data),), fletcher32=True)
    out.append(base64.b64encode(d.id.read_direct_chunk((0,))[1]).decode())
print(json.dumps(out))
`;

describe("numcodecs.fletcher32", () => {
  it.skipIf(!havePython("fletcher32 against HDF5", ["h5py", "numpy"]))(
    "reads and writes what HDF5's filter writes, for data of any length",
    async () => {
      const inputs = fc.sample(fc.uint8Array({ minLength: 1, maxLength: 3000 }), {
        numRuns: 60,
        seed: 4242,
      });
      inputs.push(Uint8Array.of(7), new Uint8Array(718).fill(255), new Uint8Array(719).fill(255));
      const b64 = inputs.map((bytes) => Buffer.from(bytes).toString("base64"));
      const raw: string[] = JSON.parse(runPython(H5_SCRIPT, JSON.stringify(b64)));
      for (const [i, input] of inputs.entries()) {
        const written = new Uint8Array(Buffer.from(raw[i], "base64"));
        expect(Buffer.from(await codec.encode(input)).equals(written), `input ${i}`).toBe(true);
        expect([...(await codec.decode(written))]).toEqual([...input]);
      }
    },
  );

  it.skipIf(!haveFixtures("fletcher32 fixtures"))(
    "verifies every chunk zarr-python wrote with numcodecs, and refuses a changed byte",
    async () => {
      const roots = [
        "external/zarrs-head/zarrs/tests/data/zarr_python_compat/fletcher32.zarr",
        "external/zarrs-head/zarrs/tests/data/v3_zarr_python/array_fletcher32.zarr",
      ].map((p) => fixturePath(p));
      let chunks = 0;
      for (const root of roots) {
        for (const file of walk(root).filter((f) => !/(zarr\.json|\.zarray|\.zattrs)$/.test(f))) {
          const bytes = new Uint8Array(readFileSync(file));
          const data = await codec.decode(bytes);
          expect(data.length).toBe(bytes.length - 4);
          const changed = bytes.slice();
          changed[0] ^= 1;
          await expect(Promise.resolve().then(() => codec.decode(changed))).rejects.toBeInstanceOf(
            ChecksumError,
          );
          chunks++;
        }
      }
      expect(chunks).toBeGreaterThanOrEqual(8);
    },
  );
});

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? walk(full) : [full];
  });
}
