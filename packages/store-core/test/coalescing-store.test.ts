import {
  type ByteRange,
  CoalescingStore,
  coalesceRanges,
  type GetOptions,
  LoggingStore,
  MapStore,
  sliceRange,
} from "@z/store-core";
import { describeStoreContract, expectBytes, patternBytes } from "@z/store-core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

describeStoreContract(
  "CoalescingStore over MapStore",
  (entries) => new CoalescingStore(new MapStore(new Map(entries))),
);

describeStoreContract(
  "CoalescingStore (gap 0, no get batching) over MapStore",
  (entries) => new CoalescingStore(new MapStore(new Map(entries)), { gap: 0, batchGets: false }),
);

describeStoreContract(
  "CoalescingStore over a get-only store",
  (entries) => {
    const inner = new MapStore(new Map(entries));
    return new CoalescingStore({
      get: (key: string, options?: GetOptions) => inner.get(key, options),
    });
  },
  { writable: false, listable: false },
);

const gets = (store: LoggingStore) => store.requests.filter((r) => r.method === "get");

describe("coalesceRanges", () => {
  it("merges ranges whose gap is at most the gap, keeps suffix ranges alone", () => {
    const ranges: ByteRange[] = [
      { offset: 1000, length: 10 },
      { offset: 0, length: 10 },
      { offset: 20, length: 10 }, // gap 10 after the range at 0
      { suffix: 5 },
      { offset: 1015 }, // open-ended, gap 5 after 1000..1010
    ];
    expect(coalesceRanges(ranges, 10)).toEqual([
      { range: { suffix: 5 }, members: [3] },
      { range: { offset: 0, length: 30 }, members: [1, 2] },
      { range: { offset: 1000 }, members: [0, 4] },
    ]);
    expect(coalesceRanges(ranges, 9).map((p) => p.members)).toEqual([[3], [1], [2], [0, 4]]);
  });

  it("serves every range exactly, for random ranges and gaps", async () => {
    const value = patternBytes(2000, 5);
    const range = fc.oneof(
      fc.record({ offset: fc.nat(2100), length: fc.nat(300) }),
      fc.record({ offset: fc.nat(2100) }),
      fc.record({ suffix: fc.nat(2100) }),
    ) as fc.Arbitrary<ByteRange>;
    await fc.assert(
      fc.asyncProperty(fc.array(range, { maxLength: 12 }), fc.nat(500), async (ranges, gap) => {
        const inner = new LoggingStore(new MapStore(new Map([["v", value]])));
        const store = new CoalescingStore(inner, { gap });
        const parts = await store.getRanges("v", ranges);
        ranges.forEach((r, i) => {
          expectBytes(parts![i], sliceRange(value, r), JSON.stringify(r));
        });
        expect(gets(inner).length).toBe(coalesceRanges(ranges, gap).length);
      }),
    );
  });
});

describe("CoalescingStore", () => {
  it("reads near ranges with one request and far ranges with another", async () => {
    const value = patternBytes(200_000, 6);
    const inner = new LoggingStore(new MapStore(new Map([["shard", value]])));
    const store = new CoalescingStore(inner, { gap: 16 * 1024 });
    const ranges = [
      { offset: 0, length: 100 },
      { offset: 10_000, length: 100 },
      { offset: 150_000, length: 100 },
    ];
    const parts = await store.getRanges("shard", ranges);
    for (const [i, r] of ranges.entries()) expectBytes(parts![i], sliceRange(value, r));
    expect(gets(inner).map((r) => r.range)).toEqual([
      { offset: 0, length: 10_100 },
      { offset: 150_000, length: 100 },
    ]);
    expect(store.stats).toEqual({ ranges: 3, requests: 2 });
    expect(await store.getRanges("missing", ranges)).toBeUndefined();
  });

  it("batches ranged gets of one key made in the same microtask", async () => {
    const value = patternBytes(5000, 7);
    const inner = new LoggingStore(new MapStore(new Map([["k", value]])));
    const store = new CoalescingStore(inner, { gap: 100 });
    const ranges = [
      { offset: 0, length: 10 },
      { offset: 50, length: 10 },
      { offset: 4000, length: 10 },
    ];
    const parts = await Promise.all([
      ...ranges.map((range) => store.get("k", { range })),
      store.get("other", { range: { offset: 0, length: 1 } }),
    ]);
    for (const [i, r] of ranges.entries()) expectBytes(parts[i], sliceRange(value, r));
    expect(parts[3]).toBeUndefined();
    expect(gets(inner).map((r) => [r.key, r.range])).toEqual([
      ["k", { offset: 0, length: 60 }],
      ["k", { offset: 4000, length: 10 }],
      ["other", { offset: 0, length: 1 }],
    ]);
  });

  it("does not batch across signals: aborting one caller leaves the others alone", async () => {
    const value = patternBytes(100, 8);
    const inner = new LoggingStore(new MapStore(new Map([["k", value]])));
    const store = new CoalescingStore(inner);
    const controller = new AbortController();
    const aborted = store.get("k", { range: { offset: 0, length: 4 }, signal: controller.signal });
    const kept = store.get("k", { range: { offset: 4, length: 4 } });
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ name: "AbortError" });
    expectBytes(await kept, value.subarray(4, 8));
  });

  it("passes whole and suffix reads straight through", async () => {
    const value = patternBytes(100, 9);
    const inner = new LoggingStore(new MapStore(new Map([["k", value]])));
    const store = new CoalescingStore(inner);
    await Promise.all([store.get("k"), store.get("k", { range: { suffix: 3 } })]);
    expect(gets(inner).map((r) => r.range)).toEqual([undefined, { suffix: 3 }]);
  });
});
