import type { OptionSpec } from "./args.js";
import { COMPARE_OPTION_SPECS, COMPARE_SPEC } from "./compare/compare-help.js";
import { MIGRATE_OPTION_SPECS, MIGRATE_SPEC } from "./migrate/migrate-help.js";
import { RECHUNK_HELP, RECHUNK_OPTIONS, RECHUNK_USAGE } from "./rechunk/rechunk-help.js";
import { STATS_HELP } from "./stats/stats-help.js";

/** One `zarr` command: how it is called, what it does, which options it takes. */
export interface CommandSpec {
  /** The synopsis line(s) after `zarr`. */
  usage: string;
  /** One line for the command list. */
  summary: string;
  /** The command's `--help` text after the synopsis. */
  details: string;
  /** The options it accepts (the global ones are always accepted). */
  options: readonly string[];
}

/** Every option any command takes, and the global ones (`--help`, `--version`, `--verbose`). */
export const OPTIONS: Readonly<Record<string, OptionSpec>> = {
  path: { type: "string" },
  select: { type: "string" },
  json: { type: "boolean" },
  format: { type: "string" },
  compressor: { type: "string" },
  chunks: { type: "string" },
  overwrite: { type: "boolean" },
  "chunk-bytes": { type: "string" },
  shards: { type: "string" },
  "max-memory": { type: "string" },
  stats: { type: "boolean" },
  bins: { type: "string" },
  ref: { type: "string" },
  message: { type: "string" },
  ...MIGRATE_OPTION_SPECS,
  ...COMPARE_OPTION_SPECS,
  help: { type: "boolean", short: "h" },
  version: { type: "boolean" },
  verbose: { type: "boolean", short: "v" },
};

/** Options every command accepts. */
export const GLOBAL_OPTIONS = ["help", "version", "verbose"] as const;

const LOCATION = `<location> is a directory holding a Zarr hierarchy (v2 or v3), a .zip file of one, an
http(s) URL of either (read-only), or a bucket location s3://bucket/path or gs://bucket/path
(keys from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, AWS_REGION, AWS_ENDPOINT_URL; for gs://
GOOGLE_OAUTH_TOKEN or GOOGLE_ACCESS_KEY_ID / GOOGLE_SECRET_ACCESS_KEY). icechunk+<location>
(icechunk+file:///data/repo, icechunk+https://host/repo, icechunk+s3://bucket/prefix) reads
the Icechunk repository there at branch main, or at --ref NAME (a branch, a tag or a snapshot
id, tried in that order).`;

