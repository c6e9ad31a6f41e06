import { describe, expect, it } from "vitest";
import { benchStrings, formatStringsReport, makeStrings } from "../lib/strings.mjs";

describe("strings benchmark", () => {
  it("makes the same strings for the same seed", () => {
    expect(makeStrings(50, 3, true)).toEqual(makeStrings(50, 3, true));
    expect(makeStrings(50, 3, false).every((s) => /^[\x20-\x7e]{1,16}$/.test(s))).toBe(true);
    expect(makeStrings(400, 3, true).some((s) => [...s].some((c) => c.charCodeAt(0) > 0x7f))).toBe(
      true,
    );
  });

  it("runs both libraries on a small chunk, checks their results and reports ratios", async () => {
    const report = await benchStrings({ count: 2000, repeats: 1 });
    expect(report.results.map((r) => r.op)).toContain("vlen-utf8 chunk -> string[]");
    const sideBySide = report.results.filter((r) => r.zarrita !== null);
    expect(sideBySide).toHaveLength(2);
    for (const r of report.results) expect(r.ours.seconds).toBeGreaterThan(0);
    const text = formatStringsReport(report);
    expect(text).toMatch(/2000 short ASCII strings +\| vlen-utf8 chunk -> string\[\] +\|.*x \|/);
    expect(text).toMatch(/z\.vlen-offsets chunk -> Arrow Utf8 \(zero-copy/);
  });
});
