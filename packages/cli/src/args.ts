import { UsageError } from "./errors.js";

/** How an option is written: a flag, or an option that takes a value. */
export interface OptionSpec {
  /** `string` options take a value (`--path P` or `--path=P`); `boolean` ones are flags. */
  type: "string" | "boolean";
  /** A one-letter alias (`-h`); a repeated letter (`-vv`) counts. */
  short?: string;
}

/** What {@link parseCommandLine} found: option values by name, flag counts, the positionals. */
export interface ParsedArgs {
  /** Values of the string options given (the last one wins). */
  values: Record<string, string>;
  /** How many times each flag was given (`-vv` is 2). */
  flags: Record<string, number>;
  /** The arguments that are not options, in order. */
  positionals: string[];
}

/**
 * Parses a command line the way getopt does: an option that takes a value takes the next
 * argument whatever it looks like, so `--select -1,2:5` works as well as `--select=-1,2:5`
 * (Node's `parseArgs` refuses values that start with `-`). `--` ends the options.
 * @throws UsageError for an unknown option, a missing value, or a value given to a flag
 */
export function parseCommandLine(
  argv: readonly string[],
  options: Readonly<Record<string, OptionSpec>>,
): ParsedArgs {
  const parsed: ParsedArgs = { values: {}, flags: {}, positionals: [] };
  const byShort = new Map(
    Object.entries(options)
      .filter(([, spec]) => spec.short)
      .map(([name, spec]) => [spec.short as string, name]),
  );
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") {
      parsed.positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = arg.slice(2, eq < 0 ? undefined : eq);
      const spec = Object.hasOwn(options, name) ? options[name] : undefined;
      if (!spec) throw new UsageError(`Unknown option --${name}`);
      if (spec.type === "boolean") {
        if (eq >= 0) throw new UsageError(`--${name} takes no value`);
        parsed.flags[name] = (parsed.flags[name] ?? 0) + 1;
      } else if (eq >= 0) {
        parsed.values[name] = arg.slice(eq + 1);
      } else {
        if (i + 1 >= argv.length) throw new UsageError(`--${name} needs a value`);
        parsed.values[name] = argv[++i];
      }
    } else if (arg.startsWith("-") && arg.length > 1) {
      for (const letter of arg.slice(1)) {
        const name = byShort.get(letter);
        if (name === undefined || options[name].type !== "boolean")
          throw new UsageError(`Unknown option -${letter}`);
        parsed.flags[name] = (parsed.flags[name] ?? 0) + 1;
      }
    } else {
      parsed.positionals.push(arg);
    }
  }
  return parsed;
}
