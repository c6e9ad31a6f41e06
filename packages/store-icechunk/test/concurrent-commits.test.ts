import { spawn } from "node:child_process";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { createRepository, openRepository } from "@z/store-icechunk";
import { radosgwMissing, startRadosgw, type TestS3Server, tempDir } from "@z/test-utils";
import { createGroup, openArray } from "@z/zarr";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { committedValue, type StoreSpec, storeOf } from "./processes/committer.js";

/*
 * Several `node` processes commit to one branch of one repository in a folder at the same
 * moment: each commit lands or fails with IcechunkConflictError, never half; with rebase, all
 * land one after the other.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const runTs = path.join(here, "../../array/test/processes/run-ts.mjs");
const WRITERS = 4;
const sandbox = tempDir("z-icechunk-commits-");
afterAll(() => sandbox.remove());

type Outcome = { landed: string } | { conflict: string };

/** Starts the committers, lets them all commit at once, and collects their outcomes. */
async function race(spec: StoreSpec, rebase: boolean): Promise<Outcome[]> {
  const children = Array.from({ length: WRITERS }, (_, i) =>
    spawn(
      process.execPath,
      [
        runTs,
        path.join(here, "processes/committer.ts"),
        JSON.stringify(spec),
        String(i),
        rebase ? "rebase" : "",
      ],
      { stdio: ["pipe", "pipe", "inherit"] },
    ),
  );
  const outputs = children.map((child) => {
    let text = "";
    child.stdout.setEncoding("utf8");
    const ready = new Promise<void>((resolve) =>
      child.stdout.on("data", (chunk: string) => {
        text += chunk;
        if (text.includes("ready\n")) resolve();
      }),
    );
    const done = new Promise<string>((resolve, reject) =>
      child.once("exit", (code) =>
        code === 0 ? resolve(text) : reject(new Error(`committer exited with ${code}`)),
      ),
    );
    return { ready, done };
  });
  await Promise.all(outputs.map((o) => o.ready));
  for (const child of children) child.stdin.write("go\n");
  const texts = await Promise.all(outputs.map((o) => o.done));
  return texts.map((t) => JSON.parse(t.split("\n").filter(Boolean).at(-1) as string));
}

async function checkRepository(spec: StoreSpec, outcomes: Outcome[], base: string) {
  const repo = await openRepository(storeOf(spec));
  const landed = outcomes.flatMap((o, i) => ("landed" in o ? [[i, o.landed] as const] : []));
  const history = (await repo.ancestry({ branch: "main" })).map((s) => s.id);
  // The landed commits and nothing else sit on top of the base, each once.
  expect(new Set(history.slice(0, landed.length))).toEqual(new Set(landed.map(([, id]) => id)));
  expect(history[landed.length]).toBe(base);
  const store = (await repo.readonlySession({ branch: "main" })).store;
  for (let i = 0; i < WRITERS; i++) {
    const mine = landed.find(([w]) => w === i);
    if (mine === undefined) {
      await expect(openArray(store, { path: `w${i}` })).rejects.toThrow();
      continue;
    }
    const data = (await (await openArray(store, { path: `w${i}` })).get(null)).data as Int32Array;
    expect(Array.from(data)).toEqual(Array.from({ length: 256 }, (_, k) => committedValue(i, k)));
  }
  return landed.length;
}

/** Both races on one store: plain commits (one lands), then commits with rebase (all land). */
function races(spec: (name: string) => StoreSpec) {
  it(`${WRITERS} committers at once: each lands or conflicts, none half-applied`, async () => {
    const where = spec("plain");
    const repo = await createRepository(storeOf(where));
    const s = await repo.writableSession({ branch: "main" });
    await createGroup(s.store);
    const base = await s.commit("root");
    const outcomes = await race(where, false);
    const conflicts = outcomes.filter((o) => "conflict" in o).length;
    const landed = await checkRepository(where, outcomes, base);
    expect(landed + conflicts).toBe(WRITERS);
    // All started from the same snapshot, so exactly one can move the branch from it.
    expect(landed).toBe(1);
  }, 180_000);

  it(`${WRITERS} committers at once with rebase: all land`, async () => {
    const where = spec("rebase");
    const repo = await createRepository(storeOf(where));
    const s = await repo.writableSession({ branch: "main" });
    await createGroup(s.store);
    const base = await s.commit("root");
    const outcomes = await race(where, true);
    expect(outcomes.filter((o) => "landed" in o)).toHaveLength(WRITERS);
    expect(await checkRepository(where, outcomes, base)).toBe(WRITERS);
  }, 180_000);
}

describe("concurrent commits from several processes on a folder", () => {
  races((name) => ({ kind: "fs", root: path.join(sandbox.dir, `${name}.icechunk`) }));
});

const missing = radosgwMissing();
describe.skipIf(missing !== undefined)(
  `concurrent commits from several processes on S3 (radosgw${missing ? `, skipped: ${missing}` : ""})`,
  () => {
    let server: TestS3Server;
    beforeAll(async () => {
      server = await startRadosgw();
      await server.createBucket("icechunk");
    }, 180_000);
    afterAll(async () => server?.stop());
    races((name) => ({
      kind: "s3",
      url: `s3://icechunk/${name}`,
      endpoint: server.endpoint,
      accessKeyId: server.accessKeyId,
      secretAccessKey: server.secretAccessKey,
    }));
  },
);
