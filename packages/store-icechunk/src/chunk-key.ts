/** An array's chunk key encoding, from its `zarr.json`. */
export interface ChunkKeyEncoding {
  /** `default` (`c/0/1`) or `v2` (`0.1`). */
  name: "default" | "v2";
  /** `/` or `.`. */
  separator: string;
}

/** The chunk key encoding a v3 `zarr.json` declares (the spec's default when it names none). */
export function chunkKeyEncodingOf(zarrJson: unknown): ChunkKeyEncoding | undefined {
  const meta = zarrJson as {
    chunk_key_encoding?: { name?: unknown; configuration?: { separator?: unknown } };
  };
  const cke = meta?.chunk_key_encoding;
  if (cke === undefined) return { name: "default", separator: "/" };
  if (cke.name !== "default" && cke.name !== "v2") return undefined;
  const sep = cke.configuration?.separator;
  const separator = sep === "." || sep === "/" ? sep : cke.name === "default" ? "/" : ".";
  return { name: cke.name, separator };
}

/**
 * The chunk coordinates a chunk key names (relative to its array), or undefined when it is
 * not a chunk key of `rank` dimensions under this encoding.
 */
export function parseChunkKey(
  key: string,
  encoding: ChunkKeyEncoding,
  rank: number,
): number[] | undefined {
  let rest = key;
  if (encoding.name === "default") {
    if (rest === "c") return rank === 0 ? [] : undefined;
    if (!rest.startsWith(`c${encoding.separator}`)) return undefined;
    rest = rest.slice(2);
  } else if (rank === 0) {
    return rest === "0" ? [] : undefined;
  }
  const parts = rest.split(encoding.separator);
  if (parts.length !== rank) return undefined;
  const out: number[] = [];
  for (const part of parts) {
    if (!/^(0|[1-9][0-9]{0,9})$/.test(part)) return undefined;
    const n = Number(part);
    if (n > 0xffffffff) return undefined;
    out.push(n);
  }
  return out;
}

/** The chunk key of chunk coordinates (relative to the array). */
export function formatChunkKey(coords: readonly number[], encoding: ChunkKeyEncoding): string {
  if (encoding.name === "default")
    return coords.length === 0 ? "c" : `c${encoding.separator}${coords.join(encoding.separator)}`;
  return coords.length === 0 ? "0" : coords.join(encoding.separator);
}
