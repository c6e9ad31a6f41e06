// formatValue renders any value for an error message: never throws, bounded work and length.
import { formatValue } from "@z/errors";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

describe("formatValue", () => {
  it("writes what JSON.stringify cannot", () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(formatValue([2n ** 64n])).toBe("[18446744073709551616]");
    expect(formatValue(10n, { bigint: "suffix" })).toBe("10n");
    expect(formatValue([Number.NaN, -Infinity, undefined])).toBe("[NaN,-Infinity,undefined]");
    expect(formatValue(cyclic)).toBe('{"a":1,"self":[circular]}');
    expect(formatValue({ f() {} })).toBe('{"f":[function f]}');
    expect(formatValue(Symbol("s"))).toBe("Symbol(s)");
    expect(formatValue(new Date(0))).toBe("[Date]");
    expect(formatValue(new Float32Array(3))).toBe("[Float32Array(3)]");
    expect(formatValue("text")).toBe('"text"');
  });

  it("is bounded: long strings, long lists, deep values", () => {
    expect(formatValue("x".repeat(1_000_000)).length).toBeLessThanOrEqual(120);
    expect(formatValue(Array(1_000_000).fill(1), { maxLength: 50 }).length).toBeLessThanOrEqual(50);
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(formatValue(deep)).toBe("[[[[[[[…]]]]]]]");
  });

  it("never throws, even when a getter does", () => {
    const hostile = {
      get boom(): never {
        throw new Error("boom");
      },
    };
    expect(formatValue(hostile)).toContain("[unprintable]");
    const proxy = new Proxy(
      {},
      {
        getPrototypeOf() {
          throw new Error("trap");
        },
      },
    );
    expect(formatValue(proxy)).toContain("[unprintable]");
  });

  it("property: any value gives a string no longer than maxLength", () => {
    fc.assert(
      fc.property(
        fc.anything({ withBigInt: true, withMap: true, withTypedArray: true }),
        fc.integer({ min: 1, max: 200 }),
        (value, maxLength) => {
          expect(formatValue(value, { maxLength }).length).toBeLessThanOrEqual(maxLength);
        },
      ),
    );
  });
});
