import { parseArgs } from "node:util";
import { copyCommand } from "./commands/copy.js";
import { COMPRESSOR_CHOICES, type CompressorChoice } from "./commands/copy-codecs.js";
import { getCommand } from "./commands/get.js";
import { infoCommand } from "./commands/info.js";
import { treeCommand } from "./commands/tree.js";
import { UsageError } from "./errors.js";
import { closeLocations } from "./location.js";
import { type Output, processOutput } from "./output.js";

/** The usage text printed by `zarr --help`. */
export const USAGE = `Usage: zarr <command> [options]

Commands:
  info <location> [--path P]                  the node's metadata, summarised
  tree <location> [--path P]                  the hierarchy with shapes, dtypes, chunking
  get <location> [--path P] [--select SEL] --json
                                              the selected values as one JSON object
  copy <src> <dst> [--path P] [--format 2|3] [--compressor none|gzip|zstd|blosc]
       [--chunks a,b,c] [--overwrite] [--json]
                                              rewrite an array or a hierarchy; ends with a
                                              summary (arrays, chunks, bytes), as JSON with --json

<location> is a directory holding a Zarr hierarchy (v2 or v3), a .zip file of one, or an
http(s) URL of either (read-only). A copy destination is a directory or a new .zip file.
SEL is NumPy-style, one item per axis: "0:10,::-1,3" ("..." and ":" allowed).
`;

const OPTIONS = {
  path: { type: "string" },
  select: { type: "string" },
  json: { type: "boolean" },
  format: { type: "string" },
  compressor: { type: "string" },
  chunks: { type: "string" },
  overwrite: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

function parseFormat(value: string | undefined): 2 | 3 | undefined {
  if (value === undefined) return undefined;
  if (value !== "2" && value !== "3") throw new UsageError(`--format must be 2 or 3, got ${value}`);
  return Number(value) as 2 | 3;
}

function parseCompressor(value: string | undefined): CompressorChoice | undefined {
  if (value === undefined) return undefined;
  if (!(COMPRESSOR_CHOICES as readonly string[]).includes(value)) {
    throw new UsageError(
      `--compressor must be one of ${COMPRESSOR_CHOICES.join(", ")}, got ${value}`,
    );
  }
  return value as CompressorChoice;
}

function parseChunks(value: string | undefined): number[] | undefined {
  if (value === undefined) return undefined;
  const chunks = value.split(",").map((part) => Number(part.trim()));
  if (chunks.some((n) => !Number.isSafeInteger(n) || n < 1)) {
    throw new UsageError(`--chunks must be positive integers separated by commas, got ${value}`);
  }
  return chunks;
}

function positionals(args: string[], count: number, command: string): string[] {
  if (args.length !== count) {
    throw new UsageError(
      `zarr ${command} takes ${count} location${count === 1 ? "" : "s"}, got ${args.length}`,
    );
  }
  return args;
}

/**
 * Runs the `zarr` command with the given arguments (without `node` and the script).
 * @returns the exit code: 0 on success, 1 on an error, 2 on a usage error
 */
export async function main(argv: string[], output: Output = processOutput): Promise<number> {
  try {
    const { values, positionals: rest } = parseArgs({
      args: argv,
      options: OPTIONS,
      allowPositionals: true,
      strict: true,
    });
    const [command, ...args] = rest;
    if (values.help || command === undefined || command === "help") {
      output.out(USAGE);
      return command === undefined && !values.help ? 2 : 0;
    }
    switch (command) {
      case "info":
        await infoCommand(output, positionals(args, 1, command)[0], values.path);
        return 0;
      case "tree":
        await treeCommand(output, positionals(args, 1, command)[0], values.path);
        return 0;
      case "get":
        await getCommand(output, positionals(args, 1, command)[0], values);
        return 0;
      case "copy": {
        const [source, destination] = positionals(args, 2, command);
        await copyCommand(output, source, destination, {
          path: values.path,
          format: parseFormat(values.format),
          compressor: parseCompressor(values.compressor),
          chunks: parseChunks(values.chunks),
          overwrite: values.overwrite,
          json: values.json,
        });
        return 0;
      }
      default:
        throw new UsageError(`Unknown command "${command}"`);
    }
  } catch (error) {
    if (
      error instanceof UsageError ||
      (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")
    ) {
      // A plain usage error is about the command line; its subclasses (an option that does not
      // fit a node) name themselves and need no usage text.
      const e = error as Error;
      const plain = !(error instanceof UsageError) || e.name === "UsageError";
      output.err(plain ? `zarr: ${e.message}\n\n${USAGE}` : `zarr: ${e.name}: ${e.message}\n`);
      return 2;
    }
    const e = error as Error;
    output.err(`zarr: ${e.name && e.name !== "Error" ? `${e.name}: ` : ""}${e.message}\n`);
    return 1;
  } finally {
    await closeLocations();
  }
}
