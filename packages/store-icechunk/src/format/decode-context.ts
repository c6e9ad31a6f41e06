import { IcechunkFormatError } from "../errors.js";
import { FbBuffer as Buffer, type FbBuffer, type FbTable } from "./flatbuffers.js";
import {
  type DecodeLimits,
  type FileHeader,
  type FileTypeName,
  readMetadataFile,
} from "./header.js";
import { encodeObjectId } from "./object-id.js";

/** A flatbuffers payload whose structural errors name the file they come from. */
export function payloadOf(file: string, payload: Uint8Array): FbBuffer {
  return new Buffer(payload, (reason) => {
    throw new IcechunkFormatError(file, reason);
  });
}

/** An `ObjectId12` / `ObjectId8` struct as its base 32 name. */
export function idOf(bytes: Uint8Array | undefined, buf: FbBuffer, what: string): string {
  if (bytes === undefined) return buf.fail(`${what} is missing`);
  return encodeObjectId(bytes);
}

/** Non-leap microseconds since the epoch as a Date (millisecond precision). */
export function dateOfMicros(micros: number): Date {
  return new Date(Math.floor(micros / 1000));
}

/** Checks a metadata file's header, decompresses its payload and opens its root table. */
export async function readRootTable(
  file: string,
  bytes: Uint8Array,
  type: FileTypeName,
  limits: DecodeLimits,
  rootName: string,
): Promise<{ header: FileHeader; buf: FbBuffer; root: FbTable }> {
  const { header, payload } = await readMetadataFile(file, bytes, type, limits);
  const buf = payloadOf(file, payload);
  return { header, buf, root: buf.root(rootName) };
}
