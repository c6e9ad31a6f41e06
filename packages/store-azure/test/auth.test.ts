import { AZURITE_ACCOUNT_KEY, AzureBlobStore } from "@z/store-azure";
import { ConflictError, isZarrError } from "@z/store-core";
import { HttpError } from "@z/store-http";
import { type Azurite, accountSas, startAzurite } from "@z/test-utils";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

/*
 * Credentials against a real Azurite: it checks SharedKey signatures and SAS signatures,
 * permissions and expiry, and serves public containers to anonymous readers.
 */

let azurite: Azurite;
const bytes = (text: string) => new TextEncoder().encode(text);
const text = (value: Uint8Array | undefined) =>
  value === undefined ? undefined : new TextDecoder().decode(value);

/** A wrong key of the right length: the dev key with its first characters changed. */
const WRONG_KEY = `AAAA${AZURITE_ACCOUNT_KEY.slice(4)}`;

beforeAll(async () => {
  azurite = await startAzurite();
  const admin = new AzureBlobStore({
    container: "private",
    connectionString: azurite.connectionString,
  });
  await admin.createContainer();
  await admin.set("data/zarr.json", bytes("private bytes"));
  const open = new AzureBlobStore({
    container: "public",
    connectionString: azurite.connectionString,
  });
  await open.createContainer({ publicAccess: "container" });
  await open.set("data/zarr.json", bytes("public bytes"));
  await open.set("data/c/0", bytes("chunk"));
});
afterAll(() => azurite.stop());

/** The HttpError a promise rejects with. */
async function httpFailure(promise: Promise<unknown>): Promise<HttpError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HttpError);
  expect(isZarrError(error)).toBe(true);
  return error as HttpError;
}

describe("SharedKey", () => {
  test("the right key reads, writes and lists", async () => {
    const store = new AzureBlobStore({
      container: "private",
      endpoint: azurite.endpoint,
      accountName: "devstoreaccount1",
      accountKey: AZURITE_ACCOUNT_KEY,
    });
    expect(text(await store.get("data/zarr.json"))).toBe("private bytes");
    await store.set("data/new", bytes("new"));
    expect((await store.listDir("data/")).keys).toEqual(["data/new", "data/zarr.json"]);
    await store.delete("data/new");
  });

  test("a wrong account key is refused with 403 for reads, writes and listings", async () => {
    const store = new AzureBlobStore({
      container: "private",
      endpoint: azurite.endpoint,
      accountName: "devstoreaccount1",
      accountKey: WRONG_KEY,
      retries: 0,
    });
    const read = await httpFailure(store.get("data/zarr.json"));
    expect(read.status).toBe(403);
    expect((await httpFailure(store.set("data/evil", bytes("x")))).status).toBe(403);
    expect((await httpFailure(store.listDir(""))).status).toBe(403);
    const admin = new AzureBlobStore({
      container: "private",
      connectionString: azurite.connectionString,
    });
    expect(await admin.get("data/evil")).toBeUndefined();
  });
});

describe("SAS", () => {
  const endpoint = () => azurite.endpoint;

  test("a SAS signed with the account key reads, writes and lists", async () => {
    const store = new AzureBlobStore({
      container: "private",
      endpoint: endpoint(),
      sasToken: accountSas({}),
    });
    expect(text(await store.get("data/zarr.json"))).toBe("private bytes");
    await store.set("data/sas", bytes("via sas"));
    expect((await store.listDir("data/")).keys).toContain("data/sas");
    await store.delete("data/sas");
    expect(await store.has("data/sas")).toBe(false);
  });

  test("a SAS signed with a wrong key is refused", async () => {
    const store = new AzureBlobStore({
      container: "private",
      endpoint: endpoint(),
      sasToken: `?${accountSas({ key: WRONG_KEY })}`,
      retries: 0,
    });
    expect((await httpFailure(store.get("data/zarr.json"))).status).toBe(403);
  });

  test("a read-only SAS reads but cannot write", async () => {
    const store = new AzureBlobStore({
      container: "private",
      endpoint: endpoint(),
      sasToken: accountSas({ permissions: "rl" }),
      retries: 0,
    });
    expect(text(await store.get("data/zarr.json"))).toBe("private bytes");
    expect((await httpFailure(store.set("data/denied", bytes("x")))).status).toBe(403);
  });

  test("an expired SAS is refused", async () => {
    const store = new AzureBlobStore({
      container: "private",
      endpoint: endpoint(),
      sasToken: accountSas({ expiry: new Date(Date.now() - 60_000) }),
      retries: 0,
    });
    expect((await httpFailure(store.get("data/zarr.json"))).status).toBe(403);
  });

  test("a SAS from a connection string's SharedAccessSignature", async () => {
    const store = new AzureBlobStore({
      container: "private",
      connectionString: `BlobEndpoint=${endpoint()};SharedAccessSignature=${accountSas({ permissions: "rl" })}`,
    });
    expect(text(await store.get("data/zarr.json"))).toBe("private bytes");
  });
});

