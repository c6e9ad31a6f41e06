import { createHash } from "node:crypto";
import { link, mkdir, open, readFile, rename, rm, stat } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import path from "node:path";

/** One request the test server answered, as the tests assert on it. */
export interface ServedRequest {
  /** `GET`, `HEAD`, `PUT`, `DELETE`... */
  method: string;
  /** The decoded path below the served root, without the leading `/` (`"a/zarr.json"`). */
  path: string;
  /** The request target as sent (percent-encoded, with the query string). */
  url: string;
  /** The `Range` header as sent, if any (`"bytes=0-99"`). */
  range?: string;
  /** The status answered; 0 when the connection was dropped on purpose. */
  status: number;
  /** Body bytes sent (GET) or received (PUT); headers are not counted. */
  bytes: number;
  /** The request headers, lower-cased names. */
  headers: Record<string, string | string[] | undefined>;
}

/**
 * How the test server behaves. The object stays live: tests may change a field between
 * requests (the counters `failNext` and `dropNext` count down as requests use them up).
 */
export interface TestHttpServerOptions {
  /** The folder served; request path `/a/b` is the file `<root>/a/b`. */
  root: string;
  /**
   * Refuse suffix ranges (`bytes=-n`): `true` answers 416 with `Content-Range: bytes *\/size`,
   * a number answers that status (400, 501...). Other ranges are honoured.
   */
  refuseSuffixRanges?: boolean | number;
  /** Ignore `Range` altogether: every GET answers 200 with the whole file. */
  ignoreRanges?: boolean;
  /** Answer the next N requests with `failStatus` (default 503) before doing anything. */
  failNext?: number;
  /** Status of the failures `failNext` makes (default 503). */
  failStatus?: number;
  /** Drop the connection of the next N requests without answering (a network error). */
  dropNext?: number;
  /** Answer 401 unless this header has this value. */
  requireHeader?: { name: string; value: string };
  /** Status for a missing file (default 404; S3 without list permission answers 403). */
  missingStatus?: number;
  /**
   * Accept PUT (atomic write, `If-None-Match: *` and `If-Match` honoured) and DELETE (`If-Match`
   * honoured). Full GETs carry a strong `ETag` (a hash of the bytes).
   */
  writable?: boolean;
  /** Wait this long before answering each request (to observe concurrency). */
  delayMs?: number;
  /** Answer HEAD with 405, as some object stores and proxies do. */
  refuseHead?: boolean;
  /**
   * Serve other origins (browsers): every answer allows any origin and exposes the range
   * headers; `OPTIONS` preflights are answered (and recorded, so tests can count them) without
   * a cache lifetime, so every request that needs one gets one.
   */
  cors?: boolean;
  /**
   * Paths (below the root) whose requests are never answered: the server holds them until the
   * client gives up or the server stops (a stalled read, for abort tests).
   */
  stall?: readonly string[];
  /** Send `.html` and `.js` files with their content types (a browser runs only such scripts). */
  contentTypes?: boolean;
  /**
   * Answer GETs as object stores do for conditional reads: every 200 and 206 carries the file's
   * `ETag` and `Last-Modified`, and `If-Match` / `If-Unmodified-Since` that fail answer 412.
   */
  conditionalReads?: boolean;
}

/** Content types by file extension, for {@link TestHttpServerOptions.contentTypes}. */
const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
};

/** A running test server. */
export interface TestHttpServer {
  /** Base URL of the served root, ending in `/` (`http://127.0.0.1:40123/`). */
  readonly url: string;
  /** The live options (change them between requests to change the behaviour). */
  readonly options: TestHttpServerOptions;
  /** Every request answered since the start or the last {@link TestHttpServer.reset}. */
  readonly requests: ServedRequest[];
  /** The most requests in flight at once since the start or the last reset. */
  readonly maxInFlight: number;
  /** Body bytes sent since the start or the last reset. */
  readonly bytesSent: number;
  /** Forgets the recorded requests and the in-flight maximum. */
  reset(): void;
  /** Closes the server and every open connection. */
  stop(): Promise<void>;
}

/** What a CORS-enabled test server sends with every answer. */
const CORS_HEADERS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": "Content-Range, Content-Length, ETag, Accept-Ranges",
};
/** The answer to a preflight: everything allowed, nothing cached. */
const CORS_PREFLIGHT_HEADERS = {
  "Access-Control-Allow-Methods": "GET, HEAD, PUT, DELETE",
  "Access-Control-Allow-Headers": "Range, If-Match, If-None-Match, Content-Type, Authorization",
  "Access-Control-Max-Age": "0",
  "Content-Length": 0,
};

