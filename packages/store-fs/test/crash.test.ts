import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { collectKeys } from "@z/store-core";
import { FsStore } from "@z/store-fs";
import { tempDir } from "@z/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildFsStoreForChild } from "./child-build.js";
import { filled, tempFilesUnder, waitForLines } from "./support.js";

const sandbox = tempDir("z-store-fs-crash-");
afterAll(() => sandbox.remove());

/** Size of the value the child rewrites: large enough that a kill lands mid-write. */
const SIZE = 32 * 1024 * 1024;
const ROUNDS = 6;

/**
 * A child that rewrites one key forever, alternating two values, and reports each write:
 * through FsStore, or (the control) with a plain `writeFile` over the target.
 */
const child = (write: string) => `
import { writeFile, mkdir } from "node:fs/promises";
import { FsStore } from ${JSON.stringify("STORE_URL")};
const [root, size] = [process.argv[2], Number(process.argv[3])];
const store = new FsStore(root);
const values = [new Uint8Array(size).fill(1), new Uint8Array(size).fill(2)];
for (let i = 0; ; i++) {
  const value = values[i % 2];
  ${write};
  process.stdout.write("wrote\\n");
}
`;

let scripts: { atomic: string; plain: string };
beforeAll(() => {
  const entry = pathToFileURL(buildFsStoreForChild(path.join(sandbox.dir, "build"))).href;
  const make = (name: string, write: string) => {
    const file = path.join(sandbox.dir, "build", `${name}.mjs`);
    writeFileSync(file, child(write).replace("STORE_URL", entry));
    return file;
  };
  scripts = {
    atomic: make("atomic", 'await store.set("arr/c/0", value)'),
    plain: make("plain", 'await writeFile(root + "/arr/c/0", value)'),
  };
});

/** What a round of "start the writer, let it write a while, SIGKILL it" left in the store. */
interface Outcome {
  length: number;
  /** The byte the value is made of, or "mixed" when it is not one whole write. */
  content: number | "mixed";
  keys: string[];
  tempFiles: number;
}

async function killWhileWriting(script: string, root: string): Promise<Outcome[]> {
  const store = new FsStore(root);
  await store.set("arr/c/0", filled(SIZE, 0));
  const outcomes: Outcome[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const writer = spawn(process.execPath, [script, root, String(SIZE)], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    await waitForLines(writer, "wrote", 1 + (round % 2));
    // Somewhere in a later write (each takes tens of milliseconds).
    await new Promise((resolve) => setTimeout(resolve, 3 + round * 7));
    const exited = new Promise((resolve) => writer.once("exit", resolve));
    writer.kill("SIGKILL");
    await exited;

    const value = (await store.get("arr/c/0"))!;
    const bytes = Buffer.from(value.buffer, value.byteOffset, value.length);
    const whole = value.length > 0 && bytes.equals(Buffer.alloc(value.length, value[0]));
    outcomes.push({
      length: value.length,
      content: whole ? value[0] : "mixed",
      keys: await collectKeys(store.list()),
      tempFiles: tempFilesUnder(root).length,
    });
  }
  return outcomes;
}

describe("FsStore crash safety", () => {
  it("a process killed while writing leaves the old or the new value, never a partial one", async () => {
    const outcomes = await killWhileWriting(scripts.atomic, path.join(sandbox.dir, "atomic.zarr"));
    for (const outcome of outcomes) {
      expect(outcome.length, "full length").toBe(SIZE);
      expect([0, 1, 2], "one whole value").toContain(outcome.content);
      expect(outcome.keys, "temporary files are not listed").toEqual(["arr/c/0"]);
    }
    // The kills did land mid-write: interrupted writes left their temporary files behind.
    expect(outcomes.at(-1)!.tempFiles).toBeGreaterThan(0);
  });

  it("control: the same kills leave partial values behind a plain writeFile", async () => {
    const outcomes = await killWhileWriting(scripts.plain, path.join(sandbox.dir, "plain.zarr"));
    const partial = outcomes.filter((o) => o.length !== SIZE || o.content === "mixed");
    expect(partial.length, JSON.stringify(outcomes)).toBeGreaterThan(0);
  });
});
