import { nameErrorClass } from "@z/errors";
import { StoreError } from "@z/store-core";
import { redactUrl } from "./redact-url.js";

declare module "@z/errors" {
  interface ZarrErrorMap {
    HttpError: HttpError;
  }
}

/**
 * An HTTP request that failed: a status that is neither success nor "missing", a server that
 * kept failing after every retry, or an answer the store cannot make sense of. The URL in the
 * message has its query string removed.
 * @category Errors
 */
export class HttpError extends StoreError {
  static {
    nameErrorClass(HttpError, "HttpError");
  }
  /** The last status received; 0 when the request never got an answer (network error). */
  readonly status: number;
  /** The method of the request. */
  readonly method: string;
  /** The URL of the request, query string removed. */
  readonly url: string;
  /** What went wrong, without the method and URL (`"503 Service Unavailable"`). */
  readonly detail: string;

  constructor(
    method: string,
    url: string,
    status: number,
    detail: string,
    options?: { cause?: unknown },
  ) {
    const where = `${method} ${redactUrl(url)}`;
    super(`${where}: ${detail}`, options);
    this.method = method;
    this.url = redactUrl(url);
    this.status = status;
    this.detail = detail;
  }
}
