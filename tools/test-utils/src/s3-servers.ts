/// <reference path="./s3rver.d.ts" />
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { tempDir } from "./temp.js";

/** A local S3 server started by a test, with the keys it accepts. */
export interface TestS3Server {
  /** `http://127.0.0.1:<port>`. */
  endpoint: string;
  /** Keys the server accepts. */
  accessKeyId: string;
  secretAccessKey: string;
  /** Whether the server checks SigV4 signatures (Ceph RGW does; s3rver does not). */
  checksSignatures: boolean;
  /** Whether the server honours `If-Match` / `If-None-Match: *` on PUT. */
  conditionalWrites: boolean;
  /** Creates a bucket. */
  createBucket(name: string): Promise<void>;
  /** Stops the server and removes its files. */
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1 (asked of the OS, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * s3rver (npm) on 127.0.0.1 in a temporary folder. It speaks the S3 protocol but checks only
 * that the access key id is `S3RVER` (no SigV4 check), ignores `If-Match` / `If-None-Match` on
 * PUT, and answers suffix ranges `bytes=-n` from the wrong end.
 */
export async function startS3rver(): Promise<TestS3Server> {
  const { default: S3rver } = await import("s3rver");
  const sandbox = tempDir("z-s3rver-");
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory: sandbox.dir,
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
    checksSignatures: false,
    conditionalWrites: false,
    // s3rver takes an unsigned PUT of a bucket as its creation.
    createBucket: async (name) => {
      const response = await fetch(`${endpoint}/${name}`, { method: "PUT" });
      if (!response.ok) throw new Error(`s3rver: creating bucket ${name}: ${response.status}`);
    },
    stop: async () => {
      await server.close();
      sandbox.remove();
    },
  };
}

const CEPH_BINARIES = ["ceph-mon", "ceph-osd", "radosgw", "radosgw-admin", "monmaptool", "ceph"];

/** Why Ceph's radosgw cannot be started here, or undefined when its programs are installed. */
export function radosgwMissing(): string | undefined {
  const missing = CEPH_BINARIES.filter(
    (name) => !["/usr/bin", "/usr/sbin"].some((dir) => existsSync(path.join(dir, name))),
  );
  return missing.length === 0
    ? undefined
    : `Ceph is not installed (missing ${missing.join(", ")}; apt-get install radosgw ceph-mon ceph-osd)`;
}

async function waitFor(
  what: string,
  check: () => Promise<boolean>,
  ms: number,
  logs: string[],
): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  const tails = logs.map((file) => {
    const text = existsSync(file) ? readFileSync(file, "utf8") : "(no log)";
    return `--- ${path.basename(file)}\n${text.split("\n").slice(-15).join("\n")}`;
  });
  throw new Error(
    `Ceph test cluster: ${what} did not come up within ${ms} ms\n${tails.join("\n")}`,
  );
}

/**
 * A one-node Ceph cluster (a monitor, one OSD on memstore, no authentication between daemons)
 * with a radosgw on 127.0.0.1, all in a temporary folder, started in the foreground as child
 * processes of this one and killed by `stop`. radosgw checks SigV4 signatures (a wrong key gets
 * 403 SignatureDoesNotMatch) and honours `If-Match` / `If-None-Match: *` on PUT. Ceph 16
 * (Debian 12) has no standalone `dbstore` backend, hence the small cluster.
 */
export async function startRadosgw(): Promise<TestS3Server> {
  const why = radosgwMissing();
  if (why) throw new Error(why);
  // The cluster comes up in about 12 s; now and then radosgw waits on its pools much longer
  // (seen in about one start in five under load): a fresh cluster is then quicker than waiting.
  const failures: unknown[] = [];
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await startCephOnce();
    } catch (error) {
      failures.push(error);
    }
  }
  throw new Error(`Ceph test cluster: 3 starts failed:\n${failures.map(String).join("\n\n")}`);
}

