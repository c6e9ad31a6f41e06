import path from "node:path";
import {
  ConfigError,
  type ConfigKey,
  config,
  createArray,
  DEFAULT_CONCURRENCY,
  openArray,
  setDefaultConcurrency,
} from "@z/array";
import {
  type ChunkDecodePool,
  defaultWorkerCount,
  setDefaultDecodePool,
  setDefaultWorkerCount,
} from "@z/codecs";
import { compressionPathAllowed, useCompressionPaths } from "@z/compression";
import { getLogLevel, type LogSink, setLogger, setLogLevel } from "@z/log";
import { MetadataLimitError, metadataLimits, setMetadataLimits } from "@z/metadata";
import { LoggingStore, type Readable, type Writable } from "@z/store-core";
import { FsStore } from "@z/store-fs";
import { HttpStore } from "@z/store-http";
import { MemoryStore } from "@z/store-memory";
import { scratchFolders, startTestHttpServer } from "@z/test-utils";
import * as umbrella from "@z/zarr";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";

/*
 * `config`: one front door to every process-wide setting. Each key reads and writes what its own
 * setter does; set() checks everything first and returns a restore function (`using`-friendly);
 * the settings take effect where they are used.
 */

const scratch = scratchFolders("z-config-");
afterEach(() => {
  config.reset();
});

