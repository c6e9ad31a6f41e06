import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expectBytes, patternBytes } from "@z/store-core/testing";
import { backoffDelay, HttpError, HttpStore, type RetryInfo } from "@z/store-http";
import { startTestHttpServer, type TestHttpServer, tempDir } from "@z/test-utils";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { writeEntries } from "./support.js";

const VALUE = patternBytes(10_000, 1);
const ENTRIES = new Map<string, Uint8Array>([
  ["data/v", VALUE],
  ["data/empty", new Uint8Array(0)],
  ["my group with spaces/zarr.json", Uint8Array.of(1, 2, 3)],
  ["%2e%2e/x", Uint8Array.of(4)],
]);

let sandbox: { dir: string; remove: () => void };
let server: TestHttpServer;

beforeAll(async () => {
  sandbox = tempDir("z-store-http-");
  writeEntries(sandbox.dir, ENTRIES);
  server = await startTestHttpServer({ root: sandbox.dir });
});
afterAll(async () => {
  await server.stop();
  sandbox.remove();
});
afterEach(() => {
  // Back to a well-behaved server for the next test.
  for (const key of Object.keys(server.options) as (keyof typeof server.options)[]) {
    if (key !== "root") delete server.options[key];
  }
  server.reset();
});

/** A store over the test server that fails tests on warnings unless they collect them. */
function store(options: ConstructorParameters<typeof HttpStore>[1] = {}) {
  return new HttpStore(server.url, {
    retryDelay: 1,
    onWarning: (m) => expect.fail(`unexpected warning: ${m}`),
    ...options,
  });
}
const requests = () => server.requests.map((r) => [r.method, r.range ?? null, r.status]);

