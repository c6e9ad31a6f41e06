import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { isZarrError } from "@z/store-core";
import { HttpError, HttpStore, type HttpStoreOptions } from "@z/store-http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** 1.1 GiB: more than the default maxBodyBytes, never allocated, only streamed. */
const HUGE = Math.round(1.1 * 2 ** 30);
const PIECE = new Uint8Array(64 * 1024).map((_, i) => i % 251);

type Handler = (request: IncomingMessage, response: ServerResponse) => void | Promise<void>;

let server: Server;
let base: string;
const sockets = new Set<Socket>();
/** Body bytes each path's handler managed to write before the client went away. */
const sent = new Map<string, number>();
const routes = new Map<string, Handler>();

/**
 * Streams `total` bytes of the repeating pattern (byte i is i % 251 within each 64 KiB piece),
 * honouring backpressure and stopping as soon as the client cancels.
 */
async function stream(path: string, response: ServerResponse, total: number): Promise<void> {
  let written = 0;
  sent.set(path, 0);
  while (written < total && !response.destroyed) {
    const piece = PIECE.subarray(0, Math.min(PIECE.length, total - written));
    written += piece.length;
    sent.set(path, written);
    if (!response.write(piece)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          response.off("drain", done);
          response.off("close", done);
          resolve();
        };
        response.on("drain", done);
        response.on("close", done);
      });
    }
  }
  if (!response.destroyed) response.end();
}

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = (request.url ?? "/").split("?")[0].slice(1);
    const handler = routes.get(path);
    if (!handler) {
      response.writeHead(404, { "Content-Length": 0 }).end();
      return;
    }
    Promise.resolve(handler(request, response)).catch(() => response.destroy());
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => server.close(resolve));
});

function store(options: HttpStoreOptions = {}): HttpStore {
  return new HttpStore(base, { retryDelay: 1, retries: 1, onWarning: () => {}, ...options });
}

/** What `call` rejected with; it must be an HttpError naming `path` in its URL and message. */
async function httpError(path: string, call: () => Promise<unknown>): Promise<HttpError> {
  const error = await call().then(
    (value) => expect.fail(`expected an HttpError, got ${String(value).slice(0, 80)}`),
    (e: unknown) => e,
  );
  expect(isZarrError(error), String(error)).toBe(true);
  expect(error).toBeInstanceOf(HttpError);
  const httpError = error as HttpError;
  expect(httpError.url).toBe(base + path);
  expect(httpError.message).toContain(base + path);
  return httpError;
}

function rssGrowthDuring<T>(call: () => Promise<T>): Promise<{ result: T; growth: number }> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  return call().then(
    (result) => {
      clearInterval(timer);
      peak = Math.max(peak, process.memoryUsage().rss);
      return { result, growth: peak - before };
    },
    (error) => {
      clearInterval(timer);
      throw error;
    },
  );
}

const MB = 2 ** 20;

