import { expect, type TestContext } from "vitest";
import { ConflictError } from "../errors.js";
import type { Readable, Store, Writable } from "../store.js";
import { hasConditionalWrites } from "../store-conditional.js";
import type { ContractContext } from "./context.js";
import { expectBytes, patternBytes } from "./helpers.js";

type Conditional = Readable & Writable & Required<Pick<Readable, "getVersioned">>;

/**
 * The store as one with conditional writes, or skips the test when it does not declare them
 * (`conditionalWrites: true` with `getVersioned`).
 */
function conditional(store: Store, context: TestContext): Conditional {
  if (!hasConditionalWrites(store)) context.skip(true, "the store has no conditional writes");
  return store as Conditional;
}

async function expectConflict(write: Promise<unknown>, key: string): Promise<void> {
  const error = await write.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, `a conditional write of ${key} should be refused`).toBeInstanceOf(ConflictError);
  // A wrapper may report the key of the store it wraps (a prefix store: with its path).
  expect((error as ConflictError).key.endsWith(key)).toBe(true);
}

/**
 * Tests of versioned reads and conditional writes (`getVersioned`, `ifMatch`,
 * `ifNoneMatch: "*"`), run for every store that declares `conditionalWrites`.
 */
export function conditionalTests(ctx: ContractContext): void {
  const writable = ctx.options.writable === true;

  ctx.test(
    "declaring conditionalWrites comes with getVersioned",
    async () => {
      const store = await ctx.make();
      if ((store as Partial<Writable>).conditionalWrites === true)
        expect(typeof store.getVersioned).toBe("function");
    },
    writable,
  );

  ctx.test(
    "getVersioned reads the whole value, and undefined for a missing key",
    async (context) => {
      const store = conditional(await ctx.make(), context);
      const value = patternBytes(300, 3);
      await store.set("a/v", value);
      const versioned = await store.getVersioned("a/v");
      expectBytes(versioned?.value, value);
      expect(typeof versioned?.version).toBe("string");
      expect(await store.getVersioned("a/missing")).toBeUndefined();
    },
    writable,
  );

  ctx.test(
    "the version holds while nothing writes, and changes with every write",
    async (context) => {
      const store = conditional(await ctx.make(), context);
      await store.set("k", patternBytes(64, 1));
      const first = (await store.getVersioned("k"))!.version;
      expect((await store.getVersioned("k"))!.version).toBe(first);
      await store.set("k", patternBytes(64, 2)); // same length, other bytes
      const second = (await store.getVersioned("k"))!.version;
      expect(second).not.toBe(first);
      await store.delete("k");
      await store.set("k", patternBytes(64, 3));
      expect((await store.getVersioned("k"))!.version).not.toBe(second);
    },
    writable,
  );

  ctx.test(
    "set with ifMatch writes when the version is current, else rejects and changes nothing",
    async (context) => {
      const store = conditional(await ctx.make(), context);
      await store.set("k", patternBytes(10, 1));
      const old = (await store.getVersioned("k"))!.version;
      await store.set("k", patternBytes(20, 2), { ifMatch: old });
      expectBytes(await store.get("k"), patternBytes(20, 2));
      await expectConflict(store.set("k", patternBytes(30, 3), { ifMatch: old }), "k");
      expectBytes(await store.get("k"), patternBytes(20, 2));
      // A missing key matches no version, and stays missing.
      await expectConflict(store.set("gone", patternBytes(5, 5), { ifMatch: old }), "gone");
      expect(await store.get("gone")).toBeUndefined();
    },
    writable,
  );

  ctx.test(
    'set with ifNoneMatch "*" creates a key, and rejects when it exists',
    async (context) => {
      const store = conditional(await ctx.make(), context);
      await store.set("a/new", patternBytes(8, 1), { ifNoneMatch: "*" });
      expectBytes(await store.get("a/new"), patternBytes(8, 1));
      await expectConflict(store.set("a/new", patternBytes(9, 2), { ifNoneMatch: "*" }), "a/new");
      expectBytes(await store.get("a/new"), patternBytes(8, 1));
    },
    writable,
  );

  ctx.test(
    "delete with ifMatch deletes only the version it names",
    async (context) => {
      const store = conditional(await ctx.make(), context);
      await store.set("k", patternBytes(10, 1));
      const old = (await store.getVersioned("k"))!.version;
      await store.set("k", patternBytes(10, 2));
      await expectConflict(store.delete("k", { ifMatch: old }), "k");
      expectBytes(await store.get("k"), patternBytes(10, 2));
      await store.delete("k", { ifMatch: (await store.getVersioned("k"))!.version });
      expect(await store.get("k")).toBeUndefined();
    },
    writable,
  );

  ctx.test(
    "racing read-modify-write increments with retries count every one",
    async (context) => {
      const store = conditional(await ctx.make(), context);
      const writers = 8;
      const increment = async () => {
        for (;;) {
          const current = await store.getVersioned("counter");
          const count = current ? current.value[0] : 0;
          try {
            await store.set(
              "counter",
              Uint8Array.of(count + 1),
              current ? { ifMatch: current.version } : { ifNoneMatch: "*" },
            );
            return;
          } catch (error) {
            if (!(error instanceof ConflictError)) throw error;
          }
        }
      };
      await Promise.all(Array.from({ length: writers }, increment));
      expectBytes(await store.get("counter"), Uint8Array.of(writers));
    },
    writable,
  );
}
