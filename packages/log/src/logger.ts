import { LEVEL_RANK, type LogLevel } from "./levels.js";
import { emit } from "./sink-current.js";
import { configVersion, thresholdRank } from "./thresholds.js";

/** A message, or a function that builds it only when the level is on. */
export type LogMessage = string | (() => string);

/**
 * A namespaced logger. Off unless its namespace (or a parent, or `*`) is switched on; the
 * check is a comparison against a cached threshold, so guard expensive messages with
 * {@link Logger.enabled} (or pass a function) and logging costs next to nothing when off.
 */
export class Logger {
  private rank = LEVEL_RANK.off;
  private seen = -1;
  private readonly children = new Map<string, Logger>();

  constructor(
    /** The namespace, e.g. `store:fs`. */
    readonly namespace: string,
  ) {}

  /** Whether messages of this level would be reported now. */
  enabled(level: LogLevel): boolean {
    if (this.seen !== configVersion.generation) this.refresh();
    return LEVEL_RANK[level] >= this.rank;
  }

  private refresh(): void {
    // thresholdRank reads ZARR_LOG on first use, which bumps the version: read it after.
    this.rank = thresholdRank(this.namespace);
    this.seen = configVersion.generation;
  }

  /** Reports a debug message (details: each store request, each chunk decoded). */
  debug(message: LogMessage, fields?: Record<string, unknown>): void {
    this.log("debug", message, fields);
  }

  /** Reports an info message (one per user-visible operation: open, create, read, write). */
  info(message: LogMessage, fields?: Record<string, unknown>): void {
    this.log("info", message, fields);
  }

  /** Reports a warning. */
  warn(message: LogMessage, fields?: Record<string, unknown>): void {
    this.log("warn", message, fields);
  }

  /** The logger of a child namespace (`store` → `store:fs`), created once. */
  child(name: string): Logger {
    let child = this.children.get(name);
    if (child === undefined) {
      child = new Logger(`${this.namespace}:${name}`);
      this.children.set(name, child);
    }
    return child;
  }

  private log(level: LogLevel, message: LogMessage, fields?: Record<string, unknown>): void {
    if (!this.enabled(level)) return;
    emit(level, this.namespace, typeof message === "string" ? message : message(), fields);
  }
}

const loggers = new Map<string, Logger>();

/** The logger of a namespace (`array`, `group`, `store`, `store:fs`, `codec`, ...), created once. */
export function getLogger(namespace: string): Logger {
  let logger = loggers.get(namespace);
  if (logger === undefined) {
    const colon = namespace.lastIndexOf(":");
    logger =
      colon < 0
        ? new Logger(namespace)
        : getLogger(namespace.slice(0, colon)).child(namespace.slice(colon + 1));
    loggers.set(namespace, logger);
  }
  return logger;
}