describe("HttpStore bounds every body it reads", () => {
  it("a Content-Length above maxBodyBytes fails before the body is read", async () => {
    routes.set("cl-huge", (_request, response) => {
      response.writeHead(200, { "Content-Length": HUGE });
      return stream("cl-huge", response, HUGE);
    });
    const { result: error, growth } = await rssGrowthDuring(() =>
      httpError("cl-huge", () => store().get("cl-huge")),
    );
    expect(error.message).toContain(`${HUGE} bytes (Content-Length)`);
    expect(error.message).toContain("maxBodyBytes");
    expect(growth).toBeLessThan(100 * MB);
    expect(sent.get("cl-huge")).toBeLessThan(HUGE / 10);
  });

  it("a streamed body without Content-Length is cut off once it passes maxBodyBytes", async () => {
    routes.set("chunked-huge", (_request, response) => {
      response.writeHead(200, { "Content-Type": "application/octet-stream" });
      return stream("chunked-huge", response, HUGE);
    });
    const { result: error, growth } = await rssGrowthDuring(() =>
      httpError("chunked-huge", () => store({ maxBodyBytes: 8 * MB }).get("chunked-huge")),
    );
    expect(error.message).toContain("longer than maxBodyBytes");
    expect(growth).toBeLessThan(100 * MB);
    expect(sent.get("chunked-huge")).toBeLessThan(HUGE / 10);
  });

  it("a body within the limit reads whole, with or without Content-Length", async () => {
    const value = new Uint8Array(300_000).map((_, i) => (i % 65_536) % 251);
    routes.set("fine-cl", (_request, response) => {
      response.writeHead(200, { "Content-Length": value.length });
      return stream("fine-cl", response, value.length);
    });
    routes.set("fine-chunked", (_request, response) => {
      response.writeHead(200);
      return stream("fine-chunked", response, value.length);
    });
    expect(await store({ maxBodyBytes: value.length }).get("fine-cl")).toEqual(value);
    expect(await store({ maxBodyBytes: value.length }).get("fine-chunked")).toEqual(value);
    await httpError("fine-chunked", () =>
      store({ maxBodyBytes: value.length - 1 }).get("fine-chunked"),
    );
  });

  it("a server that ignores Range: a bounded range is read up to its end, then cancelled", async () => {
    routes.set("ignores-range", (_request, response) => {
      response.writeHead(200);
      return stream("ignores-range", response, HUGE);
    });
    const warnings: string[] = [];
    const s = store({ onWarning: (m) => warnings.push(m) });
    const { result: part, growth } = await rssGrowthDuring(() =>
      s.get("ignores-range", { range: { offset: 70_000, length: 100 } }),
    );
    expect(part).toEqual(PIECE.subarray(70_000 - PIECE.length, 70_100 - PIECE.length));
    expect(growth).toBeLessThan(100 * MB);
    expect(sent.get("ignores-range")).toBeLessThan(HUGE / 10);
    expect(warnings).toHaveLength(1);
    // A suffix needs the whole value: bounded by maxBodyBytes.
    const suffix = await httpError("ignores-range", () =>
      store({ maxBodyBytes: 8 * MB }).get("ignores-range", { range: { suffix: 10 } }),
    );
    expect(suffix.message).toContain("maxBodyBytes");
    // A range ending past maxBodyBytes would download too much: refused at once.
    const far = await httpError("ignores-range", () =>
      store().get("ignores-range", { range: { offset: 2 ** 31, length: 10 } }),
    );
    expect(far.message).toContain("ignored Range");
    expect(sent.get("ignores-range")).toBeLessThan(HUGE / 10);
  });

  it("a 206 body longer than the range asked for is cut off", async () => {
    routes.set("long-206", (_request, response) => {
      response.writeHead(206); // no Content-Range, no Content-Length
      return stream("long-206", response, HUGE);
    });
    const { result: error, growth } = await rssGrowthDuring(() =>
      httpError("long-206", () => store().get("long-206", { range: { offset: 0, length: 100 } })),
    );
    expect(error.message).toContain("the 100 bytes asked for");
    expect(growth).toBeLessThan(100 * MB);
    expect(sent.get("long-206")).toBeLessThan(HUGE / 10);
  });

  it("a huge error page costs a few KiB: the message quotes its start", async () => {
    routes.set("error-page", (_request, response) => {
      response.writeHead(403, { "Content-Type": "text/html" });
      response.write("<html><body><h1>Access denied</h1> because reasons ");
      return stream("error-page", response, 100 * MB);
    });
    const error = await httpError("error-page", () => store().get("error-page"));
    expect(error.status).toBe(403);
    expect(error.message).toContain("Access denied");
    expect(error.detail.length).toBeLessThan(300);
    expect(sent.get("error-page")).toBeLessThan(20 * MB);
  });
});