describe("HttpStore reads", () => {
  it("sends bytes=a-b, bytes=a- and bytes=-n, one request each", async () => {
    const s = store();
    expectBytes(
      await s.get("data/v", { range: { offset: 10, length: 90 } }),
      VALUE.subarray(10, 100),
    );
    expectBytes(await s.get("data/v", { range: { offset: 9990 } }), VALUE.subarray(9990));
    expectBytes(await s.get("data/v", { range: { suffix: 16 } }), VALUE.subarray(-16));
    expectBytes(await s.get("data/v"), VALUE);
    // The first answer told the size, so the suffix goes as an explicit (CORS-safelisted) range.
    expect(requests()).toEqual([
      ["GET", "bytes=10-99", 206],
      ["GET", "bytes=9990-", 206],
      ["GET", "bytes=9984-9999", 206],
      ["GET", null, 200],
    ]);
    expect(server.requests.map((r) => r.bytes)).toEqual([90, 10, 16, 10_000]);
    server.reset();
    expectBytes(await store().get("data/v", { range: { suffix: 16 } }), VALUE.subarray(-16));
    expect(requests()).toEqual([["GET", "bytes=-16", 206]]);
  });

  it("reads a suffix again when the value changed size since its size was learned", async () => {
    const s = store();
    const file = path.join(sandbox.dir, "data", "grows");
    writeFileSync(file, VALUE.subarray(0, 100));
    try {
      expectBytes(await s.get("data/grows", { range: { suffix: 10 } }), VALUE.subarray(90, 100));
      writeFileSync(file, VALUE.subarray(0, 300));
      server.reset();
      // The remembered size (100) gives bytes=90-99; the answer says 300, so it asks again.
      expectBytes(await s.get("data/grows", { range: { suffix: 10 } }), VALUE.subarray(290, 300));
      expect(requests()).toEqual([
        ["GET", "bytes=90-99", 206],
        ["GET", "bytes=-10", 206],
      ]);
      server.reset();
      expectBytes(await s.get("data/grows", { range: { suffix: 4 } }), VALUE.subarray(296, 300));
      expect(requests()).toEqual([["GET", "bytes=296-299", 206]]);
    } finally {
      rmSync(file);
    }
  });

  it("reads missing keys (404) as undefined, and 403 only when configured", async () => {
    expect(await store().get("data/missing")).toBeUndefined();
    expect(await store().get("data/missing", { range: { suffix: 3 } })).toBeUndefined();
    expect(await store().has("data/missing")).toBe(false);
    server.options.missingStatus = 403;
    await expect(store().get("data/missing")).rejects.toMatchObject({
      name: "HttpError",
      status: 403,
    });
    const s3 = store({ missingStatuses: [403, 404] });
    expect(await s3.get("data/missing")).toBeUndefined();
    expect(await s3.get("data/missing", { range: { offset: 0, length: 2 } })).toBeUndefined();
    expect(await s3.has("data/missing")).toBe(false);
    expect(await s3.has("data/v")).toBe(true);
  });

  it("percent-encodes each key segment", async () => {
    const s = store();
    expectBytes(await s.get("my group with spaces/zarr.json"), Uint8Array.of(1, 2, 3));
    expectBytes(await s.get("%2e%2e/x"), Uint8Array.of(4));
    expect(server.requests.map((r) => r.url)).toEqual([
      "/my%20group%20with%20spaces/zarr.json",
      "/%252e%252e/x",
    ]);
    await expect(s.get("../x")).rejects.toMatchObject({ name: "InvalidKeyError" });
    expect(server.requests).toHaveLength(2);
  });

  it("empty ranges and empty values: a HEAD says whether the key exists", async () => {
    const s = store();
    expectBytes(await s.get("data/v", { range: { offset: 5, length: 0 } }), new Uint8Array(0));
    expect(await s.get("data/missing", { range: { suffix: 0 } })).toBeUndefined();
    expectBytes(await s.get("data/empty", { range: { suffix: 4 } }), new Uint8Array(0));
    expectBytes(await s.get("data/v", { range: { offset: 20_000 } }), new Uint8Array(0));
    expect(requests()).toEqual([
      ["HEAD", null, 200],
      ["HEAD", null, 404],
      ["GET", "bytes=-4", 416],
      ["GET", "bytes=20000-", 416],
    ]);
  });

  it("size() and has() use HEAD, and a one-byte GET where HEAD is refused", async () => {
    const s = store();
    expect(await s.getSize("data/v")).toBe(10_000);
    expect(await s.getSize("data/missing")).toBeUndefined();
    server.options.refuseHead = true;
    expect(await s.getSize("data/v")).toBe(10_000);
    expect(await s.has("data/empty")).toBe(true);
    expect(await s.has("data/missing")).toBe(false);
    expect(requests()).toEqual([
      ["HEAD", null, 200],
      ["HEAD", null, 404],
      ["HEAD", null, 405],
      ["GET", "bytes=0-0", 206],
      ["HEAD", null, 405],
      ["GET", "bytes=0-0", 416],
      ["HEAD", null, 405],
      ["GET", "bytes=0-0", 404],
    ]);
  });

  it("getRanges issues one request per range", async () => {
    const s = store();
    const ranges = [{ offset: 0, length: 4 }, { offset: 100, length: 4 }, { suffix: 4 }];
    const parts = await s.getRanges("data/v", ranges);
    expectBytes(parts![0], VALUE.subarray(0, 4));
    expectBytes(parts![1], VALUE.subarray(100, 104));
    expectBytes(parts![2], VALUE.subarray(-4));
    expect(server.requests).toHaveLength(3);
    expect(await s.getRanges("data/missing", ranges)).toBeUndefined();
  });
});

