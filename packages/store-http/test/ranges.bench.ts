/**
 * Reading 256 ranges of 1 KiB spread over a 1 MiB value on a local HTTP server: one request per
 * range (HttpStore.getRanges) against merged requests (CoalescingStore in front), and a cached
 * second read (CachingStore). Run with `pnpm vitest bench --run packages/store-http/test/ranges.bench.ts`.
 */
import { CachingStore, CoalescingStore } from "@z/store-core";
import { patternBytes } from "@z/store-core/testing";
import { HttpStore } from "@z/store-http";
import { startTestHttpServer, tempDir } from "@z/test-utils";
import { afterAll, bench, describe } from "vitest";
import { writeEntries } from "./support.js";

const sandbox = tempDir("z-http-bench-");
writeEntries(sandbox.dir, [["shard", patternBytes(1 << 20, 1)]]);
const server = await startTestHttpServer({ root: sandbox.dir });
afterAll(async () => {
  await server.stop();
  sandbox.remove();
});

const ranges = Array.from({ length: 256 }, (_, i) => ({ offset: i * 4096, length: 1024 }));
const http = new HttpStore(server.url);
const coalesced = new CoalescingStore(http, { gap: 16 * 1024 });
const cached = new CachingStore(new CoalescingStore(http));
await cached.getRanges("shard", ranges);

describe("256 ranges of 1 KiB, 3 KiB apart", () => {
  bench("HttpStore.getRanges (256 requests, 16 in flight)", async () => {
    await http.getRanges("shard", ranges);
  });
  bench("CoalescingStore (gap 16 KiB: 1 request)", async () => {
    await coalesced.getRanges("shard", ranges);
  });
  bench("CachingStore over CoalescingStore, warm", async () => {
    await cached.getRanges("shard", ranges);
  });
});
