import { rmSync } from "node:fs";
import path from "node:path";
import { describeStoreContract } from "@z/store-core/testing";
import { HttpStore } from "@z/store-http";
import { startTestHttpServer, type TestHttpServer, tempDir } from "@z/test-utils";
import { afterAll, beforeAll } from "vitest";
import { writeEntries } from "./support.js";

/*
 * The store contract against a real HTTP server on 127.0.0.1 (Node's http serving a folder):
 * each store gets a fresh sub-folder holding its entries.
 */

let sandbox: { dir: string; remove: () => void };
let server: TestHttpServer;
let counter = 0;
const folders = new WeakMap<HttpStore, string>();

beforeAll(async () => {
  sandbox = tempDir("z-store-http-contract-");
  server = await startTestHttpServer({ root: sandbox.dir, writable: true });
});
afterAll(async () => {
  await server.stop();
  sandbox.remove();
});

function makeStore(entries: ReadonlyMap<string, Uint8Array>, writable: boolean): HttpStore {
  const name = `s${counter++}`;
  writeEntries(path.join(sandbox.dir, name), entries);
  // The test server honours If-Match / If-None-Match and sends strong ETags.
  const store = new HttpStore(`${server.url}${name}`, {
    writable,
    conditionalWrites: writable,
    retries: 0,
  });
  folders.set(store, name);
  return store;
}

const dispose = (store: HttpStore) =>
  rmSync(path.join(sandbox.dir, folders.get(store)!), { recursive: true, force: true });

describeStoreContract("HttpStore (read-only)", (entries) => makeStore(entries, false), {
  writable: "read-only",
  listable: false,
  freshReadBuffers: true,
  dispose,
  propertyRuns: 15,
});

describeStoreContract("HttpStore (PUT/DELETE writes)", (entries) => makeStore(entries, true), {
  listable: false,
  freshReadBuffers: true,
  dispose,
  propertyRuns: 15,
  manyKeys: 200,
  skip: [
    // Plain HTTP cannot list keys, so deletePrefix rejects with UnsupportedOperationError
    // (tested in http-store.test.ts); the random sessions draw deletePrefix steps too.
    "deletePrefix removes exactly the keys under the prefix",
    "deletePrefix of the root removes every key",
    "clear removes every key",
    "random sessions of writes, deletes, reads and listings match MapStore",
  ],
});
