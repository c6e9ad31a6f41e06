import { HttpError } from "./http-error.js";

/** The request a body answers, for error messages. */
export interface BodyContext {
  /** The request method. */
  method: string;
  /** The request URL. */
  url: string;
  /**
   * The most bytes the caller can use: the length of a range, or `maxBodyBytes`. A longer body
   * is an error, found before it is buffered (by Content-Length) or as soon as it grows past.
   */
  max: number;
  /** What `max` is, for messages ("the 100 bytes asked for", "maxBodyBytes (1 GiB)"). */
  limitName: string;
}

/**
 * The body length the server announced, when it can be checked against the body: not when
 * the body is content-encoded (fetch decodes it; Content-Length counts the encoded bytes).
 */
export function declaredLength(response: Response): number | undefined {
  const encoding = response.headers.get("content-encoding");
  if (encoding !== null && encoding.trim().toLowerCase() !== "identity") return undefined;
  const header = response.headers.get("content-length");
  if (header === null || !/^\s*\d+\s*$/.test(header)) return undefined;
  const length = Number(header);
  return Number.isSafeInteger(length) ? length : undefined;
}

function bodyError(response: Response, context: BodyContext, detail: string): HttpError {
  return new HttpError(context.method, context.url, response.status, detail);
}

/**
 * Reads a whole body into fresh memory, never more than `context.max` bytes: a Content-Length
 * above the limit fails before a byte is read, and a body that grows past the limit (or past
 * its Content-Length) is cancelled at that point. A body shorter than its Content-Length is an
 * error too. With a Content-Length the bytes go straight into one buffer of that size.
 * @throws HttpError when the body is too long or cut short
 */
export async function readBody(response: Response, context: BodyContext): Promise<Uint8Array> {
  const declared = declaredLength(response);
  if (declared !== undefined && declared > context.max) {
    await discardBody(response);
    throw bodyError(
      response,
      context,
      `the body is ${declared} bytes (Content-Length), more than ${context.limitName}`,
    );
  }
  if (response.body === null) {
    if (declared !== undefined && declared > 0)
      throw bodyError(response, context, `no body, but Content-Length ${declared}`);
    return new Uint8Array(0);
  }
  const cap = declared ?? context.max;
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  const whole = declared !== undefined ? new Uint8Array(declared) : undefined;
  let total = 0;
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (total + value.length > cap) {
        throw bodyError(
          response,
          context,
          declared !== undefined
            ? `the body is longer than its Content-Length of ${declared} bytes`
            : `the body is longer than ${context.limitName}`,
        );
      }
      if (whole) whole.set(value, total);
      else chunks.push(value);
      total += value.length;
    }
    finished = true;
  } finally {
    if (!finished) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
  if (declared !== undefined && total < declared) {
    throw bodyError(response, context, `the body ended after ${total} of ${declared} bytes`);
  }
  return whole ?? concat(chunks, total);
}

function concat(chunks: readonly Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/**
 * Reads bytes `start` to `end` (exclusive) of a body and cancels the rest of the transfer, for
 * a server that answered a range request with the whole value. The bytes before `start` are
 * dropped as they pass, so memory stays at `end - start`; the transfer itself is bounded by
 * the caller, who checks `end` against its limit first. A body that ends early gives what it had.
 */
export async function readBodySlice(
  response: Response,
  start: number,
  end: number,
): Promise<Uint8Array> {
  const out = new Uint8Array(Math.max(0, end - start));
  if (response.body === null) return out.subarray(0, 0);
  const reader = response.body.getReader();
  let position = 0;
  let filled = 0;
  try {
    while (position < end) {
      const { done, value } = await reader.read();
      if (done) break;
      const from = Math.max(start, position);
      const to = Math.min(end, position + value.length);
      if (to > from) {
        out.set(value.subarray(from - position, to - position), filled);
        filled += to - from;
      }
      position += value.length;
    }
  } finally {
    if (position >= end) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
  return out.subarray(0, filled);
}

/** Drops a body we do not need, so the connection can be reused. */
export async function discardBody(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => {});
}

/** The most bytes of an error body read for its message; the rest is never downloaded. */
export const ERROR_EXCERPT_BYTES = 4096;

/**
 * A short excerpt of an error body (S3 and GCS explain errors there), for error messages: at
 * most {@link ERROR_EXCERPT_BYTES} are read, then the transfer is cancelled, so a 100 MB error
 * page costs 4 KiB. A body that fails to arrive gives an empty excerpt.
 */
export async function errorExcerpt(response: Response): Promise<string> {
  if (response.body === null) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    while (total < ERROR_EXCERPT_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value.subarray(0, ERROR_EXCERPT_BYTES - total));
      total += Math.min(value.length, ERROR_EXCERPT_BYTES - total);
    }
  } catch {
    // The excerpt is a courtesy: the status already says what went wrong.
  } finally {
    await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
  const text = new TextDecoder().decode(concat(chunks, total));
  const squeezed = text.replace(/\s+/g, " ").trim();
  return squeezed.length > 200 ? `${squeezed.slice(0, 200)}…` : squeezed;
}
