import {
  asyncDispose,
  closeStore,
  MapStore,
  ReadOnlyStore,
  StoreBase,
  withReadOnly,
} from "@z/store-core";
import { describe, expect, it } from "vitest";

/** A store that counts its disposals, to see when `await using` calls them. */
class CountingStore extends MapStore {
  disposals = 0;
  override async [asyncDispose](): Promise<void> {
    this.disposals++;
  }
}

describe("Symbol.asyncDispose on stores", () => {
  it("is the runtime's own symbol (Node 20 defines it as a registered symbol, Node 24 natively)", () => {
    expect(typeof Symbol.asyncDispose).toBe("symbol");
    expect(asyncDispose).toBe(Symbol.asyncDispose);
    const major = Number(process.versions.node.split(".")[0]);
    if (major === 20) expect(asyncDispose).toBe(Symbol.for("nodejs.asyncDispose"));
  });

  it("await using disposes a store at the end of its block, also when the block throws", async () => {
    const store = new CountingStore();
    {
      await using used = store;
      await used.set("k", Uint8Array.of(1));
      expect(store.disposals).toBe(0);
    }
    expect(store.disposals).toBe(1);
    await expect(
      (async () => {
        await using _used = store;
        throw new Error("inside the block");
      })(),
    ).rejects.toThrow("inside the block");
    expect(store.disposals).toBe(2);
  });

  it("a read-only view is disposed without disposing the store under it", async () => {
    const store = new CountingStore();
    {
      await using view = withReadOnly(store) as ReadOnlyStore;
      expect(view).toBeInstanceOf(ReadOnlyStore);
      expect(view.withReadOnly()).toBe(view);
    }
    expect(store.disposals).toBe(0);
  });

  it("every StoreBase has a dispose method that does nothing by default", async () => {
    const map = new MapStore();
    expect(map).toBeInstanceOf(StoreBase);
    {
      await using _store = map;
    }
    await map.set("still", Uint8Array.of(2));
    expect(await map.get("still")).toEqual(Uint8Array.of(2));
  });

  it("closeStore calls close() on stores that only have that, and nothing on plain objects", async () => {
    let closed = 0;
    await closeStore({ get: async () => undefined, close: () => void closed++ });
    expect(closed).toBe(1);
    await closeStore({ get: async () => undefined });
    await closeStore(new Map());
  });
});
