import { formatValue } from "@z/errors";
import { MetadataError } from "./errors.js";

/**
 * Checks a node name (one path segment) as the spec restricts them: not empty, no `/`, not
 * only dots, not starting with `__` (reserved), not `zarr.json` (the metadata document's key).
 * @throws MetadataError describing the rule broken
 */
export function validateNodeName(name: string): string {
  if (name === "") throw new MetadataError("A node name must not be empty");
  if (name.includes("/"))
    throw new MetadataError(`Invalid node name ${formatValue(name)}: it must not contain '/'`);
  if (/^\.+$/.test(name))
    throw new MetadataError(
      `Invalid node name ${formatValue(name)}: it must not consist only of dots`,
    );
  if (name.startsWith("__"))
    throw new MetadataError(
      `Invalid node name ${formatValue(name)}: names starting with '__' are reserved`,
    );
  if (name === "zarr.json")
    throw new MetadataError(
      `Invalid node name ${formatValue(name)}: it is the key of a node's metadata document`,
    );
  return name;
}
