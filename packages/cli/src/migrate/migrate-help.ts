import type { OptionSpec } from "../args.js";

/** The options `zarr migrate` adds to the command line. */
export const MIGRATE_OPTION_SPECS: Readonly<Record<string, OptionSpec>> = {
  "dry-run": { type: "boolean" },
  "remove-v2-metadata": { type: "boolean" },
};

/** The `zarr migrate` entry of the command list and its `--help`. */
export const MIGRATE_SPEC = {
  usage: "migrate <location> [--dry-run] [--remove-v2-metadata] [--overwrite] [--json]",
  summary: "give a v2 hierarchy v3 metadata in place",
  details: `Writes a zarr.json beside the .zarray/.zgroup of every node of the v2 hierarchy at
<location>, as zarr-python 3's "zarr migrate v3" does; no chunk is moved or rewritten (a "v2"
chunk key encoding keeps the chunk keys, "." or "/"). Compressors and filters become v3
codecs (blosc, zstd and gzip by their v3 names, others as numcodecs.<id>), order F a transpose
codec, the byte order the bytes codec's endian, and .zattrs the attributes. Every node is
converted before anything is written: an array that cannot be migrated (an object data type,
a codec without a v3 equivalent) stops it with an error naming the array, and nothing changes.

  --dry-run              print the zarr.json documents it would write; change nothing
  --remove-v2-metadata   remove .zarray, .zgroup, .zattrs, .zmetadata once every zarr.json
                         is written (by default they stay, so v2 readers still work)
  --overwrite            replace a zarr.json already there (else that is an error)
  --json                 the summary (and with --dry-run the documents) as one JSON object

<location> is a writable directory or bucket location holding a Zarr v2 hierarchy.`,
  options: ["dry-run", "remove-v2-metadata", "overwrite", "json"],
};
