import { getLogLevel, type LogSink, setLogger, setLogLevel } from "@z/zarr";
import type { Output } from "./output.js";

/**
 * Turns on logging for one run of `zarr`: `-v` shows every namespace at info, `-vv` at debug
 * (on top of `ZARR_LOG`, whose namespace-specific settings still win), and log lines go to
 * the run's standard error. Returns the function that restores the settings from before, so
 * running `main` inside another program leaves its logging as it was.
 */
export function startLogging(output: Output, verbose: number): () => void {
  const line = (message: string) => output.err(`${message}\n`);
  const sink: LogSink = { debug: line, info: line, warn: line };
  const previousSink = setLogger(sink);
  const previousLevel = getLogLevel("*");
  if (verbose > 0) setLogLevel("*", verbose > 1 ? "debug" : "info");
  return () => {
    setLogger(previousSink);
    if (verbose > 0) setLogLevel("*", previousLevel);
  };
}
