/**
 * The `zarr` command line tool: `info`, `tree`, `get`, `copy`, `rechunk`, `consolidate`,
 * `migrate` and `compare` for Zarr v2 and v3 data. Its functions are exported too, so the commands can run
 * inside another program.
 * @packageDocumentation
 */
export { type CompareOptions, compareCommand } from "./commands/compare.js";
export * from "./commands/consolidate.js";
export {
  type CopyOptions,
  type CopySummary,
  type CopyTuning,
  copyCommand,
} from "./commands/copy.js";
export { COMPRESSOR_CHOICES, type CompressorChoice } from "./commands/copy-codecs.js";
export { type GetOptions, getCommand } from "./commands/get.js";
export { type InfoOptions, infoCommand } from "./commands/info.js";
export { type LogEntry, type LogOptions, logCommand } from "./commands/log.js";
export { type MigrateOptions, type MigrateSummary, migrateCommand } from "./commands/migrate.js";
export { type RechunkOptions, rechunkCommand } from "./commands/rechunk.js";
export { type TreeCommandOptions, type TreeJson, treeCommand } from "./commands/tree.js";
export * from "./copy/copy-option-error.js";
export type { WriteCounts } from "./copy/counting-store.js";
export type { CopyChanges } from "./copy/plan.js";
export { UsageError } from "./errors.js";
export * from "./main.js";
export * from "./migrate/migration-error.js";
export type { ArrayJson, GroupJson } from "./node-json.js";
export * from "./output.js";
export * from "./stats/stats-errors.js";
export * from "./version.js";
