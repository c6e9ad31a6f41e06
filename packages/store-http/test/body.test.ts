import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { errorExcerpt, readBody, readBodySlice } from "../src/body.js";

/** A response whose body arrives in the given pieces, with the given headers. */
function response(pieces: Uint8Array[], headers: Record<string, string> = {}): Response {
  const queue = [...pieces];
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = queue.shift();
      if (next === undefined) controller.close();
      else controller.enqueue(next);
    },
  });
  return new Response(body, { status: 200, headers });
}

/** A value and a random way to cut it into pieces, as a network would deliver it. */
const chunked = fc.uint8Array({ maxLength: 2000 }).chain((value) =>
  fc
    .uniqueArray(fc.integer({ min: 1, max: Math.max(1, value.length - 1) }), { maxLength: 8 })
    .map((cuts) => {
      const bounds = [
        0,
        ...cuts.filter((c) => c < value.length).sort((a, b) => a - b),
        value.length,
      ];
      const pieces = bounds.slice(1).map((end, i) => value.subarray(bounds[i], end));
      return { value, pieces };
    }),
);

const context = (max: number) => ({ method: "GET", url: "http://h/k", max, limitName: "max" });

describe("readBody against a model: the body if it fits its limit and its Content-Length", () => {
  it("without Content-Length", async () => {
    await fc.assert(
      fc.asyncProperty(chunked, fc.nat(2500), async ({ value, pieces }, max) => {
        const read = readBody(response(pieces), context(max));
        if (value.length <= max) expect(await read).toEqual(value);
        else await expect(read).rejects.toMatchObject({ name: "HttpError" });
      }),
    );
  });

  it("with a Content-Length, right or wrong", async () => {
    await fc.assert(
      fc.asyncProperty(
        chunked,
        fc.nat(2500),
        fc.integer({ min: -3, max: 3 }),
        async ({ value, pieces }, max, error) => {
          const declared = Math.max(0, value.length + error);
          const read = readBody(
            response(pieces, { "Content-Length": String(declared) }),
            context(max),
          );
          if (declared === value.length && declared <= max) expect(await read).toEqual(value);
          else await expect(read).rejects.toMatchObject({ name: "HttpError" });
        },
      ),
    );
  });
});

describe("readBodySlice against a model", () => {
  it("gives value[start, end), whatever the pieces", async () => {
    await fc.assert(
      fc.asyncProperty(chunked, fc.nat(2100), fc.nat(200), async ({ value, pieces }, start, n) => {
        const got = await readBodySlice(response(pieces), start, start + n);
        expect(got).toEqual(value.slice(start, start + n));
      }),
    );
  });
});

describe("errorExcerpt", () => {
  it("quotes the start of an error body, reading only the first 4 KiB", async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new TextEncoder().encode(`error   ${"x".repeat(1000)}\n`));
      },
    });
    const excerpt = await errorExcerpt(new Response(body, { status: 500 }));
    expect(excerpt.startsWith("error x")).toBe(true);
    expect(excerpt.length).toBe(201);
    expect(pulled).toBeLessThan(10);
  });
});
