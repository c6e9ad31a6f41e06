/** A command line that cannot be run: an unknown command or option, a missing argument. */
export class UsageError extends Error {
  override name = "UsageError";
}
