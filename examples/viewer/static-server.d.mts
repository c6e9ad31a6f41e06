/** A running static server. */
export interface StaticServer {
  /** `http://127.0.0.1:<port>/` */
  url: string;
  /** The port it listens on. */
  port: number;
  /** Stops it, dropping open connections. */
  close(): Promise<void>;
}

/**
 * Serves folders under URL prefixes on 127.0.0.1 with content types, byte ranges and CORS.
 */
export function startStaticServer(options: {
  mounts: Record<string, string>;
  port?: number;
  host?: string;
}): Promise<StaticServer>;