describe("anonymous access", () => {
  test("reads and lists a public container", async () => {
    const store = new AzureBlobStore({
      container: "public",
      endpoint: azurite.endpoint,
      anonymous: true,
    });
    expect(text(await store.get("data/zarr.json"))).toBe("public bytes");
    expect(text(await store.get("data/c/0", { range: { offset: 1, length: 3 } }))).toBe("hun");
    expect(await store.listDir("data/")).toEqual({
      keys: ["data/zarr.json"],
      prefixes: ["data/c/"],
    });
    expect(await store.get("data/missing")).toBeUndefined();
  });

  test("cannot write to a public container", async () => {
    const store = new AzureBlobStore({
      container: "public",
      endpoint: azurite.endpoint,
      anonymous: true,
      retries: 0,
    });
    const failure = await httpFailure(store.set("data/evil", bytes("x")));
    expect([401, 403, 404]).toContain(failure.status);
  });

  test("cannot read a private container", async () => {
    const store = new AzureBlobStore({
      container: "private",
      endpoint: azurite.endpoint,
      anonymous: true,
      retries: 0,
    });
    // The service hides private blobs from anonymous readers (404 or 403): never the bytes.
    const outcome = await store.get("data/zarr.json").catch((e: unknown) => e);
    if (outcome instanceof HttpError) expect([401, 403, 404]).toContain(outcome.status);
    else expect(outcome).toBeUndefined();
  });
});

describe("environment", () => {
  test("AZURE_STORAGE_CONNECTION_STRING configures a store given no credentials", async () => {
    const before = process.env.AZURE_STORAGE_CONNECTION_STRING;
    process.env.AZURE_STORAGE_CONNECTION_STRING = azurite.connectionString;
    try {
      const store = AzureBlobStore.fromUrl("az://private/data");
      expect(store.endpoint).toBe(azurite.endpoint);
      expect(text(await store.get("zarr.json"))).toBe("private bytes");
    } finally {
      if (before === undefined) delete process.env.AZURE_STORAGE_CONNECTION_STRING;
      else process.env.AZURE_STORAGE_CONNECTION_STRING = before;
    }
  });
});

describe("conditional writes", () => {
  test("If-Match with a stale ETag and If-None-Match on an existing blob are conflicts", async () => {
    const store = new AzureBlobStore({
      container: "private",
      path: "cond",
      connectionString: azurite.connectionString,
    });
    await store.set("k", bytes("one"));
    const first = await store.getVersioned!("k");
    expect(first?.version).toMatch(/^"/);
    await store.set("k", bytes("two"), { ifMatch: first!.version });
    await expect(
      store.set("k", bytes("three"), { ifMatch: first!.version }),
    ).rejects.toBeInstanceOf(ConflictError);
    await expect(store.set("k", bytes("four"), { ifNoneMatch: "*" })).rejects.toBeInstanceOf(
      ConflictError,
    );
    expect(await store.setIfNotExists("k", bytes("five"))).toBe(false);
    expect(text(await store.get("k"))).toBe("two");
    await expect(store.delete("k", { ifMatch: first!.version })).rejects.toBeInstanceOf(
      ConflictError,
    );
    const second = await store.getVersioned!("k");
    await store.delete("k", { ifMatch: second!.version });
    expect(await store.has("k")).toBe(false);
  });
});
