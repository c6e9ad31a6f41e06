// numcodecs.fletcher32: the data, then its Fletcher-32 checksum as HDF5 computes it, 4 bytes
// little-endian. Checked against HDF5's own filter (chunks written by h5py with
// fletcher32=True, read raw) and against arrays zarr-python wrote with numcodecs.
import { cpSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { openArray } from "@z/array";
import { type Checksum32Codec, ChecksumError, loadCodecs, resolveCodec } from "@z/codecs";
import { resolveDataTypeV3 } from "@z/metadata";
import { FsStore } from "@z/store-fs";
import { fixturePath, haveFixtures, havePython, runPython, tempDir } from "@z/test-utils";
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

/**
 * The arrays' values as an independent reader computes them: each chunk's Fletcher-32 checked
 * with a Python port of numcodecs' own function, then its data laid out by NumPy.
 */
const REFERENCE_SCRIPT = `
import base64, json, os, sys, numpy as np
def fletcher32(data):
    sum1 = sum2 = 0
    words = len(data) // 2
    i = 0
    while words:
        t = min(words, 360)
        words -= t
        for _ in range(t):
            sum1 += (data[i] << 8) | data[i + 1]
            i += 2
            sum2 += sum1
        sum1 = (sum1 & 0xffff) + (sum1 >> 16)
        sum2 = (sum2 & 0xffff) + (sum2 >> 16)
    if len(data) % 2:
        sum1 += data[i] << 8
        sum2 += sum1
        sum1 = (sum1 & 0xffff) + (sum1 >> 16)
        sum2 = (sum2 & 0xffff) + (sum2 >> 16)
    sum1 = (sum1 & 0xffff) + (sum1 >> 16)
    sum2 = (sum2 & 0xffff) + (sum2 >> 16)
    return (sum2 << 16) | sum1
root, dtype, shape, chunks, v3 = json.load(sys.stdin)
out = np.zeros(shape, dtype=dtype)
grid = [range(0, s, c) for s, c in zip(shape, chunks)]
for i in grid[0]:
    for j in grid[1]:
        ci, cj = i // chunks[0], j // chunks[1]
        key = os.path.join(root, "c", str(ci), str(cj)) if v3 else os.path.join(root, f"{ci}.{cj}")
        raw = open(key, "rb").read()
        assert fletcher32(raw[:-4]) == int.from_bytes(raw[-4:], "little"), key
        block = np.frombuffer(raw[:-4], dtype=dtype).reshape(chunks)
        out[i:i + chunks[0], j:j + chunks[1]] = block[: shape[0] - i, : shape[1] - j]
print(base64.b64encode(out.tobytes()).decode())
`;

const FIXTURE_ARRAYS = [
  {
    root: "external/zarrs-head/zarrs/tests/data/zarr_python_compat/fletcher32.zarr",
    dtype: "<u2",
    shape: [100, 100],
    chunks: [50, 50],
    v3: false,
  },
  {
    root: "external/zarrs-head/zarrs/tests/data/v3_zarr_python/array_fletcher32.zarr",
    dtype: "<f4",
    shape: [10, 10],
    chunks: [5, 5],
    v3: true,
  },
];

describe.runIf(haveFixtures("fletcher32 arrays") && havePython("fletcher32 arrays", ["numpy"]))(
  "arrays zarr-python wrote with numcodecs.fletcher32",
  () => {
    it("read through the array API to the values of an independent reader", async () => {
      for (const { root, dtype, shape, chunks, v3 } of FIXTURE_ARRAYS) {
        const dir = fixturePath(root);
        const data = (await (await openArray(new FsStore(dir))).get()).data as ArrayBufferView;
        const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
        const expected = runPython(
          REFERENCE_SCRIPT,
          JSON.stringify([dir, dtype, shape, chunks, v3]),
        ).trim();
        expect(Buffer.from(bytes).toString("base64"), root).toBe(expected);
      }
    });

    it("refuse a chunk with a changed byte with a ChecksumError naming its key", async () => {
      const { dir, remove } = tempDir("fletcher32-");
      try {
        cpSync(fixturePath(FIXTURE_ARRAYS[0].root), dir, { recursive: true });
        const chunk = readFileSync(`${dir}/1.0`);
        chunk[10] ^= 4;
        writeFileSync(`${dir}/1.0`, chunk);
        const arr = await openArray(new FsStore(dir));
        await expect(arr.get()).rejects.toThrow(ChecksumError);
        await expect(arr.get()).rejects.toThrow(/1\.0/);
      } finally {
        remove();
      }
    });
  },
);

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? walk(full) : [full];
  });
}
