import { createArray, DecodeError, MemoryStore } from "@z/zarr";
import { describe, expect, it } from "vitest";

// In its own file (its own process): once the bug it shows is there, every later zstd read and
// write in the process fails, which would spill into other targets.
describe("fuzz finding: zstd after many corrupt frames", () => {
  // Found by the long run: numcodecs.js's WebAssembly zstd leaks its stack on every frame it
  // rejects, and after ~1,900 rejected frames the instance is corrupt: every later zstd read
  // and write (blosc-zstd included) fails with a RuntimeError.
  it("zstd keeps working after thousands of corrupt frames in one process", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, {
      shape: [64],
      chunks: [64],
      dtype: "int32",
      compressors: [{ name: "zstd", configuration: { level: 1, checksum: true } }],
    });
    const values = Int32Array.from({ length: 64 }, (_, i) => i * 7);
    await arr.set(null, values);
    const good = (await store.get("c/0")) as Uint8Array;
    const corrupt = good.slice();
    corrupt[corrupt.length - 6] ^= 0x5a;
    await store.set("c/0", corrupt);
    for (let i = 0; i < 2500; i++) await expect(arr.get()).rejects.toThrow(DecodeError);
    await store.set("c/0", good);
    expect((await arr.get()).data).toEqual(values);
    await arr.set(null, values);
  });
});
