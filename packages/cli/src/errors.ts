import { nameErrorClass, ZarrError, type ZarrErrorOptions } from "@z/errors";

declare module "@z/errors" {
  interface ZarrErrorMap {
    UsageError: UsageError;
  }
}

/**
 * A command line that cannot be run: an unknown command or option, a missing argument. An `@z`
 * error (`isZarrError(e, "UsageError")`).
 */
export class UsageError extends ZarrError {
  static {
    nameErrorClass(UsageError, "UsageError");
  }
  constructor(
    message: string,
    /** The command whose help to show with the error, if the command is known. */
    readonly command?: string,
    options?: Pick<ZarrErrorOptions, "path" | "cause">,
  ) {
    super(message, options);
  }
}

/** What a command was working on when it failed: the location(s) and the node path. */
export interface ErrorContext {
  /** The command name. */
  command: string;
  /** The `<location>` arguments, in order. */
  locations: readonly string[];
  /** The node path (`--path`), default the root. */
  path?: string;
}

/**
 * Library hints name library calls; on the command line the same advice is a flag or a
 * command. Each entry rewrites one hint (the library's messages stay as they are).
 */
const CLI_HINTS: readonly [RegExp, (context: ErrorContext) => string][] = [
  [/pass overwrite: true/g, () => "pass --overwrite"],
  [
    /open it with openGroup\(\)/g,
    ({ locations }) =>
      `zarr tree ${quote(locations[0] ?? "<location>")} lists its arrays; choose one with --path`,
  ],
  [/open it with openArray\(\)/g, () => "zarr get reads it; choose a group with --path"],
  [
    /Import @z\/zarr, or call registerStore\(\)\./g,
    () => "the zarr command reads directories, .zip files and http(s) URLs.",
  ],
];

function quote(text: string): string {
  return /^[\w./:@%+=,-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}

/** An error's message with library hints rewritten as the CLI flags that do the same. */
export function cliMessage(error: Error, context: ErrorContext): string {
  let message = error.message;
  for (const [pattern, replacement] of CLI_HINTS)
    message = message.replace(pattern, replacement(context));
  if (error.name === "ZipError" && !/\.zip$/i.test(context.locations[0] ?? "")) {
    message += ` (${context.locations[0]} is a file, so it was read as a .zip archive)`;
  }
  return message;
}

/**
 * The line `zarr` prints for a failed command: where (the location, and the node the error is
 * about or else the one given with --path), what (the error's name) and the message with CLI
 * hints:
 * `zarr: data.zarr (node /grid): NotFoundError: No array at "/grid": ...`.
 */
export function describeError(error: unknown, context: ErrorContext): string {
  const e = error instanceof Error ? error : new Error(String(error));
  const name = e.name && e.name !== "Error" ? `${e.name}: ` : "";
  const where = context.locations.join(" → ");
  // The node the error is about when it says (a copy's failing array), else the one asked for.
  const about = (e as { path?: unknown }).path;
  const path = typeof about === "string" ? about : (context.path ?? "");
  const node = `/${path.replace(/^\/+|\/+$/g, "")}`;
  return `zarr: ${where} (node ${node}): ${name}${cliMessage(e, context)}\n`;
}
