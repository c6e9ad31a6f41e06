import { IcechunkFormatError } from "../errors.js";
import { decodeObjectId } from "./object-id.js";

/** The key of a spec version 1 branch's ref file. */
export function branchRefKey(name: string): string {
  return `refs/branch.${name}/ref.json`;
}

/** The key of a spec version 1 tag's ref file. */
export function tagRefKey(name: string): string {
  return `refs/tag.${name}/ref.json`;
}

/** The key of a spec version 1 deleted tag's tombstone. */
export function tagTombstoneKey(name: string): string {
  return `refs/tag.${name}/ref.json.deleted`;
}

/** Whether a branch or tag name can name a ref file (no `/`, not empty). */
export function isValidRefName(name: string): boolean {
  return name.length > 0 && !name.includes("/") && name !== "." && name !== "..";
}

/**
 * Decodes a spec version 1 ref file, `{"snapshot":"<base 32 id>"}`, to the snapshot id.
 * @throws IcechunkFormatError
 */
export function decodeRefFile(file: string, bytes: Uint8Array): string {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch (error) {
    throw new IcechunkFormatError(file, "it is not UTF-8 JSON", { cause: error });
  }
  const snapshot = (json as { snapshot?: unknown } | null)?.snapshot;
  if (typeof json !== "object" || json === null || typeof snapshot !== "string")
    throw new IcechunkFormatError(file, 'it is not a {"snapshot": "<id>"} object');
  if (decodeObjectId(snapshot, 12) === undefined)
    throw new IcechunkFormatError(
      file,
      `${JSON.stringify(snapshot)} is not a 12-byte base 32 snapshot id`,
    );
  return snapshot.toUpperCase();
}