describe("HttpStore with servers that do not honour ranges", () => {
  for (const refusal of [true, 400, 501] as const) {
    it(`falls back to HEAD + a normal range when suffix ranges are refused (${refusal === true ? 416 : refusal}), and remembers`, async () => {
      server.options.refuseSuffixRanges = refusal;
      const warnings: string[] = [];
      const s = store({ onWarning: (m) => warnings.push(m) });
      expectBytes(await s.get("data/v", { range: { suffix: 100 } }), VALUE.subarray(-100));
      expect(s.suffixRangesRefused).toBe(true);
      const status = refusal === true ? 416 : refusal;
      expect(requests()).toEqual([
        ["GET", "bytes=-100", status],
        ["HEAD", null, 200],
        ["GET", "bytes=9900-9999", 206],
      ]);
      server.reset();
      expectBytes(await s.get("data/v", { range: { suffix: 20_000 } }), VALUE);
      expect(await s.get("data/missing", { range: { suffix: 1 } })).toBeUndefined();
      // The size is known from the HEAD: no second HEAD for the same key.
      expect(requests()).toEqual([
        ["GET", "bytes=0-9999", 206],
        ["HEAD", null, 404],
      ]);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/suffix/);
    });
  }

  it("suffixRanges: 'never' goes HEAD + range from the start", async () => {
    const s = store({ suffixRanges: "never" });
    expectBytes(await s.get("data/v", { range: { suffix: 10 } }), VALUE.subarray(-10));
    expect(requests()).toEqual([
      ["HEAD", null, 200],
      ["GET", "bytes=9990-9999", 206],
    ]);
  });

  it("slices the right bytes when the server ignores Range and sends 200 with everything; warns once", async () => {
    server.options.ignoreRanges = true;
    const warnings: string[] = [];
    const s = store({ onWarning: (m) => warnings.push(m) });
    const cases = [
      { offset: 10, length: 90 },
      { offset: 9990 },
      { suffix: 16 },
      { offset: 20_000, length: 5 },
    ] as const;
    for (const range of cases) {
      const expected =
        "suffix" in range
          ? VALUE.subarray(-range.suffix)
          : VALUE.subarray(
              range.offset,
              "length" in range ? range.offset + range.length : undefined,
            );
      expectBytes(await s.get("data/v", { range }), expected, JSON.stringify(range));
    }
    expect(server.requests.every((r) => r.status === 200)).toBe(true);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/ignores Range/);
  });
});

describe("HttpStore retries", () => {
  it("retries 503 answers with growing, jittered delays, then succeeds", async () => {
    server.options.failNext = 3;
    const retries: RetryInfo[] = [];
    const s = store({ retries: 3, retryDelay: 20, onRetry: (info) => retries.push(info) });
    expectBytes(await s.get("data/v", { range: { offset: 0, length: 8 } }), VALUE.subarray(0, 8));
    expect(requests()).toEqual([
      ["GET", "bytes=0-7", 503],
      ["GET", "bytes=0-7", 503],
      ["GET", "bytes=0-7", 503],
      ["GET", "bytes=0-7", 206],
    ]);
    expect(retries.map((r) => [r.attempt, r.status])).toEqual([
      [1, 503],
      [2, 503],
      [3, 503],
    ]);
    // Full jitter: retry n waits a random time below 20 ms * 2^(n-1).
    retries.forEach((r, i) => {
      expect(r.delayMs).toBeGreaterThanOrEqual(0);
      expect(r.delayMs).toBeLessThan(20 * 2 ** i);
    });
  });

  it("gives up after the configured count with an HttpError carrying the status", async () => {
    server.options.failNext = 10;
    const s = store({ retries: 2 });
    const error = await s.get("data/v").catch((e) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 503 });
    expect(error.message).toMatch(/503.*gave up after 3 attempts/);
    expect(server.requests).toHaveLength(3);
  });

  it("retries network errors (dropped connections)", async () => {
    server.options.dropNext = 2;
    const retries: RetryInfo[] = [];
    const s = store({ onRetry: (info) => retries.push(info) });
    expectBytes(await s.get("data/v"), VALUE);
    expect(retries).toHaveLength(2);
    expect(retries.every((r) => r.status === undefined && r.error !== undefined)).toBe(true);
    server.options.dropNext = 5;
    await expect(store({ retries: 1 }).get("data/v")).rejects.toMatchObject({
      name: "HttpError",
      status: 0,
    });
  });

  it("never retries a 4xx answer", async () => {
    for (const status of [400, 401, 403, 429]) {
      server.reset();
      server.options.failNext = 1;
      server.options.failStatus = status;
      const retries: RetryInfo[] = [];
      const error = await store({ onRetry: (info) => retries.push(info) })
        .get("data/v")
        .catch((e) => e);
      expect(error, String(status)).toMatchObject({ name: "HttpError", status });
      expect(server.requests).toHaveLength(1);
      expect(retries).toEqual([]);
    }
  });

  it("backoffDelay grows exponentially up to the maximum, with jitter below the cap", () => {
    const top = () => 0.999_999;
    expect([0, 1, 2, 3, 4, 10].map((n) => backoffDelay(n, 100, 1000, top))).toEqual([
      99, 199, 399, 799, 999, 999,
    ]);
    expect(backoffDelay(3, 100, 1000, () => 0)).toBe(0);
    for (let i = 0; i < 100; i++) expect(backoffDelay(2, 100, 1000)).toBeLessThan(400);
  });
});

