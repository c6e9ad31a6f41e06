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
 * Serves folders under URL prefixes on 127.0.0.1 with content types, byte ranges and CORS;
 * with `crossOriginIsolated`, every answer carries the COOP, COEP and CORP headers that make
 * its pages cross-origin isolated (SharedArrayBuffer shared with their workers).
 */
export function startStaticServer(options: {
  mounts: Record<string, string>;
  port?: number;
  host?: string;
  crossOriginIsolated?: boolean;
}): Promise<StaticServer>;
