/**
 * Namespaced logging for the `@z` packages: `array`, `group`, `store` (with one child per
 * store kind: `store:fs`, `store:http`, `store:zip`, ...) and `codec`. Everything is off by
 * default; switch namespaces on with `ZARR_LOG=store,codec:info` in the environment or
 * {@link setLogLevel}, and send messages anywhere with {@link setLogger}.
 * @packageDocumentation
 */
export * from "./config.js";
export type { LogLevel, LogThreshold } from "./levels.js";
export * from "./log-spec.js";
export * from "./logger.js";
export * from "./sink.js";
