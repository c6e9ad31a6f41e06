import { replaceSink } from "./sink-current.js";

/**
 * Where log messages go: any object with `debug`, `info` and `warn` methods (`console`, pino,
 * winston, a test's collector). Each call gets the formatted line and the message's fields
 * (`namespace` plus whatever the message carries: key, bytes, duration, ...).
 */
export interface LogSink {
  /** Receives a debug message. */
  debug(message: string, fields?: Record<string, unknown>): void;
  /** Receives an info message. */
  info(message: string, fields?: Record<string, unknown>): void;
  /** Receives a warning. */
  warn(message: string, fields?: Record<string, unknown>): void;
}

/**
 * Sends every log message to `sink` from now on; `undefined` restores the default (standard
 * error in Node, the console elsewhere).
 * @returns the sink set before, to restore it later
 */
export function setLogger(sink: LogSink | undefined): LogSink | undefined {
  return replaceSink(sink);
}
