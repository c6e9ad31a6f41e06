import * as path from "node:path";
import { FsStore } from "@z/store-fs";
import { tempDir } from "@z/test-utils";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { lockPathOf } from "../src/lock-file.js";
import { filled } from "./support.js";

/** Every file system call FsStore makes that could create or change a file, in order. */
interface FsEvent {
  op: "open" | "sync" | "rename" | "link" | "writeFile";
  file: string;
  flags?: string;
  to?: string;
  /** At rename/link time: the source's bytes and what the target held (undefined: nothing). */
  source?: Uint8Array;
  target?: Uint8Array;
}

const events = vi.hoisted(() => [] as FsEvent[]);

vi.mock("node:fs/promises", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs/promises")>();
  const contents = (file: string) =>
    fs.readFile(file).then(
      (buffer) => new Uint8Array(buffer),
      () => undefined,
    );
  return {
    ...fs,
    open: async (file: string, flags?: string, mode?: number) => {
      const handle = await fs.open(file, flags, mode);
      events.push({ op: "open", file, flags });
      const sync = handle.sync.bind(handle);
      handle.sync = async () => {
        events.push({ op: "sync", file });
        return sync();
      };
      return handle;
    },
    rename: async (from: string, to: string) => {
      events.push({
        op: "rename",
        file: from,
        to,
        source: await contents(from),
        target: await contents(to),
      });
      return fs.rename(from, to);
    },
    link: async (from: string, to: string) => {
      events.push({
        op: "link",
        file: from,
        to,
        source: await contents(from),
        target: await contents(to),
      });
      return fs.link(from, to);
    },
    writeFile: async (...args: Parameters<typeof fs.writeFile>) => {
      events.push({ op: "writeFile", file: String(args[0]) });
      return fs.writeFile(...args);
    },
  };
});

let sandbox: { dir: string; remove: () => void };
beforeEach(() => {
  sandbox = tempDir("z-store-fs-atomic-");
  events.length = 0;
});
afterEach(() => sandbox.remove());

const TEMP = /^__z_tmp_[0-9a-f-]{36}$/;
const writesTo = (file: string) =>
  events.filter(
    (e) => e.file === file && (e.op === "writeFile" || (e.op === "open" && e.flags !== "r")),
  );

describe("FsStore atomic writes", () => {
  it("the target only changes by a rename of a complete, flushed temporary file", async () => {
    const store = new FsStore(sandbox.dir);
    const target = path.join(sandbox.dir, "a", "c", "0");
    const old = filled(3 * 1024 * 1024, 1);
    const value = filled(5 * 1024 * 1024 + 1, 2);
    await store.set("a/c/0", old);
    events.length = 0;
    await store.set("a/c/0", value);

    expect(writesTo(target), "the target is never opened for writing").toEqual([]);
    const renames = events.filter((e) => e.op === "rename");
    expect(renames).toHaveLength(1);
    const [rename] = renames;
    expect(rename.to).toBe(target);
    expect(path.dirname(rename.file), "the temporary file is in the same folder").toBe(
      path.dirname(target),
    );
    expect(path.basename(rename.file)).toMatch(TEMP);
    // Just before the rename: the old value is intact, the new one complete and flushed.
    expect(Buffer.from(rename.target!).equals(Buffer.from(old))).toBe(true);
    expect(Buffer.from(rename.source!).equals(Buffer.from(value))).toBe(true);
    const order = events.map((e) => `${e.op}:${e.file === rename.file ? "temp" : e.file}`);
    // A write without a condition takes no lock file and reads nothing.
    expect(order).toEqual(["open:temp", "sync:temp", "rename:temp"]);
  });

  it("a conditional write takes the key's lock file first, then writes the same way", async () => {
    const store = new FsStore(sandbox.dir);
    const target = path.join(sandbox.dir, "a", "c", "0");
    await store.set("a/c/0", filled(10, 1));
    const { version } = (await store.getVersioned("a/c/0"))!;
    events.length = 0;
    await store.set("a/c/0", filled(20, 2), { ifMatch: version });
    const lock = lockPathOf(target);
    const [rename] = events.filter((e) => e.op === "rename");
    const order = events.map(
      (e) => `${e.op}:${e.file === rename.file ? "temp" : e.file === lock ? "lock" : e.file}`,
    );
    // The condition is checked by reading the target under the lock.
    expect(order).toEqual(["open:lock", `open:${target}`, "open:temp", "sync:temp", "rename:temp"]);
    expect(await store.get("a/c/0")).toEqual(filled(20, 2));
  });

  it("with fsync: false, the same sequence without the flush", async () => {
    const store = new FsStore(sandbox.dir, { fsync: false });
    await store.set("k", filled(10, 1));
    expect(events.map((e) => e.op)).toEqual(["open", "rename"]);
    expect(events[0].flags).toBe("wx");
  });

  it("setIfNotExists publishes with a hard link of the complete file, which refuses to replace", async () => {
    const store = new FsStore(sandbox.dir);
    const target = path.join(sandbox.dir, "lock");
    expect(await store.setIfNotExists("lock", filled(1000, 7))).toBe(true);
    const [link] = events.filter((e) => e.op === "link");
    expect([link.to, link.target]).toEqual([target, undefined]);
    expect(Buffer.from(link.source!).equals(Buffer.from(filled(1000, 7)))).toBe(true);
    expect(writesTo(target)).toEqual([]);
    events.length = 0;
    expect(await store.setIfNotExists("lock", filled(5, 8))).toBe(false);
    expect(events.filter((e) => e.op === "rename")).toEqual([]);
    expect(await store.get("lock")).toEqual(filled(1000, 7));
  });
});
