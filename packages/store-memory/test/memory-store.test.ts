import { InvalidKeyError, MapStore } from "@z/store-core";
import { describeStoreContract } from "@z/store-core/testing";
import { MemoryStore } from "@z/store-memory";
import { describe, expect, it } from "vitest";

describeStoreContract("MemoryStore", (entries) => new MemoryStore(entries));

const bytes = (...values: number[]) => Uint8Array.from(values);

describe("MemoryStore", () => {
  it("starts from a Map, entries or a plain object, copying the bytes", async () => {
    const value = bytes(1, 2, 3);
    const fromMap = new MemoryStore(new Map([["a/b", value]]));
    const fromEntries = new MemoryStore([["a/b", value]]);
    const fromObject = new MemoryStore({ "a/b": value });
    value.fill(0);
    for (const store of [fromMap, fromEntries, fromObject]) {
      expect(await store.get("a/b")).toEqual(bytes(1, 2, 3));
    }
  });

  it("does not share the Map it was given", async () => {
    const map = new Map([["k", bytes(1)]]);
    const store = new MemoryStore(map);
    await store.set("other", bytes(2));
    map.delete("k");
    expect([...map.keys()]).toEqual([]);
    expect(await store.has("k")).toBe(true);
  });

  it("refuses invalid keys in its initial contents", () => {
    expect(() => new MemoryStore({ "../x": bytes(1) })).toThrow(InvalidKeyError);
    expect(() => new MemoryStore([["a//b", bytes(1)]])).toThrow(InvalidKeyError);
  });

  it("counts keys and value bytes", async () => {
    const store = new MemoryStore();
    expect([store.size, store.nbytes]).toEqual([0, 0]);
    await store.set("a", new Uint8Array(10));
    await store.set("b/c", new Uint8Array(5));
    await store.set("empty", new Uint8Array(0));
    expect([store.size, store.nbytes]).toEqual([3, 15]);
    await store.set("a", new Uint8Array(1));
    expect(store.nbytes).toBe(6);
    await store.deletePrefix("b/");
    expect([store.size, store.nbytes]).toEqual([2, 1]);
    store.clear();
    expect([store.size, store.nbytes]).toEqual([0, 0]);
  });

  it("snapshots share no memory with the store, in either direction", async () => {
    const store = new MemoryStore({ "z/1": bytes(1, 1), "a/0": bytes(0) });
    const snapshot = store.snapshot();
    expect([...snapshot.keys()]).toEqual(["a/0", "z/1"]);
    snapshot.get("z/1")!.fill(9);
    snapshot.set("new", bytes(5));
    expect(await store.get("z/1")).toEqual(bytes(1, 1));
    expect(await store.has("new")).toBe(false);
    await store.set("a/0", bytes(7));
    (await store.get("z/1"))!.fill(3); // a view of the stored bytes: changes the store...
    expect(snapshot.get("a/0")).toEqual(bytes(0));
    expect(snapshot.get("z/1")).toEqual(bytes(9, 9)); // ...but never the snapshot
    const restored = new MemoryStore(snapshot);
    expect(await restored.get("new")).toEqual(bytes(5));
  });

  it("clones into an independent store", async () => {
    const store = new MemoryStore({ k: bytes(1) });
    const clone = store.clone();
    await clone.set("k", bytes(2));
    await store.delete("k");
    expect(await clone.get("k")).toEqual(bytes(2));
    expect(await store.get("k")).toBeUndefined();
  });

  it("copies a listable store, whole or under a prefix", async () => {
    const source = new MapStore(
      new Map([
        ["zarr.json", bytes(1)],
        ["g/zarr.json", bytes(2)],
        ["g/c/0", bytes(3)],
      ]),
    );
    const all = await MemoryStore.fromStore(source);
    expect(all.snapshot()).toEqual(source.map);
    const part = await MemoryStore.fromStore(source, { prefix: "g/" });
    expect([...part.snapshot().keys()]).toEqual(["g/c/0", "g/zarr.json"]);
    source.map.get("g/c/0")!.fill(0);
    expect(await part.get("g/c/0")).toEqual(bytes(3));
  });

  it("stops copying a store when the signal is aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const source = new MapStore(new Map([["k", bytes(1)]]));
    await expect(
      MemoryStore.fromStore(source, { signal: controller.signal }),
    ).rejects.toMatchObject({
      name: "AbortError",
    });
  });
});
