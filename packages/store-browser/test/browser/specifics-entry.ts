// Behaviour particular to the browser stores, beyond the contract: what each step observed.
import { IndexedDBStore, OPFSStore } from "@z/store-browser";
import { collectKeys, isZarrError } from "@z/store-core";

/** The error name a call rejected with, or "resolved". */
async function outcome(call: () => Promise<unknown>): Promise<string> {
  try {
    await call();
    return "resolved";
  } catch (error) {
    return `${(error as Error).name}${isZarrError(error) ? "" : " (not a zarr error)"}`;
  }
}

const names = async (dir: FileSystemDirectoryHandle) => {
  const out: string[] = [];
  for await (const name of (dir as unknown as { keys(): AsyncIterable<string> }).keys())
    out.push(name);
  return out.sort();
};

(globalThis as Record<string, unknown>).__run = async () => {
  const opfs = await OPFSStore.open("specifics/data.zarr");
  await opfs.deletePrefix("");
  const root = opfs.root;

  // A file left by a write that never finished is not a key, and its name cannot be one.
  const leftover = `__z_tmp_${"0123456789abcdef".repeat(2)}`;
  await (
    await (
      await root.getDirectoryHandle("g", { create: true })
    ).getFileHandle(leftover, {
      create: true,
    })
  )
    .createWritable()
    .then((w) => w.close());
  await opfs.set("g/zarr.json", Uint8Array.of(1));
  const leftoverListed = await collectKeys(opfs.list());
  const leftoverDir = await opfs.listDir("g/");
  const leftoverGet = await outcome(() => opfs.get(`g/${leftover}`));

  // A value and a folder cannot share a name.
  await opfs.set("v", Uint8Array.of(1));
  const underValue = await outcome(() => opfs.set("v/x", Uint8Array.of(2)));
  await opfs.set("f/x", Uint8Array.of(3));
  const overFolder = await outcome(() => opfs.set("f", Uint8Array.of(4)));
  const folderAsKey = { get: (await opfs.get("f")) ?? null, has: await opfs.has("f") };
  await opfs.delete("f"); // not a key: the folder and its key stay
  const afterFolderDelete = await opfs.get("f/x");

  // Deleting the last key of a folder removes the folders it leaves empty.
  await opfs.set("p/q/r", Uint8Array.of(5));
  await opfs.delete("p/q/r");
  const rootAfterPrune = await names(root);

  // A new key is never seen empty or partial by a reader while it is written.
  const big = new Uint8Array(1 << 20).fill(7);
  const seen = new Set<string>();
  let done = false;
  const writing = opfs.set("n/k", big).finally(() => {
    done = true;
  });
  while (!done) {
    const value = await opfs.get("n/k");
    seen.add(value === undefined ? "missing" : `${value.length}`);
  }
  await writing;
  seen.add(`${(await opfs.get("n/k"))?.length}`);

  // Without Web Locks, conditional writes are refused rather than made unsafely.
  const locks = Object.getOwnPropertyDescriptor(Navigator.prototype, "locks")!;
  Object.defineProperty(Navigator.prototype, "locks", { configurable: true, get: () => undefined });
  const unlocked = new OPFSStore(root);
  Object.defineProperty(Navigator.prototype, "locks", locks);
  const noLocks = {
    conditionalWrites: unlocked.conditionalWrites,
    ifNoneMatch: await outcome(() => unlocked.set("c", Uint8Array.of(1), { ifNoneMatch: "*" })),
    plainSet: await outcome(() => unlocked.set("c", Uint8Array.of(1))),
  };

  // IndexedDB: ranges of a stored value, and a typed error once the database is closed.
  await IndexedDBStore.deleteDatabase("specifics");
  const idb = await IndexedDBStore.open("specifics");
  await idb.set(
    "a/b",
    Uint8Array.from({ length: 10 }, (_, i) => i),
  );
  const ranges = (await idb.getRanges("a/b", [{ offset: 2, length: 3 }, { suffix: 2 }]))!.map(
    (r) => [...r],
  );
  const listing = await idb.listDir("");
  idb.close();
  const closed = await outcome(() => idb.get("a/b"));

  return {
    leftoverListed,
    leftoverDir,
    leftoverGet,
    underValue,
    overFolder,
    folderAsKey,
    afterFolderDelete: afterFolderDelete && [...afterFolderDelete],
    rootAfterPrune,
    seen: [...seen].sort(),
    noLocks,
    ranges,
    listing,
    closed,
  };
};
