import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// What every published package must carry, and that the README's package table lists them all.

const root = join(import.meta.dirname, "..", "..");
const packages = readdirSync(join(root, "packages")).filter((name) =>
  existsSync(join(root, "packages", name, "package.json")),
);
const license = readFileSync(join(root, "LICENSE"), "utf8");

describe("packaging", () => {
  it("the root LICENSE is MIT, the @z authors'", () => {
    expect(license).toMatch(/^MIT License\n\nCopyright \(c\) 2026 the @z authors\n/);
  });

  for (const name of packages) {
    it(`@z/${name} ships the LICENSE and says where it comes from`, () => {
      const dir = join(root, "packages", name);
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
      expect(pkg.name).toBe(`@z/${name}`);
      expect(pkg.license).toBe("MIT");
      expect(pkg.files).toContain("LICENSE");
      expect(readFileSync(join(dir, "LICENSE"), "utf8")).toBe(license);
      expect(pkg.engines).toEqual({ node: ">=20.19" });
      expect(pkg.repository).toEqual({
        type: "git",
        url: "git+https://github.com/z-zarr/z.git",
        directory: `packages/${name}`,
      });
      expect(pkg.homepage).toMatch(/^https:\/\//);
      expect(pkg.keywords).toContain("zarr");
    });
  }

  it("the README's package table lists every package", () => {
    const readme = readFileSync(join(root, "README.md"), "utf8");
    const listed = [...readme.matchAll(/^\| \[`@z\/([\w-]+)`\]\(packages\/([\w-]+)\) \|/gm)];
    for (const [, name, dir] of listed) expect(name).toBe(dir);
    const names = new Set(listed.map(([, name]) => name));
    for (const name of packages) expect(names, `@z/${name} missing`).toContain(name);
  });
});