describe("HttpStore options", () => {
  it("sends static headers and per-request headers from a function", async () => {
    server.options.requireHeader = { name: "Authorization", value: "Bearer t0k" };
    await expect(store().get("data/v")).rejects.toMatchObject({ name: "HttpError", status: 401 });
    expectBytes(await store({ headers: { Authorization: "Bearer t0k" } }).get("data/v"), VALUE);
    const seen: string[] = [];
    const s = store({
      headers: async ({ method, key, url }) => {
        seen.push(`${method} ${key} ${new URL(url).pathname}`);
        return { Authorization: "Bearer t0k" };
      },
    });
    expectBytes(await s.get("data/v", { range: { suffix: 2 } }), VALUE.subarray(-2));
    expect(await s.has("data/v")).toBe(true);
    expect(seen).toEqual(["GET data/v /data/v", "HEAD data/v /data/v"]);
    // The Range header is the store's own, whatever the function returns.
    expect(server.requests.at(-2)?.range).toBe("bytes=-2");
  });

  it("keeps the base URL's query string on every request, and resolveUrl maps keys to presigned URLs", async () => {
    const withQuery = new HttpStore(`${server.url}data?token=abc`);
    expectBytes(await withQuery.get("v"), VALUE);
    expect(server.requests.at(-1)?.url).toBe("/data/v?token=abc");
    const presigned = new HttpStore("https://bucket.invalid/root", {
      resolveUrl: (key) => `${server.url}${key}?X-Signature=secret-${key.length}`,
    });
    expectBytes(
      await presigned.get("data/v", { range: { offset: 0, length: 3 } }),
      VALUE.subarray(0, 3),
    );
    expect(server.requests.at(-1)?.url).toBe("/data/v?X-Signature=secret-6");
    server.options.failNext = 1;
    server.options.failStatus = 400;
    const error = await presigned.get("data/v").catch((e) => e);
    expect(error.message).not.toMatch(/secret/);
  });

  it("uses a custom fetch", async () => {
    const calls: string[] = [];
    const s = store({
      fetch: (input, init) => {
        calls.push(`${init?.method} ${String(input)}`);
        return fetch(input, init);
      },
    });
    await s.get("data/v", { range: { suffix: 1 } });
    expect(calls).toEqual([`GET ${server.url}data/v`]);
  });

  it("keeps at most `concurrency` requests in flight, as the server sees them", async () => {
    server.options.delayMs = 30;
    const s = store({ concurrency: 3 });
    const reads = Array.from({ length: 12 }, (_, i) =>
      s.get("data/v", { range: { offset: i, length: 1 } }),
    );
    const parts = await Promise.all(reads);
    for (const [i, part] of parts.entries()) expectBytes(part, VALUE.subarray(i, i + 1));
    expect(server.maxInFlight).toBe(3);
    server.reset();
    const defaults = store();
    await Promise.all(Array.from({ length: 40 }, () => defaults.has("data/v")));
    expect(server.maxInFlight).toBe(16);
  });

  it("passes the AbortSignal through: in flight, while queued, and while waiting to retry", async () => {
    server.options.delayMs = 300;
    const s = store({ concurrency: 1 });
    const controller = new AbortController();
    const started = Date.now();
    const inFlight = s.get("data/v", { signal: controller.signal });
    const queued = s.get("data/v", { signal: controller.signal });
    setTimeout(() => controller.abort(), 30);
    await expect(inFlight).rejects.toMatchObject({ name: "AbortError" });
    await expect(queued).rejects.toMatchObject({ name: "AbortError" });
    expect(Date.now() - started).toBeLessThan(250);

    delete server.options.delayMs;
    server.options.failNext = 100;
    const backingOff = new AbortController();
    const retrying = store({ retryDelay: 5_000, retries: 5 }).get("data/v", {
      signal: backingOff.signal,
    });
    setTimeout(() => backingOff.abort(), 50);
    const t0 = Date.now();
    await expect(retrying).rejects.toMatchObject({ name: "AbortError" });
    expect(Date.now() - t0).toBeLessThan(1000);
  });
});

