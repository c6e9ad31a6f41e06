/** A running static server. */
export interface StaticServer {
  /** `http://127.0.0.1:<port>/` */
  url: string;
  /** The port it listens on. */
  port: number;
  /** Stops it, dropping open connections. */
  close(): Promise<void>;
}

/** One request the server received; its fields fill in as the answer goes out. */
export interface ServedRecord {
  /** `GET`, `HEAD`, `OPTIONS`... */
  method: string;
  /** The URL path as sent (percent-encoded, without the query). */
  path: string;
  /** The `Range` header, if any. */
  range: string | undefined;
  /** The status answered (0 until the answer is sent, or when it never was). */
  status: number;
  /** Body bytes handed to the connection. */
  bytes: number;
  /** Whether the client closed the connection before the answer was complete. */
  aborted: boolean;
}

/**
 * Serves folders under URL prefixes on 127.0.0.1 with content types, byte ranges and CORS;
 * with `crossOriginIsolated`, every answer carries the COOP, COEP and CORP headers that make
 * its pages cross-origin isolated (SharedArrayBuffer shared with their workers). `log`
 * receives every request's record; `delay` holds an answer back that many milliseconds.
 */
export function startStaticServer(options: {
  mounts: Record<string, string>;
  port?: number;
  host?: string;
  crossOriginIsolated?: boolean;
  log?: (record: ServedRecord) => void;
  delay?: (urlPath: string) => number;
}): Promise<StaticServer>;
