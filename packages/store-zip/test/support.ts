import { MemoryArchive, ZipWriter, type ZipWriterOptions } from "@z/store-zip";

/** A complete archive holding `entries` (stored), written by our ZipWriter into memory. */
export async function zipBytes(
  entries: Iterable<readonly [string, Uint8Array]>,
  options: ZipWriterOptions = {},
): Promise<Uint8Array> {
  const archive = new MemoryArchive();
  const writer = new ZipWriter(archive, options);
  for (const [name, value] of entries) await writer.add(name, value);
  await writer.close();
  return archive.bytes().slice();
}

/**
 * A ByteSource over bytes that records every read, to count requests and bytes; with `suffix`,
 * it also reads suffixes (as sources over HTTP do), so opening infers the archive's position.
 */
export function countingSource(bytes: Uint8Array, suffix = false) {
  const reads: { offset: number; length: number }[] = [];
  return {
    reads,
    readSuffix: suffix
      ? async (length: number) => {
          // A suffix longer than the source returns the source: count what is returned.
          reads.push({
            offset: Math.max(0, bytes.length - length),
            length: Math.min(length, bytes.length),
          });
          return bytes.slice(-length);
        }
      : undefined,
    size: async () => bytes.length,
    read: async (offset: number, length: number) => {
      reads.push({ offset, length });
      return bytes.slice(offset, offset + length);
    },
  };
}