describe("HttpStore writes", () => {
  it("are off by default: ReadOnlyError, and nothing is sent", async () => {
    const s = store();
    await expect(s.set("data/new", Uint8Array.of(1))).rejects.toMatchObject({
      name: "ReadOnlyError",
    });
    await expect(s.delete("data/v")).rejects.toMatchObject({ name: "ReadOnlyError" });
    await expect(s.deletePrefix("data/")).rejects.toMatchObject({ name: "ReadOnlyError" });
    expect(server.requests).toEqual([]);
  });

  it("PUT and DELETE when writable; deletePrefix is impossible without listing", async () => {
    server.options.writable = true;
    const s = store({ writable: true });
    await s.set("w/a b", Uint8Array.of(7, 8));
    expectBytes(await s.get("w/a b"), Uint8Array.of(7, 8));
    expect(await s.setIfNotExists("w/a b", Uint8Array.of(9))).toBe(false);
    await s.delete("w/a b");
    await s.delete("w/a b");
    expect(await s.get("w/a b")).toBeUndefined();
    await expect(s.deletePrefix("w/")).rejects.toMatchObject({ name: "UnsupportedOperationError" });
    expect(requests()).toEqual([
      ["PUT", null, 201],
      ["GET", null, 200],
      ["PUT", null, 412],
      ["DELETE", null, 204],
      ["DELETE", null, 404],
      ["GET", null, 404],
    ]);
    expect(server.requests[2].headers["if-none-match"]).toBe("*");
  });
});

describe("HttpStore store API", () => {
  it("getPartialValues sends one ranged GET per range and one plain GET for a whole value", async () => {
    const s = store();
    const parts = await s.getPartialValues(
      [
        { key: "data/v", range: { offset: 0, length: 4 } },
        { key: "data/missing", range: { offset: 0, length: 4 } },
        { key: "my group with spaces/zarr.json" },
        { key: "data/v", range: { offset: 100, length: 2 } },
      ],
      { concurrency: 1 },
    );
    expectBytes(parts[0], VALUE.subarray(0, 4));
    expect(parts[1]).toBeUndefined();
    expectBytes(parts[2], Uint8Array.of(1, 2, 3));
    expectBytes(parts[3], VALUE.subarray(100, 102));
    // One key at a time (concurrency 1): the two ranges of data/v, then the others.
    expect(requests()).toEqual([
      ["GET", "bytes=0-3", 206],
      ["GET", "bytes=100-101", 206],
      ["GET", "bytes=0-3", 404],
      ["GET", null, 200],
    ]);
  });

  it("getSize is one HEAD, and a read-only HttpStore says it cannot write", async () => {
    const s = store();
    expect(await s.getSize("data/empty")).toBe(0);
    expect(requests()).toEqual([["HEAD", null, 200]]);
    expect([s.supportsWrites, s.supportsListing, s.supportsPartialWrites]).toEqual([
      false,
      false,
      false,
    ]);
    expect(store({ writable: true }).supportsWrites).toBe(true);
    await expect(s.isEmpty("data")).rejects.toThrow(/cannot list its keys/);
    await expect(s.getSizePrefix("data")).rejects.toThrow(/cannot list its keys/);
  });
});
