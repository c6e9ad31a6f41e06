import { AbortError, throwIfAborted } from "@z/store-core";
import { backoffDelay, HttpError, type RetryInfo } from "@z/store-http";
import { sleep } from "@z/store-http/internal";
import { uriEncode } from "./sigv4.js";

/** The largest bucket-level answer read (a listing page of 1000 keys is well under 1 MiB). */
const MAX_ANSWER_BYTES = 64 * 2 ** 20;

/** An answer of a bucket-level request, its body read as text. */
export interface BucketAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/** How bucket-level requests are retried. */
export interface BucketClientOptions {
  retries: number;
  retryDelay: number;
  maxRetryDelay: number;
  onRetry?: (info: RetryInfo) => void;
}

/** Whether S3 asks to come back later: 5xx (503 SlowDown among them) or 429, not 501/505. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599 && status !== 501 && status !== 505);
}

/**
 * Requests on the bucket itself (ListObjectsV2, DeleteObjects): signed by the store's fetch,
 * retried with backoff on throttling, 5xx and network errors, their answers read as bounded text.
 */
export class BucketClient {
  constructor(
    readonly bucketUrl: string,
    readonly fetch: typeof globalThis.fetch,
    readonly options: BucketClientOptions,
  ) {}

  /** Sends `method` to the bucket URL with the query `query`; the final answer, any status. */
  async request(
    method: string,
    query: Record<string, string>,
    init: { body?: Uint8Array; headers?: Record<string, string>; signal?: AbortSignal } = {},
  ): Promise<BucketAnswer> {
    const search = Object.entries(query)
      .map(([name, value]) =>
        value === "" ? uriEncode(name) : `${uriEncode(name)}=${uriEncode(value)}`,
      )
      .join("&");
    const url = search === "" ? this.bucketUrl : `${this.bucketUrl}?${search}`;
    for (let attempt = 0; ; attempt++) {
      throwIfAborted(init.signal);
      let failure: { status: number; detail: string; cause?: unknown };
      try {
        const response = await this.fetch(url, {
          method,
          headers: init.headers,
          body: init.body as RequestInit["body"],
          signal: init.signal,
        });
        const declared = Number(response.headers.get("content-length") ?? 0);
        if (declared > MAX_ANSWER_BYTES) {
          await response.body?.cancel();
          throw new HttpError(
            method,
            url,
            response.status,
            `an answer of ${declared} bytes is larger than ${MAX_ANSWER_BYTES}`,
          );
        }
        const text = await response.text();
        if (!isRetryableStatus(response.status))
          return { status: response.status, headers: response.headers, text };
        failure = {
          status: response.status,
          detail: `${response.status} ${errorCode(text)}`.trim(),
        };
      } catch (error) {
        if (init.signal?.aborted) throw new AbortError(init.signal.reason);
        if (error instanceof HttpError) throw error;
        failure = { status: 0, detail: `network error: ${(error as Error).message}`, cause: error };
      }
      if (attempt >= this.options.retries) {
        throw new HttpError(
          method,
          url,
          failure.status,
          `${failure.detail} (gave up after ${attempt + 1} attempts)`,
          {
            cause: failure.cause,
          },
        );
      }
      const delayMs = backoffDelay(attempt, this.options.retryDelay, this.options.maxRetryDelay);
      this.options.onRetry?.({
        method,
        url: this.bucketUrl,
        attempt: attempt + 1,
        delayMs,
        status: failure.status || undefined,
        error: failure.cause,
      });
      await sleep(delayMs, init.signal);
    }
  }

  /** The error for an answer that is not a success. */
  failure(method: string, answer: BucketAnswer, what: string): HttpError {
    return new HttpError(
      method,
      this.bucketUrl,
      answer.status,
      `${what}: ${answer.status} ${errorCode(answer.text)}`.trim(),
    );
  }
}

/** `Code: Message` of an S3 XML error body, or the start of the body. */
export function errorCode(text: string): string {
  const code = xmlText(text, "Code");
  const message = xmlText(text, "Message");
  if (code) return message ? `${code}: ${message}` : code;
  return text.slice(0, 300);
}

/** The text of the first `<tag>` element in `xml`, entities decoded; undefined when absent. */
export function xmlText(xml: string, tag: string): string | undefined {
  const match = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(xml);
  return match ? decodeXmlEntities(match[1]!) : undefined;
}

/** Every `<tag>` element's inner XML, in order. */
export function xmlElements(xml: string, tag: string): string[] {
  return [...xml.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, "g"))].map((m) => m[1]!);
}

/** Decodes XML's five named entities and numeric character references. */
export function decodeXmlEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, entity: string) => {
    switch (entity.toLowerCase()) {
      case "amp":
        return "&";
      case "lt":
        return "<";
      case "gt":
        return ">";
      case "quot":
        return '"';
      case "apos":
        return "'";
    }
    const code =
      entity[1] === "x" || entity[1] === "X"
        ? Number.parseInt(entity.slice(2), 16)
        : Number(entity.slice(1));
    return String.fromCodePoint(code);
  });
}

/** Escapes text for an XML element. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