/** The commands, by name. */
export const COMMANDS: Readonly<Record<string, CommandSpec>> = {
  info: {
    usage: "info <location> [--path P] [--json] [--stats [--bins N]] [--ref R]",
    summary: "the node's metadata, summarised",
    details: `Prints the metadata of the array or group at --path (default the root) as a table, or
with --json as one JSON object (fields in the CLI README).

${STATS_HELP}

${LOCATION}`,
    options: ["path", "ref", "json", "stats", "bins"],
  },
  tree: {
    usage: "tree <location> [--path P] [--ref R] [--json]",
    summary: "the hierarchy with shapes, dtypes, chunking",
    details: `Draws the hierarchy below --path (default the root), or with --json prints it as one
JSON object of nested nodes (fields in the CLI README). A node that cannot be opened shows its
error and the rest still prints.

${LOCATION}`,
    options: ["path", "ref", "json"],
  },
  get: {
    usage: "get <location> [--path P] [--ref R] [--select SEL] [--json]",
    summary: "the selected values, printed like NumPy or as JSON",
    details: `Reads the selection SEL of the array at --path and prints it the way NumPy prints an
array (arrays of more than 1000 elements are summarised with "...", reading only the
elements shown), or with --json as one JSON object:
{"shape": [...], "dtype": ..., "fill_value": ..., "values": [...flattened in C order...]}.

SEL is NumPy-style, one item per axis: "0:10,::-1,3" ("..." and ":" allowed); negative
numbers count from the end: --select -1,2:5 or --select=-1,2:5.

${LOCATION}`,
    options: ["path", "ref", "select", "json"],
  },
  copy: {
    usage: `copy <src> <dst> [--path P] [--ref R] [--format 2|3]
       [--compressor none|gzip|zstd|blosc] [--chunks a,b,c] [--overwrite] [--json]
       [--message M]`,
    summary: "rewrite an array or a hierarchy",
    details: `Copies the node at --path (default the whole hierarchy) from <src> to <dst>, optionally
converting the format, compressor and chunk shape. An existing node at the destination is
replaced only with --overwrite. Every option is checked against every source array before
anything is written. The copy ends with a summary line (nodes, chunks, bytes) on standard
error; with --json, standard output gets the same counts as one JSON object.

<src> is a location as below; <dst> is a directory, a new .zip file or a bucket location.
<dst> may be icechunk+<location>: the copy is written to branch main of the Icechunk
repository there (created when missing) and committed once at the end, with --message M
(default "zarr copy <src>"); a copy that fails commits nothing.
${LOCATION}`,
    options: ["path", "ref", "format", "compressor", "chunks", "overwrite", "json", "message"],
  },
  rechunk: {
    usage: RECHUNK_USAGE,
    summary: "rewrite with new chunks, shards or codecs in bounded memory",
    details: `${RECHUNK_HELP}

<src> is a location as below; <dst> is a directory, a new .zip file or a bucket location.
${LOCATION}`,
    options: RECHUNK_OPTIONS,
  },
  log: {
    usage: "log <icechunk location> [--ref R] [--json]",
    summary: "the snapshots of an Icechunk branch, newest first",
    details: `Lists the history of branch main of the Icechunk repository (or of the branch, tag or
snapshot --ref names), newest first, back to the repository's first snapshot: one line each
of the snapshot id, the commit time (UTC) and the message, or with --json one JSON array of
{"id", "time", "message"}.

<icechunk location> is icechunk+ and the repository's location: icechunk+file:///data/repo,
icechunk+path/to/repo, icechunk+https://host/repo, icechunk+s3://bucket/prefix.`,
    options: ["ref", "json"],
  },
  migrate: MIGRATE_SPEC,
  compare: { ...COMPARE_SPEC, details: `${COMPARE_SPEC.details}\n${LOCATION}` },
  consolidate: {
    usage: "consolidate <location> [--path P]",
    summary: "write consolidated metadata for a hierarchy",
    details: `Gathers the metadata of every node below the group at --path (default the root) into
that group, so readers open the whole hierarchy with one read: .zmetadata for Zarr v2,
the "consolidated_metadata" field of zarr.json for v3. Run it again after changing the
hierarchy with tools that do not update it.

<location> is a writable directory holding a Zarr hierarchy.`,
    options: ["path"],
  },
};

const GLOBAL_HELP = `Options for every command:
  -h, --help       this help (zarr <command> --help: that command's)
  --version        the version of zarr (@z/cli)
  -v, --verbose    log what the library does on stderr (-vv: every store request and chunk)

Logging: ZARR_LOG=namespace[:level],... (namespaces array, group, store, store:fs,
store:http, store:zip, codec, or *; levels debug (the default), info, warn, off).`;

/** A command's entry in the command list: its synopsis, and its summary aligned on the right. */
function commandLine(spec: CommandSpec): string {
  const lines = spec.usage.split("\n").map((line) => `  ${line}`);
  const last = lines[lines.length - 1];
  if (last.length < 48) lines[lines.length - 1] = `${last.padEnd(48)}${spec.summary}`;
  else lines.push(`${" ".repeat(48)}${spec.summary}`);
  return lines.join("\n");
}

/** The usage text printed by `zarr --help`. */
export const USAGE = `Usage: zarr <command> [options]

Commands:
${Object.values(COMMANDS).map(commandLine).join("\n")}

${LOCATION}
A copy destination is a directory or a new .zip file.
SEL is NumPy-style, one item per axis: "0:10,::-1,3" ("..." and ":" allowed).

${GLOBAL_HELP}
`;

/** The text `zarr <command> --help` prints. */
export function commandHelp(name: string): string {
  const spec = COMMANDS[name];
  return `Usage: zarr ${spec.usage}\n\n${spec.summary[0].toUpperCase()}${spec.summary.slice(1)}.\n\n${spec.details}\n\n${GLOBAL_HELP}\n`;
}
