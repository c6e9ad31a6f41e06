import { type ChildProcess, spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import * as path from "node:path";
import { FsStore } from "@z/store-fs";
import { tempDir } from "@z/test-utils";
import { afterAll, describe, expect, it } from "vitest";
import { filled } from "./support.js";

/*
 * A whole write takes no lock and reads nothing, but still goes through a temporary file and a
 * rename: a reader in another process (zarr-python, say, which knows nothing of our locks)
 * must never see a partial value. A child process reads the key's file in a loop while this
 * process rewrites it with values of one repeated byte; every read must be a whole value. The
 * control writes in place and must be caught.
 */

const sandbox = tempDir("z-store-fs-torn-");
afterAll(() => sandbox.remove());

const SIZE = 4 * 1024 * 1024;

/** Reads `file` until stdin closes; prints "torn" at the first read that is no whole value. */
const READER = `
const { readFileSync } = require("node:fs");
const [file, size] = [process.argv[1], Number(process.argv[2])];
let open = true, reads = 0;
process.stdin.on("end", () => { open = false; }).resume();
function loop() {
  for (let i = 0; i < 20 && open; i++) {
    let bytes;
    try { bytes = readFileSync(file); } catch { continue; }
    reads++;
    if (bytes.length !== size || bytes[0] !== bytes[bytes.length - 1] || bytes.indexOf(bytes[0] ^ 3) >= 0) {
      process.stdout.write("torn\\n");
      process.exit(0);
    }
  }
  if (open) setImmediate(loop); else process.stdout.write("whole " + reads + "\\n");
}
loop();
`;

/** Runs the reader while `write(i)` rewrites the file; resolves to what the reader said. */
async function raceReader(
  file: string,
  write: (i: number) => Promise<void>,
  until: () => boolean,
): Promise<string> {
  const reader: ChildProcess = spawn(process.execPath, ["-e", READER, file, String(SIZE)], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  let said = "";
  reader.stdout!.on("data", (chunk: Buffer) => {
    said += chunk.toString();
  });
  const exited = new Promise((resolve) => reader.once("exit", resolve));
  for (let i = 0; !until() && !said.includes("torn"); i++) await write(i);
  reader.stdin!.end();
  await exited;
  return said.trim();
}

describe("a reader in another process during whole writes", () => {
  it("never sees a partial value written by FsStore", async () => {
    const store = new FsStore(path.join(sandbox.dir, "atomic"), { fsync: false });
    const values = [filled(SIZE, 1), filled(SIZE, 2)];
    await store.set("arr/c/0", values[0]);
    const file = store.pathOf("arr/c/0");
    const deadline = Date.now() + 3000;
    const said = await raceReader(
      file,
      (i) => store.set("arr/c/0", values[i % 2]),
      () => Date.now() > deadline,
    );
    expect(said).toMatch(/^whole \d+$/);
    // Enough reads that some landed during writes (each write takes about as long as a read).
    expect(Number(said.split(" ")[1])).toBeGreaterThanOrEqual(10);
  }, 30_000);

  it("control: writes in place are caught", async () => {
    const store = new FsStore(path.join(sandbox.dir, "plain"), { fsync: false });
    const values = [filled(SIZE, 1), filled(SIZE, 2)];
    await store.set("arr/c/0", values[0]);
    const file = store.pathOf("arr/c/0");
    const deadline = Date.now() + 20_000;
    const said = await raceReader(
      file,
      (i) => writeFile(file, values[i % 2]),
      () => Date.now() > deadline,
    );
    expect(said).toBe("torn");
  }, 60_000);
});
