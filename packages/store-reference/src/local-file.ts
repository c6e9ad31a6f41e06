import {
  type ByteRange,
  resolveRange,
  throwIfAborted,
  UnsupportedOperationError,
} from "@z/store-core";

type FsPromises = typeof import("node:fs/promises");

/**
 * Node's `fs/promises`, reached through `process.getBuiltinModule` rather than an import, so
 * this package loads in browsers and bundlers see no Node built-in.
 */
function nodeFs(path: string): FsPromises {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const fs = proc?.getBuiltinModule?.("node:fs/promises") as FsPromises | undefined;
  if (!fs) {
    throw new UnsupportedOperationError(
      `Cannot read the local file ${JSON.stringify(path)}: local files are read only in Node.js (pass a resolve option elsewhere)`,
    );
  }
  return fs;
}

/**
 * Reads a local file, or a range of it clipped to its size; undefined when it does not exist.
 * Memory is bounded by the file: a range longer than the file allocates only what is there.
 */
export async function readLocalFile(
  path: string,
  range: ByteRange | undefined,
  signal: AbortSignal | undefined,
): Promise<Uint8Array | undefined> {
  throwIfAborted(signal);
  const fs = nodeFs(path);
  let handle: Awaited<ReturnType<FsPromises["open"]>>;
  try {
    handle = await fs.open(path, "r");
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw error;
  }
  try {
    const { size } = await handle.stat();
    const [start, end] = range === undefined ? [0, size] : resolveRange(range, size);
    const out = new Uint8Array(end - start);
    let done = 0;
    while (done < out.length) {
      throwIfAborted(signal);
      const { bytesRead } = await handle.read(out, done, out.length - done, start + done);
      if (bytesRead === 0) break; // the file shrank meanwhile
      done += bytesRead;
    }
    return done === out.length ? out : out.slice(0, done);
  } finally {
    await handle.close();
  }
}
