/**
 * The `zarr` command line tool: `info`, `tree`, `get`, `copy` and `consolidate` for Zarr v2 and
 * v3 data. Its functions are exported too, so the commands can run inside another program.
 * @packageDocumentation
 */
export * from "./args.js";
export * from "./commands/consolidate.js";
export * from "./commands/copy.js";
export * from "./commands/copy-codecs.js";
export * from "./commands/get.js";
export * from "./commands/info.js";
export * from "./commands/tree.js";
export * from "./copy/copy-option-error.js";
export * from "./copy/plan.js";
export * from "./errors.js";
export * from "./float-digits.js";
export * from "./help.js";
export * from "./json-values.js";
export * from "./location.js";
export * from "./logging.js";
export * from "./main.js";
export * from "./node-json.js";
export * from "./numpy-format.js";
export * from "./numpy-print.js";
export * from "./output.js";
export * from "./pretty-json.js";
export * from "./progress.js";
export * from "./version.js";
