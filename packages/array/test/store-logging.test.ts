import { createArray, openArray, withStoreLogging } from "@z/array";
import { type LogSink, resetLogLevels, setLogger, setLogLevel } from "@z/log";
import { MapStore } from "@z/store-core";
import { MemoryStore } from "@z/store-memory";
import { afterEach, describe, expect, it } from "vitest";
import { storeKind } from "../src/logging/store-kind.js";

function collector(): LogSink & { messages: string[]; fields: Record<string, unknown>[] } {
  const sink = {
    messages: [] as string[],
    fields: [] as Record<string, unknown>[],
    debug(message: string, fields?: Record<string, unknown>) {
      sink.messages.push(message);
      sink.fields.push(fields ?? {});
    },
    info(message: string) {
      sink.messages.push(message);
    },
    warn(message: string) {
      sink.messages.push(message);
    },
  };
  return sink;
}

afterEach(() => {
  resetLogLevels();
  setLogger(undefined);
});

describe("store request logging where stores enter the array layer", () => {
  it("hands back the store itself when store logging is off", async () => {
    const store = new MemoryStore();
    expect(withStoreLogging(store)).toBe(store);
    const arr = await createArray(store, { shape: [4], chunks: [2], dtype: "int8" });
    expect(arr.store).toBe(store);
  });

  it("logs get/set/list with key, range and bytes, and keeps the store's class and capabilities", async () => {
    const sink = collector();
    setLogger(sink);
    setLogLevel("store", "debug");
    const store = new MemoryStore();
    const arr = await createArray(store, { path: "a", shape: [4], chunks: [2], dtype: "int8" });
    expect(arr.store).toBeInstanceOf(MemoryStore);
    expect(arr.store).not.toBe(store);
    expect(withStoreLogging(arr.store)).toBe(arr.store);
    expect(withStoreLogging(store)).toBe(arr.store);
    await arr.set(null, 5);
    const reopened = await openArray(store, { path: "a" });
    expect(Array.from((await reopened.get()).data)).toEqual([5, 5, 5, 5]);
    await reopened.store.get("a/c/0", { range: { offset: 1, length: 1 } });
    await reopened.store.get("a/c/1", { range: { suffix: 1 } });
    const keys: string[] = [];
    for await (const key of (reopened.store as MemoryStore).listPrefix("a/")) keys.push(key);
    const lines = sink.messages.filter((m) => m.startsWith("zarr:store:memory debug "));
    expect(
      lines.some((l) =>
        /^zarr:store:memory debug set "a\/c\/0" → \d+ B written in \d+\.\d ms$/.test(l),
      ),
    ).toBe(true);
    expect(
      lines.some((l) =>
        /^zarr:store:memory debug get "a\/zarr\.json" → \d+ B in \d+\.\d ms$/.test(l),
      ),
    ).toBe(true);
    expect(lines.some((l) => /get "a\/c\/0" bytes=1-1 → 1 B/.test(l))).toBe(true);
    expect(lines.some((l) => /get "a\/c\/1" bytes=-1 → 1 B/.test(l))).toBe(true);
    expect(lines.some((l) => /listPrefix "a\/" → 3 keys/.test(l))).toBe(true);
    expect(sink.fields.find((f) => f.key === "a/c/1" && f.range === "-1")).toMatchObject({
      namespace: "store:memory",
      method: "get",
      result: "1 B",
    });
  });

  it("names the child logger after the store's class, and logs a plain Map as store:map", async () => {
    expect(storeKind(new MemoryStore())).toBe("memory");
    expect(storeKind(new MapStore(new Map()))).toBe("map");
    expect(storeKind({ get: async () => undefined })).toBe("custom");
    const sink = collector();
    setLogger(sink);
    setLogLevel("store:map", "debug");
    const map = new Map<string, Uint8Array>();
    await createArray(map, { shape: [2], chunks: [2], dtype: "int8" });
    // Creation claims the metadata key with setIfNotExists, so no racing creator is overwritten.
    expect(
      sink.messages.some((m) => m.startsWith('zarr:store:map debug setIfNotExists "zarr.json"')),
    ).toBe(true);
    setLogLevel("store:map", "off");
    sink.messages.length = 0;
    await openArray(map);
    expect(sink.messages).toEqual([]);
  });

  it("logs a failed request and rethrows its error", async () => {
    const sink = collector();
    setLogger(sink);
    setLogLevel("store", "debug");
    const failing = {
      async get(): Promise<Uint8Array | undefined> {
        throw new RangeError("disk on fire");
      },
    };
    await expect(openArray(failing)).rejects.toThrow("disk on fire");
    expect(sink.messages[0]).toMatch(
      /^zarr:store:custom debug get "zarr\.json" → failed: RangeError in /,
    );
  });
});
