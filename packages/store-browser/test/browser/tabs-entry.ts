// Runs in each of several tabs: read-modify-write increments of one counter with conditional
// writes, retried on ConflictError, through a store of each kind.
import { IndexedDBStore, OPFSStore } from "@z/store-browser";
import { ConflictError, type FullStore } from "@z/store-core";

const open = (kind: string): Promise<FullStore> =>
  kind === "indexeddb" ? IndexedDBStore.open("tabs-test") : OPFSStore.open("tabs-test");

const scope = globalThis as Record<string, unknown>;

/** Page loaded: nothing to prepare. */
scope.__run = async () => true;

/** Deletes the counter, so a run starts from nothing. */
scope.__reset = async (kind: string) => {
  await (await open(kind)).deletePrefix("");
  return true;
};

/** `times` increments; resolves to how many conflicts it met on the way. */
scope.__increment = async (arg: { kind: string; times: number }) => {
  const store = await open(arg.kind);
  let conflicts = 0;
  for (let i = 0; i < arg.times; i++) {
    for (;;) {
      const current = await store.getVersioned!("counter");
      const count = current
        ? new DataView(current.value.buffer, current.value.byteOffset).getUint32(0, true)
        : 0;
      const next = new Uint8Array(4);
      new DataView(next.buffer).setUint32(0, count + 1, true);
      try {
        await store.set(
          "counter",
          next,
          current ? { ifMatch: current.version } : { ifNoneMatch: "*" },
        );
        break;
      } catch (error) {
        if (!(error instanceof ConflictError)) throw error;
        conflicts++;
      }
    }
  }
  return conflicts;
};

/** The counter's value. */
scope.__count = async (kind: string) => {
  const value = await (await open(kind)).get("counter");
  return value ? new DataView(value.buffer, value.byteOffset).getUint32(0, true) : 0;
};
