// The current sink and `emit`: private to the @z packages. sink.ts holds the public side, which the
// package entry re-exports whole.
import type { LogLevel } from "./levels.js";
import type { LogSink } from "./sink.js";

type ErrorStream = { write(text: string): unknown };

/**
 * The default sink: one line per message on standard error in Node (so logging never mixes
 * into a program's standard output, which `console.debug` and `console.info` would), the
 * console's matching method elsewhere.
 */
function defaultSink(): LogSink {
  const stderr = (globalThis as { process?: { stderr?: ErrorStream } }).process?.stderr;
  if (stderr && typeof stderr.write === "function") {
    const write = (message: string) => {
      stderr.write(`${message}\n`);
    };
    return { debug: write, info: write, warn: write };
  }
  return {
    debug: (message) => console.debug(message),
    info: (message) => console.info(message),
    warn: (message) => console.warn(message),
  };
}

let current: LogSink | undefined;

/** Makes `sink` the current sink (`undefined`: the default); returns the one set before. */
export function replaceSink(sink: LogSink | undefined): LogSink | undefined {
  const previous = current;
  current = sink;
  return previous;
}

/** The sink messages go to now. */
export function currentSink(): LogSink {
  current ??= defaultSink();
  return current;
}

/** Passes one message to the current sink (the logger has already checked its level). */
export function emit(
  level: LogLevel,
  namespace: string,
  message: string,
  fields?: Record<string, unknown>,
): void {
  const line = `zarr:${namespace} ${level} ${message}`;
  const sink = currentSink();
  if (fields === undefined) sink[level](line, { namespace });
  else sink[level](line, { namespace, ...fields });
}