/**
 * For {@link TestHttpServerOptions.conditionalReads}: the file's `ETag` and `Last-Modified`,
 * or "failed" when the request's `If-Match` or `If-Unmodified-Since` does not hold.
 */
async function conditionalHeaders(
  file: string,
  headers: Record<string, string | string[] | undefined>,
): Promise<Record<string, string> | "failed"> {
  const [bytes, info] = await Promise.all([readFile(file), stat(file)]);
  const etag = etagOf(bytes);
  const ifMatch = headers["if-match"];
  if (typeof ifMatch === "string" && ifMatch !== "*" && !ifMatch.split(/\s*,\s*/).includes(etag))
    return "failed";
  const since = headers["if-unmodified-since"];
  if (typeof since === "string" && Math.floor(info.mtimeMs / 1000) > Date.parse(since) / 1000)
    return "failed";
  return { ETag: etag, "Last-Modified": info.mtime.toUTCString() };
}

/** A strong ETag from a file's bytes. */
function etagOf(bytes: Uint8Array): string {
  return `"${createHash("sha1").update(bytes).digest("hex")}"`;
}

type ParsedRange = { start: number; end: number } | "unsatisfiable" | "suffix-refused" | undefined;

/** Resolves a single `bytes=` range against a file size; multi-ranges and garbage are ignored. */
function parseRange(
  header: string | undefined,
  size: number,
  options: TestHttpServerOptions,
): ParsedRange {
  if (header === undefined || options.ignoreRanges) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === "" && match[2] === "")) return undefined;
  if (match[1] === "") {
    if (options.refuseSuffixRanges) return "suffix-refused";
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (match[2] !== "" && Number(match[2]) < start) return undefined;
  if (start >= size) return "unsatisfiable";
  return { start, end };
}