describe("HttpStore with broken servers: a typed error naming the URL", () => {
  const answer =
    (
      status: number,
      headers: Record<string, string | number>,
      body: Uint8Array = new Uint8Array(0),
    ) =>
    (_request: IncomingMessage, response: ServerResponse) => {
      response.writeHead(status, headers).end(body);
    };

  it("statuses that are not a value: 204, 206 to a plain GET, 3xx not followed, 418", async () => {
    routes.set("no-content", answer(204, {}));
    routes.set(
      "partial-unasked",
      answer(206, { "Content-Range": "bytes 0-1/2" }, Uint8Array.of(1, 2)),
    );
    routes.set("moved", answer(302, { Location: `${base}elsewhere`, "Content-Length": 0 }));
    routes.set("teapot", answer(418, { "Content-Length": 5 }, new TextEncoder().encode("steep")));
    expect((await httpError("no-content", () => store().get("no-content"))).status).toBe(204);
    expect((await httpError("partial-unasked", () => store().get("partial-unasked"))).status).toBe(
      206,
    );
    const manual = store({ fetchOptions: { redirect: "manual" } });
    expect((await httpError("moved", () => manual.get("moved"))).status).toBe(302);
    const teapot = await httpError("teapot", () => store().get("teapot"));
    expect(teapot).toMatchObject({ status: 418, detail: expect.stringContaining("steep") });
  });

  it("a 206 whose Content-Range is not the range asked for", async () => {
    const ten = new Uint8Array(10).fill(7);
    const cases: [string, Record<string, string | number>, Uint8Array, string][] = [
      ["cr-start", { "Content-Range": "bytes 5-14/100" }, ten, "got bytes 5-14/100"],
      ["cr-short", { "Content-Range": "bytes 10-14/100" }, ten.subarray(0, 5), "got bytes 10-14"],
      ["cr-past", { "Content-Range": "bytes 10-19/15" }, ten, "ends past the value"],
      ["cr-garbage", { "Content-Range": "pages 1-2" }, ten, "malformed Content-Range"],
      [
        "cr-body",
        { "Content-Range": "bytes 10-19/100", "Content-Length": 5 },
        ten.subarray(0, 5),
        "a body of 5 bytes",
      ],
      ["cr-more", { "Content-Range": "bytes 10-59/100" }, new Uint8Array(50), "got bytes 10-59"],
    ];
    for (const [path, headers, body, message] of cases) {
      routes.set(path, answer(206, headers, body));
      const error = await httpError(path, () =>
        store().get(path, { range: { offset: 10, length: 10 } }),
      );
      expect(error.message, path).toContain(message);
    }
    // The same checks hold for suffix ranges: bytes=-10 of a 100-byte value is 90-99.
    routes.set("cr-suffix", answer(206, { "Content-Range": "bytes 80-89/100" }, ten));
    const suffix = await httpError("cr-suffix", () =>
      store().get("cr-suffix", { range: { suffix: 10 } }),
    );
    expect(suffix.message).toContain("got bytes 80-89/100");
    // And a right answer passes.
    routes.set("cr-right", answer(206, { "Content-Range": "bytes 90-99/100" }, ten));
    expect(await store().get("cr-right", { range: { suffix: 10 } })).toEqual(ten);
  });

  it("a connection reset mid-body is a network error, retried, then an HttpError", async () => {
    let attempts = 0;
    routes.set("reset", (_request, response) => {
      attempts++;
      response.writeHead(200, { "Content-Length": 1000 });
      response.write(new Uint8Array(500));
      setImmediate(() => response.socket?.destroy());
    });
    const error = await httpError("reset", () => store({ retries: 2 }).get("reset"));
    expect(error.status).toBe(0);
    expect(error.message).toContain("gave up after 3 attempts");
    expect(attempts).toBe(3);
  });

  it("a body that disagrees with its Content-Length (through a custom fetch)", async () => {
    const respond = (length: number, declared: number) => () =>
      Promise.resolve(
        new Response(new Uint8Array(length), {
          status: 200,
          headers: { "Content-Length": String(declared) },
        }),
      );
    const short = await httpError("k", () => store({ fetch: respond(5, 10) }).get("k"));
    expect(short.message).toContain("ended after 5 of 10 bytes");
    const long = await httpError("k", () => store({ fetch: respond(20, 10) }).get("k"));
    expect(long.message).toContain("longer than its Content-Length of 10 bytes");
  });

  it("a server that stalls: the timeout option gives up, the caller's signal aborts", async () => {
    const stalled: ServerResponse[] = [];
    routes.set("stall-headers", (_request, response) => {
      stalled.push(response); // never answers
    });
    routes.set("stall-body", (_request, response) => {
      response.writeHead(200, { "Content-Length": 100 });
      response.write(new Uint8Array(10)); // then nothing
      stalled.push(response);
    });
    try {
      for (const path of ["stall-headers", "stall-body"]) {
        const error = await httpError(path, () => store({ timeout: 200 }).get(path));
        expect(error.status).toBe(0);
        expect(error.message).toContain("no complete answer within 200 ms");
        const aborted = await store()
          .get(path, { signal: AbortSignal.timeout(200) })
          .then(
            () => expect.fail("expected an abort"),
            (e: unknown) => e,
          );
        expect(aborted).toMatchObject({ name: "AbortError" });
        expect(isZarrError(aborted)).toBe(true);
      }
    } finally {
      for (const response of stalled) response.destroy();
    }
  });
});

describe("HttpStore calls fetch as a plain function", () => {
  it("works with a fetch that throws 'Illegal invocation' when called as a method", async () => {
    routes.set("plain", answer200(Uint8Array.of(1, 2, 3)));
    const calls: unknown[] = [];
    const strictFetch = function (
      this: unknown,
      input: RequestInfo | URL,
      init?: RequestInit,
    ): Promise<Response> {
      calls.push(this);
      // What browsers do when window.fetch runs with `this` bound to another object.
      if (this !== undefined && this !== globalThis) throw new TypeError("Illegal invocation");
      return fetch(input, init);
    };
    const s = store({ fetch: strictFetch as typeof fetch });
    expect(await s.get("plain")).toEqual(Uint8Array.of(1, 2, 3));
    expect(await s.get("plain", { range: { offset: 1, length: 1 } })).toEqual(Uint8Array.of(2));
    expect(await s.has("plain")).toBe(true);
    expect(calls.length).toBe(3);
  });
});

function answer200(body: Uint8Array): Handler {
  return (request, response) => {
    const range = /^bytes=(\d+)-(\d+)$/.exec(request.headers.range ?? "");
    if (range) {
      const [start, end] = [Number(range[1]), Number(range[2])];
      const part = body.subarray(start, end + 1);
      response
        .writeHead(206, {
          "Content-Range": `bytes ${start}-${start + part.length - 1}/${body.length}`,
          "Content-Length": part.length,
        })
        .end(part);
      return;
    }
    response.writeHead(200, { "Content-Length": body.length });
    response.end(request.method === "HEAD" ? undefined : body);
  };
}
