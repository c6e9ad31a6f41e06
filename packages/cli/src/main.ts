import { parseCommandLine } from "./args.js";
import { compareCommand } from "./commands/compare.js";
import { consolidateCommand } from "./commands/consolidate.js";
import { copyCommand } from "./commands/copy.js";
import { COMPRESSOR_CHOICES, type CompressorChoice } from "./commands/copy-codecs.js";
import { getCommand } from "./commands/get.js";
import { infoCommand } from "./commands/info.js";
import { logCommand } from "./commands/log.js";
import { migrateCommand } from "./commands/migrate.js";
import { rechunkCommand } from "./commands/rechunk.js";
import { treeCommand } from "./commands/tree.js";
import { parseCompareOptions } from "./compare/compare-options.js";
import { describeError, type ErrorContext, UsageError } from "./errors.js";
import { COMMANDS, commandHelp, GLOBAL_OPTIONS, OPTIONS, USAGE } from "./help.js";
import { withRef } from "./icechunk-ref.js";
import { closeLocations } from "./location.js";
import { startLogging } from "./logging.js";
import { type Output, processOutput } from "./output.js";
import { parseShape, rechunkOptions } from "./rechunk/rechunk-args.js";
import { statsOptions } from "./stats/stats-args.js";
import { cliVersion } from "./version.js";

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

/** The options `copy` and `rechunk` share. */
function copyOptions(values: Record<string, string>, flags: Record<string, number>) {
  return {
    path: values.path,
    format: parseFormat(values.format),
    compressor: parseCompressor(values.compressor),
    chunks: parseShape("chunks", values.chunks),
    overwrite: Boolean(flags.overwrite),
    json: Boolean(flags.json),
    message: values.message,
  };
}

function positionals(args: string[], count: number, command: string): string[] {
  if (args.length !== count) {
    throw new UsageError(
      `zarr ${command} takes ${count} location${count === 1 ? "" : "s"}, got ${args.length}`,
      command,
    );
  }
  return args;
}

/** Refuses options the command does not take (`zarr info --select 1`). */
function checkOptions(command: string, given: string[]): void {
  const allowed = new Set<string>([...COMMANDS[command].options, ...GLOBAL_OPTIONS]);
  const wrong = given.find((name) => !allowed.has(name));
  if (wrong !== undefined)
    throw new UsageError(`zarr ${command} does not take --${wrong}`, command);
}

/**
 * Runs the `zarr` command with the given arguments (without `node` and the script).
 * @returns the exit code: 0 on success, 1 on an error, 2 on a usage error
 */
export async function main(argv: string[], output: Output = processOutput): Promise<number> {
  let context: ErrorContext = { command: "", locations: [] };
  let stopLogging = () => {};
  try {
    const { values, flags, positionals: rest } = parseCommandLine(argv, OPTIONS);
    const [command, ...args] = rest;
    if (flags.version) {
      output.out(`zarr (@z/cli) ${cliVersion()}\n`);
      return 0;
    }
    if (command === "help" && args[0] !== undefined && Object.hasOwn(COMMANDS, args[0])) {
      output.out(commandHelp(args[0]));
      return 0;
    }
    if (command === undefined || command === "help") {
      output.out(USAGE);
      return command === undefined && !flags.help ? 2 : 0;
    }
    if (!Object.hasOwn(COMMANDS, command)) throw new UsageError(`Unknown command "${command}"`);
    if (flags.help) {
      output.out(commandHelp(command));
      return 0;
    }
    checkOptions(command, [...Object.keys(values), ...Object.keys(flags)]);
    context = { command, locations: args, path: values.path };
    stopLogging = startLogging(output, flags.verbose ?? 0);
    const json = Boolean(flags.json);
    switch (command) {
      case "info":
        await infoCommand(output, withRef(positionals(args, 1, command)[0], values.ref, command), {
          path: values.path,
          json,
          ...statsOptions(values, flags),
        });
        return 0;
      case "tree":
        await treeCommand(output, withRef(positionals(args, 1, command)[0], values.ref, command), {
          path: values.path,
          json,
        });
        return 0;
      case "get":
        await getCommand(output, withRef(positionals(args, 1, command)[0], values.ref, command), {
          path: values.path,
          select: values.select,
          json,
        });
        return 0;
      case "log":
        await logCommand(output, positionals(args, 1, command)[0], { ref: values.ref, json });
        return 0;
      case "migrate":
        await migrateCommand(output, positionals(args, 1, command)[0], {
          dryRun: Boolean(flags["dry-run"]),
          removeV2Metadata: Boolean(flags["remove-v2-metadata"]),
          overwrite: Boolean(flags.overwrite),
          json,
        });
        return 0;
      case "compare": {
        const [a, b] = positionals(args, 2, command);
        return await compareCommand(output, a, b, { ...parseCompareOptions(values, flags), json });
      }
      case "consolidate":
        await consolidateCommand(output, positionals(args, 1, command)[0], { path: values.path });
        return 0;
      case "rechunk": {
        const [source, destination] = positionals(args, 2, command);
        await rechunkCommand(output, source, destination, {
          ...copyOptions(values, flags),
          ...rechunkOptions(values),
        });
        return 0;
      }
      default: {
        const [source, destination] = positionals(args, 2, command);
        await copyCommand(
          output,
          withRef(source, values.ref, command),
          destination,
          copyOptions(values, flags),
        );
        return 0;
      }
    }
  } catch (error) {
    if (error instanceof UsageError && error.name !== "UsageError") {
      // Its subclasses (an option that does not fit a node) name themselves; no usage text.
      output.err(`zarr: ${error.name}: ${error.message}\n`);
      return 2;
    }
    if (error instanceof UsageError) {
      // A parse error comes before the command is known: name the one on the command line.
      const command =
        error.command ??
        (context.command || argv.find((arg) => Object.hasOwn(COMMANDS, arg)) || undefined);
      output.err(
        command
          ? `zarr: ${error.message}\n\nUsage: zarr ${COMMANDS[command].usage}\n(zarr ${command} --help for more)\n`
          : `zarr: ${error.message}\n\n${USAGE}`,
      );
      return 2;
    }
    output.err(describeError(error, context));
    // compare exits 1 for "different", like cmp and diff, so its errors exit 2.
    return context.command === "compare" ? 2 : 1;
  } finally {
    stopLogging();
    await closeLocations();
  }
}
