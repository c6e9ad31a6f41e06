import { AzureBlobStore } from "@z/store-azure";
import { describeStoreContract, fillStore } from "@z/store-core/testing";
import { type Azurite, accountSas, startAzurite } from "@z/test-utils";
import { afterAll, beforeAll } from "vitest";

/*
 * The store contract against a real Azurite blob service on 127.0.0.1, signed with SharedKey:
 * each store is a fresh folder of one container (and, for the container-root case, a fresh
 * container).
 */

let azurite: Azurite;
let counter = 0;

beforeAll(async () => {
  azurite = await startAzurite();
  await new AzureBlobStore({
    container: "contract",
    connectionString: azurite.connectionString,
  }).createContainer();
});
afterAll(() => azurite.stop());

const dispose = (store: AzureBlobStore) =>
  new AzureBlobStore({
    container: store.container,
    path: store.path,
    connectionString: azurite.connectionString,
  }).deletePrefix("");

describeStoreContract(
  "AzureBlobStore (SharedKey, folder of a container)",
  (entries) =>
    fillStore(
      new AzureBlobStore({
        container: "contract",
        path: `run/s${counter++}.zarr`,
        connectionString: azurite.connectionString,
        retries: 0,
      }),
      entries,
    ),
  { freshReadBuffers: true, dispose, propertyRuns: 15, manyKeys: 200 },
);

describeStoreContract(
  "AzureBlobStore (a whole container, small list pages)",
  async (entries) => {
    const store = new AzureBlobStore({
      container: `whole-${counter++}`,
      connectionString: azurite.connectionString,
      listPageSize: 7,
      retries: 0,
    });
    await store.createContainer();
    return fillStore(store, entries);
  },
  { freshReadBuffers: true, dispose, propertyRuns: 10, manyKeys: 60 },
);

describeStoreContract(
  "AzureBlobStore (SAS token)",
  (entries) =>
    fillStore(
      new AzureBlobStore({
        container: "contract",
        path: `sas/s${counter++}.zarr`,
        endpoint: azurite.endpoint,
        sasToken: accountSas({}),
        retries: 0,
      }),
      entries,
    ),
  { freshReadBuffers: true, dispose, propertyRuns: 10, manyKeys: 50 },
);

describeStoreContract(
  "AzureBlobStore (read-only)",
  async (entries) => {
    const path = `ro/s${counter++}.zarr`;
    await fillStore(
      new AzureBlobStore({
        container: "contract",
        path,
        connectionString: azurite.connectionString,
      }),
      entries,
    );
    return new AzureBlobStore({
      container: "contract",
      path,
      connectionString: azurite.connectionString,
      readOnly: true,
    });
  },
  { writable: "read-only", freshReadBuffers: true, dispose, propertyRuns: 10 },
);