describe("config.get and config.set", () => {
  it("every key starts at its documented default", () => {
    const defaults = config.defaults();
    expect(defaults).toEqual({
      concurrency: 8,
      "metadata.maxDocumentBytes": 256 * 2 ** 20,
      "metadata.maxJsonDepth": 512,
      "metadata.maxDimensions": 64,
      "metadata.maxItemSize": 16 * 2 ** 20,
      "metadata.maxChunkBytes": 2 ** 28,
      "metadata.maxStructDepth": 32,
      "workers.count": undefined,
      "workers.pool": undefined,
      "log.levels": {},
      "log.sink": undefined,
      "compression.native": true,
      "compression.simd": true,
      "cache.shardIndexBytes": 16 * 2 ** 20,
    });
    expect(config.keys()).toEqual(Object.keys(defaults));
    for (const key of config.keys()) {
      if (key === "log.sink") continue; // the default sink is made on first use
      expect(config.get(key)).toEqual(defaults[key]);
    }
  });

  it("the umbrella @z/zarr exports the same config and setters", () => {
    expect(umbrella.config).toBe(config);
    expect(umbrella.ConfigError).toBe(ConfigError);
    expect(umbrella.setDefaultConcurrency).toBe(setDefaultConcurrency);
    umbrella.config.set({ concurrency: 11 });
    expect(umbrella.DEFAULT_CONCURRENCY).toBe(11);
  });

  it("reads and writes what the existing setters own, both ways", () => {
    const restore = config.set({
      concurrency: 3,
      "metadata.maxDimensions": 5,
      "workers.count": 2,
      "compression.simd": false,
      "log.levels": { store: "debug", "*": "warn" },
    });
    expect(DEFAULT_CONCURRENCY).toBe(3);
    expect(metadataLimits().maxDimensions).toBe(5);
    expect(defaultWorkerCount()).toBe(2);
    expect(compressionPathAllowed("simd")).toBe(false);
    expect(getLogLevel("store")).toBe("debug");
    expect(getLogLevel("*")).toBe("warn");
    restore();
    expect(DEFAULT_CONCURRENCY).toBe(8);
    expect(metadataLimits().maxDimensions).toBe(64);
    expect(defaultWorkerCount(4)).toBe(3);
    expect(compressionPathAllowed("simd")).toBe(true);
    expect(getLogLevel("store")).toBeUndefined();

    setDefaultConcurrency(5);
    setMetadataLimits({ maxJsonDepth: 99 });
    setDefaultWorkerCount(7);
    useCompressionPaths({ native: false });
    setLogLevel("codec", "info");
    const pool = { decode: async () => undefined } as unknown as ChunkDecodePool;
    setDefaultDecodePool(pool);
    const sink: LogSink = { debug() {}, info() {}, warn() {} };
    setLogger(sink);
    expect(config.get("concurrency")).toBe(5);
    expect(config.get("metadata.maxJsonDepth")).toBe(99);
    expect(config.get("workers.count")).toBe(7);
    expect(config.get("compression.native")).toBe(false);
    expect(config.get("log.levels")).toEqual({ codec: "info" });
    expect(config.get("workers.pool")).toBe(pool);
    expect(config.get("log.sink")).toBe(sink);
  });

  it("the restore function works once, as a using declaration too, and says what it restores", () => {
    const restore = config.set({ concurrency: 2 });
    expect(restore.previous).toEqual({ concurrency: 8 });
    config.set({ concurrency: 4 });
    restore();
    expect(config.get("concurrency")).toBe(8);
    config.set({ concurrency: 6 });
    restore(); // a second call does nothing
    expect(config.get("concurrency")).toBe(6);
    config.reset();
    {
      using _settings = config.set({ concurrency: 12, "cache.shardIndexBytes": 1024 });
      expect(config.get("concurrency")).toBe(12);
      expect(config.get("cache.shardIndexBytes")).toBe(1024);
    }
    expect(config.get("concurrency")).toBe(8);
    expect(config.get("cache.shardIndexBytes")).toBe(16 << 20);
  });

  it("reset puts the defaults back and returns how to undo it", () => {
    config.set({ concurrency: 9, "compression.native": false });
    const undo = config.reset();
    expect(config.get("concurrency")).toBe(8);
    expect(config.get("compression.native")).toBe(true);
    undo();
    expect(config.get("concurrency")).toBe(9);
    expect(config.get("compression.native")).toBe(false);
  });

  const wrong: [string, unknown, RegExp][] = [
    ["concurrency", 0, /"concurrency" must be a positive integer, got 0/],
    ["concurrency", 2.5, /positive integer, got 2.5/],
    ["concurrency", "8", /positive integer, got "8"/],
    ["metadata.maxDimensions", -1, /"metadata.maxDimensions" must be a positive integer/],
    ["workers.count", 0, /"workers.count" must be a positive integer/],
    ["workers.pool", {}, /a pool \(with a decode method\), false or undefined/],
    ["workers.pool", true, /a pool/],
    ["log.levels", { store: "loud" }, /"log.levels" must be an object of namespace/],
    ["log.levels", "store", /"log.levels"/],
    ["log.sink", console.log, /debug, info and warn methods/],
    ["compression.simd", "no", /"compression.simd" must be true or false/],
    ["cache.shardIndexBytes", Number.NaN, /"cache.shardIndexBytes" must be a positive integer/],
  ];
  it.each(wrong)("%s = %o is a ConfigError naming the setting", (key, value, message) => {
    const error = (() => {
      try {
        config.set({ [key]: value });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).setting).toBe(key);
    expect((error as Error).message).toMatch(message);
  });

  it("an unknown key is a ConfigError listing the settings; nothing changes when one is wrong", () => {
    expect(() => config.get("concurency" as ConfigKey)).toThrow(ConfigError);
    expect(() => config.get("concurency" as ConfigKey)).toThrow(
      /"concurency": there is none; the settings are concurrency, metadata\.maxDocumentBytes/,
    );
    expect(() => config.set({ concurrency: 3, nope: 1 } as never)).toThrow(/"nope"/);
    expect(() => config.set({ concurrency: 3, "compression.simd": 1 } as never)).toThrow(
      ConfigError,
    );
    expect(config.get("concurrency")).toBe(8);
    expect(() => config.set(null as never)).toThrow(ConfigError);
    expect(() => config.get("toString" as ConfigKey)).toThrow(ConfigError);
  });

  it("nested sets restored in reverse order leave the model's values (property)", () => {
    const keys = ["concurrency", "metadata.maxDimensions", "cache.shardIndexBytes"] as const;
    const change = fc.record(
      {
        concurrency: fc.integer({ min: 1, max: 64 }),
        "metadata.maxDimensions": fc.integer({ min: 1, max: 200 }),
        "cache.shardIndexBytes": fc.integer({ min: 1, max: 2 ** 30 }),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.array(change, { maxLength: 8 }), (changes) => {
        const model: Record<string, number>[] = [
          Object.fromEntries(keys.map((k) => [k, config.get(k)])),
        ];
        const restores = changes.map((c) => {
          model.push({ ...model[model.length - 1], ...c });
          return config.set(c);
        });
        for (let i = restores.length; i >= 0; i--) {
          for (const key of keys) expect(config.get(key)).toBe(model[i][key]);
          restores[i - 1]?.();
        }
      }),
      { numRuns: 200 },
    );
  });
});

/** A store that counts the reads in flight at once, each held a few milliseconds. */
function inFlightCounter(inner: Readable & Writable): Readable & Writable & { max: number } {
  let now = 0;
  const counter = {
    max: 0,
    async get(key: string, options?: Parameters<Readable["get"]>[1]) {
      now++;
      counter.max = Math.max(counter.max, now);
      await new Promise((resolve) => setTimeout(resolve, 3));
      try {
        return await inner.get(key, options);
      } finally {
        now--;
      }
    },
    set: inner.set.bind(inner),
    delete: inner.delete.bind(inner),
    deletePrefix: inner.deletePrefix.bind(inner),
  };
  return counter;
}

async function sixteenChunks(store: Readable & Writable): Promise<void> {
  const array = await createArray(store, { shape: [16], chunks: [1], dtype: "uint8" });
  await array.set(
    null,
    Uint8Array.from({ length: 16 }, (_, i) => i + 1),
  );
}

describe("the settings take effect where they are used", () => {
  for (const [what, make] of [
    ["MemoryStore", () => new MemoryStore()],
    ["FsStore", () => new FsStore(path.join(scratch(), "c.zarr"))],
  ] as const) {
    it(`${what}: concurrency bounds the chunk reads in flight of a call that names none`, async () => {
      const inner = make();
      await sixteenChunks(inner);
      const store = inFlightCounter(inner);
      const restore = config.set({ concurrency: 2 });
      await (await openArray(store)).get();
      expect(store.max).toBe(2);
      restore();
      store.max = 0;
      await (await openArray(store)).get();
      expect(store.max).toBe(8);
    });
  }

  it("HttpStore: the server sees at most that many requests at once", async () => {
    const dir = scratch();
    await sixteenChunks(new FsStore(path.join(dir, "c.zarr")));
    const server = await startTestHttpServer({ root: dir, delayMs: 5 });
    try {
      const array = await openArray(new HttpStore(`${server.url}c.zarr`));
      using _settings = config.set({ concurrency: 3 });
      server.reset();
      expect(Array.from((await array.get()).data as Uint8Array)).toEqual(
        Array.from({ length: 16 }, (_, i) => i + 1),
      );
      expect(server.maxInFlight).toBe(3);
    } finally {
      await server.stop();
    }
  });

  it("a metadata limit refuses what it bounds, until restored", async () => {
    const store = new MemoryStore();
    await createArray(store, { shape: [2, 2, 2], dtype: "uint8" });
    const restore = config.set({ "metadata.maxDimensions": 2 });
    await expect(openArray(store)).rejects.toThrow(MetadataLimitError);
    restore();
    expect((await openArray(store)).shape).toEqual([2, 2, 2]);
  });

  it("cache.shardIndexBytes: an index that does not fit is read again on the next read", async () => {
    const inner = new MemoryStore();
    const array = await createArray(inner, {
      shape: [8],
      chunks: [2],
      shards: [8],
      dtype: "uint8",
      compressors: null,
    });
    await array.set(
      null,
      Uint8Array.from({ length: 8 }, (_, i) => i),
    );
    const reads = async () => {
      const store = new LoggingStore(inner);
      const opened = await openArray(store);
      await opened.get([0]);
      await opened.get([7]);
      return store.requests.filter((r) => r.key === "c/0").length;
    };
    const cached = await reads();
    using _settings = config.set({ "cache.shardIndexBytes": 1 });
    expect(await reads()).toBe(cached + 1);
  });
});
