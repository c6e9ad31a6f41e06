import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { HttpError } from "@z/store-http";
import { S3Store } from "@z/store-s3";
import { startTestHttpServer, type TestHttpServer, tempDir } from "@z/test-utils";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { sha256Hex } from "../src/sigv4.js";

/*
 * What the store sends, seen by a real HTTP server on 127.0.0.1 serving a folder path-style
 * (`/<bucket>/<key>`): SigV4 headers, bearer tokens, nothing for anonymous access, and retries.
 */

let sandbox: { dir: string; remove: () => void };
let server: TestHttpServer;
let endpoint: string;

beforeAll(async () => {
  sandbox = tempDir("z-store-s3-requests-");
  mkdirSync(path.join(sandbox.dir, "bucket", "data.zarr"), { recursive: true });
  writeFileSync(path.join(sandbox.dir, "bucket", "data.zarr", "zarr.json"), '{"a":1}');
  server = await startTestHttpServer({ root: sandbox.dir, writable: true });
  endpoint = server.url.replace(/\/$/, "");
});
afterAll(async () => {
  await server.stop();
  sandbox.remove();
});
beforeEach(() => {
  server.reset();
  server.options.requireHeader = undefined;
  server.options.failNext = 0;
});

const header = (name: string) => server.requests.at(-1)?.headers[name];

describe("SigV4", () => {
  test("each request carries X-Amz-Date, the payload's SHA-256 and the Authorization header", async () => {
    const store = new S3Store("s3://bucket/data.zarr", {
      endpoint,
      region: "eu-central-1",
      credentials: { accessKeyId: "AKID", secretAccessKey: "secret", sessionToken: "TOKEN" },
      conditionalWrites: false,
      env: {},
    });
    const value = new TextEncoder().encode("hello");
    await store.set("x/y", value);
    const date = String(header("x-amz-date"));
    expect(date).toMatch(/^\d{8}T\d{6}Z$/);
    expect(header("x-amz-content-sha256")).toBe(await sha256Hex(value));
    expect(header("x-amz-security-token")).toBe("TOKEN");
    expect(String(header("authorization"))).toMatch(
      new RegExp(
        `^AWS4-HMAC-SHA256 Credential=AKID/${date.slice(0, 8)}/eu-central-1/s3/aws4_request, ` +
          "SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date;x-amz-security-token, " +
          "Signature=[0-9a-f]{64}$",
      ),
    );
    expect(new TextDecoder().decode(await store.get("x/y"))).toBe("hello");
    // A ranged read signs its Range header too.
    await store.get("zarr.json", { range: { offset: 1, length: 3 } });
    expect(String(header("authorization"))).toContain("SignedHeaders=host;range;");
  });

  test("credentials from a function are asked for each request (temporary credentials renew)", async () => {
    let calls = 0;
    const store = new S3Store("s3://bucket/data.zarr", {
      endpoint,
      credentials: () => ({ accessKeyId: `AK${++calls}`, secretAccessKey: "s" }),
      env: {},
    });
    await store.get("zarr.json");
    await store.get("zarr.json");
    expect(calls).toBe(2);
    expect(String(header("authorization"))).toContain("Credential=AK2/");
  });

  test("without keys the store is anonymous: nothing is signed", async () => {
    const store = new S3Store("s3://bucket/data.zarr", { endpoint, env: {} });
    expect(new TextDecoder().decode(await store.get("zarr.json"))).toBe('{"a":1}');
    expect(header("authorization")).toBeUndefined();
    expect(header("x-amz-date")).toBeUndefined();
  });
});

describe("GCS with an OAuth bearer token", () => {
  test("GOOGLE_OAUTH_TOKEN is sent as Authorization: Bearer, unsigned; a wrong one is refused", async () => {
    server.options.requireHeader = { name: "authorization", value: "Bearer ya29.good" };
    const env = { STORAGE_EMULATOR_HOST: endpoint, GOOGLE_OAUTH_TOKEN: "ya29.good" };
    const store = new S3Store("gs://bucket/data.zarr", { env });
    expect(new TextDecoder().decode(await store.get("zarr.json"))).toBe('{"a":1}');
    expect(header("authorization")).toBe("Bearer ya29.good");
    expect(header("x-amz-date")).toBeUndefined();

    const wrong = new S3Store("gs://bucket/data.zarr", {
      env: { STORAGE_EMULATOR_HOST: endpoint },
      bearerToken: async () => "ya29.expired",
      retries: 0,
    });
    const error = await wrong.get("zarr.json").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(401);
  });
});

describe("retries", () => {
  test.each([503, 500, 429])(
    "a %i is retried with backoff, then the read succeeds",
    async (status) => {
      server.options.failNext = 2;
      server.options.failStatus = status;
      const retries: number[] = [];
      const store = new S3Store("s3://bucket/data.zarr", {
        endpoint,
        env: {},
        retryDelay: 1,
        onRetry: (info) => retries.push(info.status ?? 0),
      });
      expect(new TextDecoder().decode(await store.get("zarr.json"))).toBe('{"a":1}');
      expect(retries).toEqual([status, status]);
    },
  );

  test("bucket requests (ListObjectsV2) are retried too, each signed afresh", async () => {
    server.options.failNext = 2;
    server.options.failStatus = 503;
    const retries: number[] = [];
    const store = new S3Store("s3://bucket/data.zarr", {
      endpoint,
      credentials: { accessKeyId: "AKID", secretAccessKey: "s" },
      env: {},
      retryDelay: 1,
      onRetry: (info) => retries.push(info.status ?? 0),
    });
    // The test server has no listing: after the retries, its final answer is the error.
    const error = await store.listDir("").catch((e: unknown) => e);
    expect(retries).toEqual([503, 503]);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).not.toBe(503);
    const listings = server.requests.filter((r) => r.url.includes("list-type=2"));
    expect(listings).toHaveLength(3);
    expect(
      listings.every((r) => String(r.headers.authorization).startsWith("AWS4-HMAC-SHA256")),
    ).toBe(true);
  });

  test("a 403 is final: an HttpError at once, never 'missing'", async () => {
    server.options.failNext = 1;
    server.options.failStatus = 403;
    const store = new S3Store("s3://bucket/data.zarr", { endpoint, env: {} });
    const error = await store.get("zarr.json").catch((e: unknown) => e);
    expect((error as HttpError).status).toBe(403);
    expect(server.requests).toHaveLength(1);
  });
});
