import { writeFileSync } from "node:fs";
import path from "node:path";
import { describeStoreContract, fillStore } from "@z/store-core/testing";
import { HttpStore } from "@z/store-http";
import { bytesSource, MemoryArchive, ZipStore } from "@z/store-zip";
import { createZipFile, openZipFile } from "@z/store-zip/node";
import { startTestHttpServer, type TestHttpServer, tempDir } from "@z/test-utils";
import { afterAll, beforeAll } from "vitest";
import { zipBytes } from "./support.js";

let sandbox: { dir: string; remove: () => void };
let server: TestHttpServer;
let counter = 0;
const nextFile = () => path.join(sandbox.dir, `a${counter++}.zip`);

beforeAll(async () => {
  sandbox = tempDir("z-store-zip-contract-");
  server = await startTestHttpServer({ root: sandbox.dir });
});
afterAll(async () => {
  await server.stop();
  sandbox.remove();
});

const close = (store: ZipStore) => store.close();

/*
 * Random contents can sit in one folder holding a zarr.json, which detection would take for an
 * archive zipped from the parent folder: the contract runs with the root as the store's root.
 */
const NO_DETECTION = { prefix: "" };

describeStoreContract(
  "ZipStore reading an archive in memory (written by ZipWriter)",
  async (entries) => ZipStore.open(bytesSource(await zipBytes(entries)), NO_DETECTION),
  { writable: "read-only" },
);

describeStoreContract(
  "ZipStore reading a zip64 archive (zip64 records everywhere)",
  async (entries) =>
    ZipStore.open(bytesSource(await zipBytes(entries, { zip64: "always" })), NO_DETECTION),
  { writable: "read-only", propertyRuns: 15 },
);

/** Keys outside the store's folder, which a prefixed store must never show. */
const OUTSIDE: [string, Uint8Array][] = [
  ["zarr.json", Uint8Array.of(1)],
  ["data.zarr.bak/x", Uint8Array.of(2)],
  ["data/x", Uint8Array.of(3)],
];

describeStoreContract(
  "ZipStore reading the folder data.zarr/ of an archive (explicit prefix)",
  async (entries) => {
    const all = [
      ...OUTSIDE,
      ...[...entries].map(([k, v]) => [`data.zarr/${k}`, v] as [string, Uint8Array]),
    ];
    return ZipStore.open(bytesSource(await zipBytes(all)), { prefix: "/data.zarr/" });
  },
  { writable: "read-only", propertyRuns: 15 },
);

describeStoreContract(
  "ZipStore reading a local zip file",
  async (entries) => {
    const file = nextFile();
    writeFileSync(file, await zipBytes(entries));
    return openZipFile(file, NO_DETECTION);
  },
  { writable: "read-only", dispose: close, propertyRuns: 15 },
);

describeStoreContract(
  "ZipStore reading a zip over HTTP (range requests through HttpStore)",
  async (entries) => {
    const file = nextFile();
    writeFileSync(file, await zipBytes(entries));
    return ZipStore.fromStore(new HttpStore(server.url), path.basename(file), NO_DETECTION);
  },
  { writable: "read-only", propertyRuns: 10 },
);

describeStoreContract(
  "ZipStore writing an archive in memory",
  (entries) => fillStore(ZipStore.create(new MemoryArchive()), entries),
  {
    dispose: close,
  },
);

describeStoreContract(
  "ZipStore writing a local zip file under a prefix",
  async (entries) =>
    fillStore(await createZipFile(nextFile(), { prefix: "root.zarr", fsync: false }), entries),
  { dispose: close, propertyRuns: 15 },
);
