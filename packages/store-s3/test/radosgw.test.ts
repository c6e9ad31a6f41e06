import { collect } from "@z/store-core/testing";
import { HttpError } from "@z/store-http";
import { S3Store, type S3StoreOptions } from "@z/store-s3";
import { radosgwMissing, startRadosgw, type TestS3Server } from "@z/test-utils";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

/*
 * Against Ceph's radosgw (a one-node cluster started here), which checks SigV4 signatures: a
 * wrong key is refused, and keys with any characters sign, write, list and read back.
 */

const missing = radosgwMissing();
let server: TestS3Server;
let counter = 0;

function store(options: S3StoreOptions = {}): S3Store {
  return new S3Store(`s3://rgw-tests/t${counter++}`, {
    endpoint: server.endpoint,
    credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
    retries: 0,
    env: {},
    ...options,
  });
}

describe.skipIf(missing !== undefined)(`radosgw${missing ? ` (skipped: ${missing})` : ""}`, () => {
  beforeAll(async () => {
    server = await startRadosgw();
    await server.createBucket("rgw-tests");
  }, 180_000);
  afterAll(async () => server?.stop());

  test("a wrong secret is refused with 403 SignatureDoesNotMatch, for reads, writes and listings", async () => {
    const good = store();
    await good.set("zarr.json", new TextEncoder().encode("{}"));
    const bad = new S3Store(good.url.replace(/.*\/rgw-tests\//, "s3://rgw-tests/"), {
      endpoint: server.endpoint,
      credentials: { accessKeyId: server.accessKeyId, secretAccessKey: "not-the-secret" },
      retries: 0,
      env: {},
    });
    for (const attempt of [
      () => bad.get("zarr.json"),
      () => bad.has("zarr.json"),
      () => bad.set("zarr.json", new Uint8Array(1)),
      () => bad.listDir(""),
    ]) {
      const error = await attempt().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HttpError);
      expect((error as HttpError).status).toBe(403);
    }
    const listError = (await bad.listDir("").catch((e: unknown) => e)) as HttpError;
    expect(listError.message).toContain("SignatureDoesNotMatch");
    // An unknown access key too; and the value is unchanged.
    const unknown = new S3Store(`s3://rgw-tests/${good.prefix}`, {
      endpoint: server.endpoint,
      credentials: { accessKeyId: "NOSUCHKEY", secretAccessKey: server.secretAccessKey },
      retries: 0,
      env: {},
    });
    expect(((await unknown.get("zarr.json").catch((e: unknown) => e)) as HttpError).status).toBe(
      403,
    );
    expect(new TextDecoder().decode(await good.get("zarr.json"))).toBe("{}");
  });

  test("anonymous requests to a private bucket are refused, not read as missing", async () => {
    const anonymous = store({ credentials: "anonymous" });
    const error = await anonymous.get("zarr.json").catch((e: unknown) => e);
    expect((error as HttpError).status).toBe(403);
  });

  test("listings page through continuation tokens; deletePrefix deletes in DeleteObjects batches", async () => {
    const warnings: string[] = [];
    const s = store({ listPageSize: 4, onWarning: (m) => warnings.push(m) });
    const keys = Array.from({ length: 23 }, (_, i) => `g/c/${i}`);
    await Promise.all(keys.map((key) => s.set(key, new Uint8Array([1]))));
    await s.set("g/zarr.json", new Uint8Array([2]));
    await s.set("h/zarr.json", new Uint8Array([3]));
    expect(await collect(s.listPrefix("g/"))).toEqual([...keys, "g/zarr.json"].sort());
    expect(await s.listDir("")).toEqual({ keys: [], prefixes: ["g/", "h/"] });
    expect(await s.listDir("g/")).toEqual({ keys: ["g/zarr.json"], prefixes: ["g/c/"] });
    await s.deletePrefix("g/");
    expect(await collect(s.list())).toEqual(["h/zarr.json"]);
    expect(warnings).toEqual([]); // DeleteObjects was accepted, no fallback
  });

  test("keys with any characters sign, write, list and read back (property)", async () => {
    const segment = fc
      .string({ unit: "grapheme", minLength: 1, maxLength: 8 })
      // Printable characters: a key with control characters is not one a user names a node with.
      .filter(
        (s) =>
          s !== "." &&
          s !== ".." &&
          [...s].every(
            (c) => c !== "/" && c !== "\\" && c.codePointAt(0)! > 0x1f && c !== "\u007f",
          ),
      );
    const key = fc.array(segment, { minLength: 1, maxLength: 3 }).map((parts) => parts.join("/"));
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(key, { minLength: 1, maxLength: 4 }), async (keys) => {
        const s = store();
        // No key may also be the "folder" of another.
        const usable = keys.filter((k) => !keys.some((other) => other.startsWith(`${k}/`)));
        for (const [i, k] of usable.entries()) await s.set(k, new Uint8Array([i]));
        for (const [i, k] of usable.entries()) expect([...((await s.get(k)) ?? [])]).toEqual([i]);
        const utf8 = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
        expect(await collect(s.list())).toEqual([...usable].sort(utf8));
      }),
      { numRuns: 15 },
    );
  });
});
