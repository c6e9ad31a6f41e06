import { describe, expect, it } from "vitest";
import { lazily } from "../src/lazy.js";

describe("lazily", () => {
  it("loads once, answers with a promise until loaded and synchronously after", async () => {
    let loads = 0;
    const use = lazily(async () => {
      loads++;
      return { double: (x: number) => 2 * x };
    });
    const first = use((m) => m.double(2));
    const second = use((m) => m.double(3));
    expect(first).toBeInstanceOf(Promise);
    expect(await first).toBe(4);
    expect(await second).toBe(6);
    expect(use((m) => m.double(5))).toBe(10);
    expect(loads).toBe(1);
  });

  it("tries again after a failed load (a network error need not be final)", async () => {
    let loads = 0;
    const use = lazily(async () => {
      loads++;
      if (loads === 1) throw new Error("offline");
      return { answer: 42 };
    });
    await expect(use((m) => m.answer)).rejects.toThrow("offline");
    expect(await use((m) => m.answer)).toBe(42);
    expect(loads).toBe(2);
  });
});
