import type { ZarrArray } from "@z/array";
import { slice } from "@z/indexing";
import type { Omero, OmeroChannel } from "../metadata/model.js";

/** The channels' settings as given to `writePyramid`: any field may be left out. */
export interface OmeroInput {
  /** Per channel; missing channels and fields are filled in (see {@link completeOmero}). */
  channels?: OmeroChannel[];
  /** The default rendering. */
  rdefs?: Omero["rdefs"];
  /** The image's name in OMERO. */
  name?: string;
}

const PALETTE = ["FF0000", "00FF00", "0000FF", "FF00FF", "00FFFF", "FFFF00", "FFFFFF"];

const INTEGER_RANGES: Record<string, [number, number]> = {
  int8: [-128, 127],
  uint8: [0, 255],
  int16: [-32768, 32767],
  uint16: [0, 65535],
  int32: [-2147483648, 2147483647],
  uint32: [0, 4294967295],
};

/**
 * `omero` with every channel complete, as the schemas require: a colour (white for a single
 * channel, else red, green, blue, magenta, cyan, yellow, white in turn), a label (`Channel i`),
 * `active` true, and a window whose `start` and `end` are the smallest and largest values of
 * the channel in the coarsest level, and whose `min` and `max` are the data type's range
 * (integers) or those values (floats).
 */
export async function completeOmero(
  input: OmeroInput,
  coarsest: ZarrArray,
  channelAxis: number,
  signal?: AbortSignal,
): Promise<Omero> {
  const count = channelAxis < 0 ? 1 : coarsest.shape[channelAxis];
  const given = input.channels ?? [];
  const channels: OmeroChannel[] = [];
  for (let i = 0; i < count; i++) {
    const channel: OmeroChannel = { ...given[i] };
    channel.label ??= `Channel ${i}`;
    channel.color ??= count === 1 ? "FFFFFF" : PALETTE[i % PALETTE.length];
    channel.active ??= true;
    if (channel.window === undefined) {
      const selection = coarsest.shape.map((_, d) => (d === channelAxis ? i : slice(null)));
      const { data } = await coarsest.get(selection, { signal });
      let lo = Number.POSITIVE_INFINITY;
      let hi = Number.NEGATIVE_INFINITY;
      const values = data as ArrayLike<number>;
      for (let j = 0; j < values.length; j++) {
        const x = Number(values[j]);
        if (x < lo) lo = x;
        if (x > hi) hi = x;
      }
      if (lo > hi) [lo, hi] = [0, 0];
      const [min, max] = INTEGER_RANGES[coarsest.dtype] ?? [lo, hi];
      channel.window = { min, max, start: lo, end: hi };
    }
    channels.push(channel);
  }
  const omero: Omero = { channels };
  if (input.rdefs) omero.rdefs = input.rdefs;
  if (input.name !== undefined) omero.name = input.name;
  return omero;
}
