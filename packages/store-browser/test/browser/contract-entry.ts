// The store contract suite, bundled for the page: `vitest` is mapped to the test-utils shim,
// so these are the same checks `describeStoreContract` runs in Node.
import { IndexedDBStore, OPFSStore } from "@z/store-browser";
import { describeStoreContract, fillStore } from "@z/store-core/testing";
import { runRegisteredTests } from "@z/test-utils/browser-shim";

let count = 0;

describeStoreContract(
  "IndexedDBStore",
  async (entries) => fillStore(await IndexedDBStore.open(`contract-${count++}`), entries),
  {
    freshReadBuffers: true,
    dispose: async (store) => {
      store.close();
      await IndexedDBStore.deleteDatabase(store.db.name);
    },
  },
);

describeStoreContract(
  "OPFSStore",
  async (entries) => fillStore(await OPFSStore.open(`contract/${count++}`), entries),
  {
    freshReadBuffers: true,
    dispose: async (store) => {
      const contract = await (await navigator.storage.getDirectory()).getDirectoryHandle(
        "contract",
      );
      await contract.removeEntry(store.root.name, { recursive: true });
    },
  },
);

(globalThis as { __run?: unknown }).__run = () => runRegisteredTests({ timeoutMs: 60_000 });