async function startCephOnce(): Promise<TestS3Server> {
  const sandbox = tempDir("z-radosgw-");
  const dir = sandbox.dir;
  for (const sub of ["mon", "osd0", "run", "log", "rgw"]) mkdirSync(path.join(dir, sub));
  const [monPort, rgwPort] = [await freePort(), await freePort()];
  const fsid = crypto.randomUUID();
  const conf = path.join(dir, "ceph.conf");
  writeFileSync(
    conf,
    `[global]
fsid = ${fsid}
mon host = 127.0.0.1:${monPort}
auth cluster required = none
auth service required = none
auth client required = none
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
mon allow pool size one = true
mon warn on pool no redundancy = false
osd objectstore = memstore
memstore device bytes = 1073741824
osd data = ${dir}/osd$id
mon data = ${dir}/mon
run dir = ${dir}/run
log file = ${dir}/log/$name.log
admin socket = ${dir}/run/$name.asok
public addr = 127.0.0.1
ms bind ipv6 = false
osd crush chooseleaf type = 0
[client.rgw]
rgw frontends = beast endpoint=127.0.0.1:${rgwPort}
rgw data = ${dir}/rgw
`,
  );
  const c = ["-c", conf];
  const run = (program: string, args: string[]) =>
    execFileSync(program, [...c, ...args], { stdio: "pipe", timeout: 60_000 }).toString();
  const children: ChildProcess[] = [];
  const daemon = (program: string, args: string[]) => {
    const child = spawn(program, [...c, "-f", ...args], { stdio: "ignore" });
    children.push(child);
    return child;
  };
  const stop = async () => {
    for (const child of children.reverse()) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGKILL");
      await exited;
    }
    sandbox.remove();
  };
  try {
    execFileSync(
      "monmaptool",
      [
        "--create",
        "--addv",
        "a",
        `[v1:127.0.0.1:${monPort}]`,
        "--fsid",
        fsid,
        path.join(dir, "monmap"),
      ],
      { stdio: "pipe" },
    );
    execFileSync(
      "ceph-authtool",
      [
        "--create-keyring",
        path.join(dir, "mon.keyring"),
        "--gen-key",
        "-n",
        "mon.",
        "--cap",
        "mon",
        "allow *",
      ],
      { stdio: "pipe" },
    );
    run("ceph-mon", [
      "--mkfs",
      "-i",
      "a",
      "--monmap",
      path.join(dir, "monmap"),
      "--keyring",
      path.join(dir, "mon.keyring"),
    ]);
    daemon("ceph-mon", ["-i", "a"]);
    const osd = run("ceph", ["--connect-timeout", "30", "osd", "create"]).trim();
    run("ceph-osd", ["-i", osd, "--mkfs"]);
    daemon("ceph-osd", ["-i", osd]);
    daemon("radosgw", ["-n", "client.rgw"]);
    const endpoint = `http://127.0.0.1:${rgwPort}`;
    const logs = ["client.rgw.log", "mon.a.log", `osd.${osd}.log`].map((f) =>
      path.join(dir, "log", f),
    );
    await waitFor("radosgw", async () => (await fetch(endpoint)).ok, 45_000, logs);
    const accessKeyId = "ZTESTKEY";
    const secretAccessKey = "ztest-secret-key";
    run("radosgw-admin", [
      "user",
      "create",
      "--uid=tester",
      "--display-name=tester",
      `--access-key=${accessKeyId}`,
      `--secret-key=${secretAccessKey}`,
    ]);
    const server: TestS3Server = {
      endpoint,
      accessKeyId,
      secretAccessKey,
      checksSignatures: true,
      conditionalWrites: true,
      createBucket: async (name) => {
        const { S3Store } = await import("@z/store-s3");
        const store = new S3Store(`s3://${name}`, {
          endpoint,
          credentials: { accessKeyId, secretAccessKey },
        });
        // A signed PUT of the bucket URL creates the bucket.
        await store.createBucket();
      },
      stop,
    };
    return server;
  } catch (error) {
    await stop();
    throw error;
  }
}