/** Maps a request URL to a path under the root, refusing anything that could leave it. */
function resolvePath(url: string): string | undefined {
  const pathname = url.split("?")[0];
  let segments: string[];
  try {
    segments = pathname.split("/").slice(1).map(decodeURIComponent);
  } catch {
    return undefined;
  }
  if (
    segments.some(
      (s) =>
        s === "" ||
        s === "." ||
        s === ".." ||
        s.includes("/") ||
        s.includes("\\") ||
        s.includes("\0"),
    )
  ) {
    return undefined;
  }
  return segments.join("/");
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function fileSize(file: string): Promise<number | undefined> {
  const info = await stat(file).catch(() => undefined);
  return info?.isFile() ? info.size : undefined;
}

/**
 * Starts a static file server on 127.0.0.1 (an ephemeral port) serving `options.root`, with
 * single and suffix `Range` support and switches for the misbehaviours an HTTP store must
 * survive (refused suffix ranges, ignored ranges, 503s, dropped connections, a required
 * header). It records every request (method, path, range, status, body bytes) so tests can
 * assert how many requests an operation cost. Stop it with {@link TestHttpServer.stop}.
 */
export async function startTestHttpServer(options: TestHttpServerOptions): Promise<TestHttpServer> {
  const root = path.resolve(options.root);
  const requests: ServedRequest[] = [];
  const sockets = new Set<Socket>();
  let inFlight = 0;
  let maxInFlight = 0;
  let bytesSent = 0;
  let tmpCounter = 0;

  const contentTypeOf = (file: string) =>
    (options.contentTypes && CONTENT_TYPES[path.extname(file)]) || "application/octet-stream";
  const writing = new Map<string, Promise<void>>();
  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const method = request.method ?? "GET";
    const rangeHeader = request.headers.range;
    const record: ServedRequest = {
      method,
      path: "",
      url: request.url ?? "/",
      range: rangeHeader,
      status: 0,
      bytes: 0,
      headers: { ...request.headers },
    };
    requests.push(record);
    const finish = (
      status: number,
      headers: Record<string, string | number> = {},
      body?: Uint8Array,
    ) => {
      record.status = status;
      const sent = body && method !== "HEAD" ? body : undefined;
      record.bytes += sent?.length ?? 0;
      bytesSent += sent?.length ?? 0;
      const cors = options.cors ? CORS_HEADERS : {};
      response.writeHead(status, { "Accept-Ranges": "bytes", ...cors, ...headers });
      response.end(sent);
    };

    if (options.cors && method === "OPTIONS") return finish(204, CORS_PREFLIGHT_HEADERS);
    if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
    if (options.dropNext && options.dropNext > 0) {
      options.dropNext--;
      request.socket.destroy();
      return;
    }
    if (options.failNext && options.failNext > 0) {
      options.failNext--;
      return finish(options.failStatus ?? 503, { "Content-Length": 0 });
    }
    if (options.requireHeader) {
      const got = request.headers[options.requireHeader.name.toLowerCase()];
      if (got !== options.requireHeader.value) return finish(401, { "Content-Length": 0 });
    }
    const relative = resolvePath(request.url ?? "/");
    if (relative === undefined) return finish(400, { "Content-Length": 0 });
    record.path = relative;
    if (options.stall?.includes(relative)) return; // answered never; stop() closes the socket
    const file = path.join(root, ...relative.split("/"));
    const missing = () => finish(options.missingStatus ?? 404, { "Content-Length": 0 });

    if (method === "PUT" || method === "DELETE") {
      if (!options.writable) return finish(405, { "Content-Length": 0 });
      // Writes of one file run one at a time, so an If-Match check and its write are atomic.
      const previous = writing.get(file) ?? Promise.resolve();
      let done!: () => void;
      const mine = new Promise<void>((resolve) => {
        done = resolve;
      });
      writing.set(file, mine);
      await previous;
      try {
        return await write();
      } finally {
        done();
        if (writing.get(file) === mine) writing.delete(file);
      }
    }
    async function write(): Promise<void> {
      const body = method === "PUT" ? await readBody(request) : new Uint8Array();
      record.bytes = body.length;
      const ifMatch = request.headers["if-match"];
      if (ifMatch !== undefined) {
        const current = await readFile(file).catch(() => undefined);
        if (current === undefined || etagOf(current) !== ifMatch)
          return finish(412, { "Content-Length": 0 });
      }
      if (method === "DELETE") {
        const size = await fileSize(file);
        if (size === undefined) return missing();
        await rm(file, { force: true });
        return finish(204);
      }
      if (request.headers["if-none-match"] === "*" && (await fileSize(file)) !== undefined) {
        return finish(412, { "Content-Length": 0 });
      }
      await mkdir(path.dirname(file), { recursive: true });
      const temp = `${file}.__upload_${process.pid}_${tmpCounter++}`;
      const handle = await open(temp, "wx");
      await handle.writeFile(body);
      await handle.close();
      if (request.headers["if-none-match"] === "*") {
        // Publish exclusively: a concurrent conditional PUT of the same key loses.
        const won = await link(temp, file).then(
          () => true,
          () => false,
        );
        await rm(temp, { force: true });
        return finish(won ? 201 : 412, { "Content-Length": 0 });
      }
      await rename(temp, file);
      return finish(201, { "Content-Length": 0 });
    }
    if (method !== "GET" && method !== "HEAD") return finish(405, { "Content-Length": 0 });
    if (method === "HEAD" && options.refuseHead) return finish(405, { "Content-Length": 0 });

    const size = await fileSize(file);
    if (size === undefined) return missing();
    if (method === "HEAD") {
      return finish(200, { "Content-Length": size, "Content-Type": contentTypeOf(file) });
    }
    const conditional = options.conditionalReads
      ? await conditionalHeaders(file, request.headers)
      : {};
    if (conditional === "failed") return finish(412, { "Content-Length": 0 });
    const range = parseRange(rangeHeader, size, options);
    if (range === "suffix-refused") {
      const status = options.refuseSuffixRanges === true ? 416 : Number(options.refuseSuffixRanges);
      return finish(status, { "Content-Range": `bytes */${size}`, "Content-Length": 0 });
    }
    if (range === "unsatisfiable") {
      return finish(416, { "Content-Range": `bytes */${size}`, "Content-Length": 0 });
    }
    if (range === undefined) {
      const body = await readFile(file);
      return finish(
        200,
        {
          "Content-Length": body.length,
          "Content-Type": contentTypeOf(file),
          ETag: etagOf(body),
          ...conditional,
        },
        body,
      );
    }
    const length = range.end - range.start + 1;
    const body = Buffer.alloc(length);
    const handle = await open(file, "r");
    try {
      await handle.read(body, 0, length, range.start);
    } finally {
      await handle.close();
    }
    return finish(
      206,
      {
        "Content-Range": `bytes ${range.start}-${range.end}/${size}`,
        "Content-Length": length,
        "Content-Type": "application/octet-stream",
        ...conditional,
      },
      body,
    );
  };

  const server: Server = createServer((request, response) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    response.on("close", () => inFlight--);
    handle(request, response).catch((error: Error) => {
      if (!response.headersSent) response.writeHead(500, { "Content-Length": 0 });
      response.end();
      console.error(`[test http server] ${error.message}`);
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/`,
    options,
    requests,
    get maxInFlight() {
      return maxInFlight;
    },
    get bytesSent() {
      return bytesSent;
    },
    reset() {
      requests.length = 0;
      maxInFlight = inFlight;
      bytesSent = 0;
    },
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
