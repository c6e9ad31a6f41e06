import type { Group, NamedConfig, ZarrArray } from "@z/zarr";

/** A shape as Python prints a tuple: `(10, 20)`, `(5,)`, `()`. */
export function formatShape(shape: readonly number[]): string {
  return shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(", ")})`;
}

/** A byte count with a binary unit (`1.5 MiB`). */
export function formatBytes(bytes: number): string {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${bytes} B` : `${value.toFixed(1)} ${units[unit]}`;
}

/** A codec entry as one line: `gzip(level=5)`. */
export function formatCodec(codec: NamedConfig): string {
  const config = Object.entries(codec.configuration)
    .map(([key, value]) => `${key}=${JSON.stringify(value)}`)
    .join(", ");
  return `${codec.name}(${config})`;
}

/** The one-line summary of a node used by `tree`. */
export function nodeSummary(node: ZarrArray | Group): string {
  if (!("shape" in node)) return "";
  return `${formatShape(node.shape)} ${node.dtype} chunks=${formatShape(node.chunks)}`;
}
