import { startTestHttpServer, type TestHttpServer, tempDir } from "@z/test-utils";
import { createArray, FsStore } from "@z/zarr";
import * as zarr from "@z/zarrita";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

// zarrita's FetchStore over a real HTTP server: whole reads, ranges (a sharded array's index
// and chunks), missing keys, and the request options zarrita takes.

describe("FetchStore against an HTTP server", () => {
  const { dir, remove } = tempDir("z-zarrita-fetch-");
  let server: TestHttpServer;
  const values = Int32Array.from({ length: 24 }, (_, i) => i * 3 - 7);

  beforeAll(async () => {
    const store = new FsStore(dir);
    for (const [name, layout] of [
      ["plain", { chunks: [2, 3] }],
      ["sharded", { chunks: [1, 3], shards: [2, 6] }],
    ] as const) {
      const arr = await createArray(store, {
        path: name,
        shape: [4, 6],
        dtype: "int32",
        ...layout,
      });
      await arr.set(null, { data: values, shape: [4, 6] });
    }
    server = await startTestHttpServer({
      root: dir,
      requireHeader: { name: "x-token", value: "t" },
    });
  });
  afterAll(async () => {
    await server.stop();
    remove();
  });

  test.each(["plain", "sharded"])(
    "reads the %s array whole, by region and by point",
    async (name) => {
      const store = new zarr.FetchStore(server.url, { overrides: { headers: { "x-token": "t" } } });
      const arr = await zarr.open(zarr.root(store).resolve(name), { kind: "array" });
      expect(arr.dtype).toBe("int32");
      const whole = await zarr.get(arr);
      expect(whole.shape).toEqual([4, 6]);
      expect(Array.from(whole.data)).toEqual(Array.from(values));
      const part = await zarr.get(arr, [zarr.slice(1, 3), zarr.slice(2, 5)]);
      const expected = [1, 2].flatMap((row) => [2, 3, 4].map((col) => values[row * 6 + col]));
      expect(Array.from(part.data)).toEqual(expected);
      expect(await zarr.get(arr, [3, 5])).toBe(values[23]);
    },
  );

  test("a missing key reads as undefined; a refused request throws", async () => {
    const store = new zarr.FetchStore(server.url, { overrides: { headers: { "x-token": "t" } } });
    expect(await store.get("/plain/nothing")).toBeUndefined();
    const refused = new zarr.FetchStore(server.url);
    await expect(refused.get("/plain/zarr.json")).rejects.toThrow();
  });

  test("getRange reads {offset, length} and {suffixLength}", async () => {
    const store = new zarr.FetchStore(server.url, {
      overrides: { headers: { "x-token": "t" } },
      useSuffixRequest: true,
    });
    const whole = (await store.get("/plain/zarr.json")) as Uint8Array;
    expect(await store.getRange("/plain/zarr.json", { offset: 2, length: 5 })).toEqual(
      whole.subarray(2, 7),
    );
    expect(await store.getRange("/plain/zarr.json", { suffixLength: 4 })).toEqual(
      whole.subarray(-4),
    );
  });

  test("a custom fetch sees every request", async () => {
    const seen: string[] = [];
    const store = new zarr.FetchStore(new URL(server.url), {
      fetch: (request) => {
        seen.push(new URL(request.url).pathname);
        request.headers.set("x-token", "t");
        return fetch(request);
      },
    });
    const arr = await zarr.open.v3(zarr.root(store).resolve("plain"), { kind: "array" });
    await zarr.get(arr, [0, null]);
    expect(seen).toContain("/plain/zarr.json");
    expect(seen.some((p) => p.startsWith("/plain/c/"))).toBe(true);
  });
});
