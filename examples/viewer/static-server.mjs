// A tiny static file server for the viewer: serves folders under URL prefixes on 127.0.0.1,
// with the content types browsers insist on for module scripts and workers, single byte
// ranges (sharded arrays and zip files read ranges) and CORS, so other pages may read the data.
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { createServer } from "node:http";
import path from "node:path";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".wasm": "application/wasm",
  ".png": "image/png",
  ".svg": "image/svg+xml",
};

/** The file a URL path names under one of the mounts, or undefined (never outside a root). */
function resolveFile(mounts, urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  const prefixes = Object.keys(mounts).sort((a, b) => b.length - a.length);
  for (const prefix of prefixes) {
    if (!decoded.startsWith(prefix)) continue;
    const root = path.resolve(mounts[prefix]);
    const file = path.resolve(root, `.${path.posix.sep}${decoded.slice(prefix.length)}`);
    if (file !== root && !file.startsWith(root + path.sep)) return undefined;
    return file;
  }
  return undefined;
}

/** `bytes=a-b`, `bytes=a-` or `bytes=-n` against a size: [start, end] inclusive, or null. */
function parseRange(header, size) {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === "" && match[2] === "")) return null;
  if (match[1] === "") {
    const n = Number(match[2]);
    return n === 0 ? null : [Math.max(0, size - n), size - 1];
  }
  const start = Number(match[1]);
  const end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  return start > end || start >= size ? null : [start, end];
}

/**
 * What a cross-origin isolated page needs (SharedArrayBuffer, and sharing it with its workers):
 * the page and its workers opt in with COOP and COEP, and every file it loads may be embedded
 * (CORP; CORS covers the other origins' fetches).
 */
const ISOLATION = {
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Embedder-Policy": "require-corp",
  "Cross-Origin-Resource-Policy": "cross-origin",
};

/**
 * Starts the server. `mounts` maps URL prefixes (ending in `/`) to folders; a path ending in
 * `/` serves its `index.html`. `crossOriginIsolated` sends every answer with the headers that
 * make its pages cross-origin isolated. `log` receives a record of every request (path,
 * range, status, body bytes handed to the connection, and whether the client went away first); `delay`
 * holds a request's answer for that many milliseconds (a slow network, so that reads are still
 * under way when a client aborts them). Resolves to `{ url, port, close() }`.
 * @param {{ mounts: Record<string, string>, port?: number, host?: string, crossOriginIsolated?: boolean, log?: (record: import("./static-server.d.mts").ServedRecord) => void, delay?: (urlPath: string) => number }} options
 */
export async function startStaticServer({
  mounts,
  port = 0,
  host = "127.0.0.1",
  crossOriginIsolated = false,
  log,
  delay,
}) {
  const server = createServer(async (request, response) => {
    const urlPath = new URL(request.url ?? "/", "http://localhost").pathname;
    const record = {
      method: request.method ?? "GET",
      path: urlPath,
      range: request.headers.range,
      status: 0,
      bytes: 0,
      aborted: false,
    };
    // The client went away before the answer was complete (an aborted fetch closes its socket).
    response.on("close", () => {
      record.status = response.headersSent ? response.statusCode : 0;
      if (!response.writableFinished) record.aborted = true;
    });
    log?.(record);
    const wait = delay?.(urlPath) ?? 0;
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if (record.aborted || response.destroyed) return;
    const common = {
      "Access-Control-Allow-Origin": "*",
      "Access-Control-Allow-Headers": "Range",
      "Access-Control-Expose-Headers": "Content-Range, Content-Length",
      ...(crossOriginIsolated ? ISOLATION : {}),
    };
    if (request.method === "OPTIONS") {
      response.writeHead(204, common).end();
      return;
    }
    const file = resolveFile(mounts, urlPath.endsWith("/") ? `${urlPath}index.html` : urlPath);
    const info = file ? await stat(file).catch(() => undefined) : undefined;
    if (!file || !info?.isFile()) {
      response.writeHead(404, { ...common, "Content-Length": 0 }).end();
      return;
    }
    const type = TYPES[path.extname(file)] ?? "application/octet-stream";
    const headers = { ...common, "Content-Type": type, "Accept-Ranges": "bytes" };
    const range = request.headers.range ? parseRange(request.headers.range, info.size) : undefined;
    if (range === null) {
      response.writeHead(416, { ...headers, "Content-Range": `bytes */${info.size}` }).end();
      return;
    }
    const [start, end] = range ?? [0, info.size - 1];
    const length = info.size === 0 ? 0 : end - start + 1;
    response.writeHead(range ? 206 : 200, {
      ...headers,
      "Content-Length": length,
      ...(range ? { "Content-Range": `bytes ${start}-${end}/${info.size}` } : {}),
    });
    if (request.method === "HEAD" || length === 0) {
      response.end();
      return;
    }
    const stream = createReadStream(file, { start, end });
    stream.on("data", (chunk) => {
      record.bytes += chunk.length;
    });
    stream.pipe(response);
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  const actual = server.address().port;
  return {
    url: `http://${host}:${actual}/`,
    port: actual,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
