import { type FieldContext, fail } from "./json-fields.js";
import type { OmeVersion } from "./model.js";

/** The versions read, oldest first. */
export const OME_VERSIONS: readonly OmeVersion[] = ["0.1", "0.2", "0.3", "0.4", "0.5"];

/** `version` as a version this package reads, or a metadata error naming `where`. */
export function checkVersion(context: FieldContext, version: string, where: string): OmeVersion {
  if (!(OME_VERSIONS as readonly string[]).includes(version))
    fail(context, where, `version "${version}" is not supported (0.1 to 0.5 are)`);
  return version as OmeVersion;
}
