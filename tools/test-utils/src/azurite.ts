import { type ChildProcess, spawn } from "node:child_process";
import { createHmac } from "node:crypto";
import { createRequire } from "node:module";
import path from "node:path";
import { repositoryRoot } from "./fixtures.js";
import { tempDir } from "./temp.js";

/** Azurite's well-known dev account (public; it only opens the local emulator). */
const AZURITE_ACCOUNT_NAME = "devstoreaccount1";
const AZURITE_ACCOUNT_KEY =
  "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

/** A running Azurite blob service. */
export interface Azurite {
  /** The blob endpoint of the dev account (`http://127.0.0.1:<port>/devstoreaccount1`). */
  endpoint: string;
  /** A connection string for the dev account. */
  connectionString: string;
  /** Stops the server and removes its data folder. */
  stop(): Promise<void>;
}

/**
 * The path of the `azurite-blob` entry script of the azurite package (a devDependency of
 * @z/store-azure, where it is installed).
 */
function azuriteBlobScript(): string {
  const require = createRequire(path.join(repositoryRoot, "packages/store-azure/package.json"));
  const manifest = require.resolve("azurite/package.json");
  const bin = (require(manifest) as { bin: Record<string, string> }).bin["azurite-blob"];
  return path.join(path.dirname(manifest), bin);
}

/**
 * Starts Azurite's blob service on 127.0.0.1 (a port the system picks) with a fresh data
 * folder, and waits until it listens. It runs on the Node running the tests, or on the one
 * `AZURITE_NODE` names (for a Node release the pinned Azurite does not run on).
 */
export async function startAzurite(): Promise<Azurite> {
  const data = tempDir("z-azurite-");
  const child: ChildProcess = spawn(
    process.env.AZURITE_NODE || process.execPath,
    [
      azuriteBlobScript(),
      "--blobHost",
      "127.0.0.1",
      "--blobPort",
      "0",
      "--location",
      data.dir,
      "--skipApiVersionCheck",
      "--disableTelemetry",
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  const port = await new Promise<number>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /successfully listens on http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`azurite-blob exited (${code}): ${output}`)));
    child.once("error", reject);
  });
  const endpoint = `http://127.0.0.1:${port}/${AZURITE_ACCOUNT_NAME}`;
  return {
    endpoint,
    connectionString:
      `DefaultEndpointsProtocol=http;AccountName=${AZURITE_ACCOUNT_NAME};` +
      `AccountKey=${AZURITE_ACCOUNT_KEY};BlobEndpoint=${endpoint};`,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      data.remove();
    },
  };
}

/**
 * An account SAS (version 2019-12-12) for the blob service, signed with `key`: what the Azure
 * SDKs' `generateAccountSasQueryParameters` makes, written out so the test needs no SDK.
 */
export function accountSas(options: { key?: string; permissions?: string; expiry?: Date }): string {
  const version = "2019-12-12";
  const permissions = options.permissions ?? "rwdlc";
  const expiry = (options.expiry ?? new Date(Date.now() + 3600_000))
    .toISOString()
    .replace(/\.\d+Z$/, "Z");
  const text = [
    AZURITE_ACCOUNT_NAME,
    permissions,
    "b",
    "sco",
    "",
    expiry,
    "",
    "http,https",
    version,
    "",
  ].join("\n");
  const signature = createHmac("sha256", Buffer.from(options.key ?? AZURITE_ACCOUNT_KEY, "base64"))
    .update(text, "utf8")
    .digest("base64");
  return new URLSearchParams({
    sv: version,
    ss: "b",
    srt: "sco",
    sp: permissions,
    se: expiry,
    spr: "http,https",
    sig: signature,
  }).toString();
}
