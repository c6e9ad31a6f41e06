import type { ChildProcess } from "node:child_process";
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import * as path from "node:path";

/**
 * Everything under `dir` as `relative path -> content` (`<dir>` for folders, `-> target` for
 * symlinks, which are not followed), to compare a whole folder tree before and after.
 */
export function treeOf(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  if (!existsSync(dir)) return out;
  const visit = (current: string) => {
    for (const name of readdirSync(current).sort()) {
      const full = path.join(current, name);
      const relative = path.relative(dir, full).split(path.sep).join("/");
      const stats = lstatSync(full);
      if (stats.isSymbolicLink()) out.set(relative, `-> ${readlinkSync(full)}`);
      else if (stats.isDirectory()) {
        out.set(relative, "<dir>");
        visit(full);
      } else out.set(relative, readFileSync(full).toString("base64"));
    }
  };
  visit(dir);
  return out;
}

/** Names of FsStore temporary files anywhere under `dir`. */
export function tempFilesUnder(dir: string): string[] {
  return [...treeOf(dir).keys()].filter((p) => path.basename(p).startsWith("__z_tmp_"));
}

/** A value of `length` bytes all equal to `byte`, to tell whole values apart at a glance. */
export function filled(length: number, byte: number): Uint8Array {
  return new Uint8Array(length).fill(byte);
}

/**
 * Resolves once a child process has printed `line` (a whole line of its stdout) `count` times;
 * rejects if it exits first. Crash tests kill writers at the moments these lines mark.
 */
export function waitForLines(child: ChildProcess, line: string, count: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = 0;
    child.stdout!.on("data", (chunk: Buffer) => {
      seen += chunk
        .toString()
        .split("\n")
        .filter((printed) => printed === line).length;
      if (seen >= count) resolve();
    });
    child.once("exit", (code) => reject(new Error(`child exited early with ${code}`)));
  });
}
