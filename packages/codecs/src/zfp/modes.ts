// The two ways Zarr metadata configures zfp: the registered `zfp` codec (a string mode and its
// parameters, zarr-extensions codecs/zfp) and numcodecs' `zfpy` (an integer mode whose unused
// parameters are -1).

import type { ZfpMode } from "@z/compression/zfp";
import { formatValue } from "@z/errors";
import type { JsonObject } from "@z/metadata";
import { CodecConfigError } from "../errors.js";

function numberField(configuration: JsonObject, key: string, codec: string, integer: boolean) {
  const value = configuration[key];
  if (typeof value !== "number" || !Number.isFinite(value) || (integer && !Number.isInteger(value)))
    throw new CodecConfigError(
      `${codec} codec: "${key}" must be ${integer ? "an integer" : "a number"}, got ${formatValue(value)}`,
    );
  return value;
}

function unsignedField(configuration: JsonObject, key: string, codec: string): number {
  const value = numberField(configuration, key, codec, true);
  if (value < 0 || value > 0xffffffff)
    throw new CodecConfigError(
      `${codec} codec: "${key}" must be an unsigned integer, got ${value}`,
    );
  return value;
}

/**
 * The mode of a registered `zfp` codec configuration (`{mode: "fixed_rate", rate}`, ...).
 * @throws CodecConfigError for an unknown mode or a missing or invalid parameter
 */
export function zfpModeOf(configuration: JsonObject, codec = "zfp"): ZfpMode {
  const mode = configuration.mode;
  switch (mode) {
    case "reversible":
      return { mode };
    case "fixed_rate": {
      const rate = numberField(configuration, "rate", codec, false);
      if (rate <= 0)
        throw new CodecConfigError(`${codec} codec: "rate" must be positive, got ${rate}`);
      return { mode, rate };
    }
    case "fixed_precision":
      return { mode, precision: unsignedField(configuration, "precision", codec) };
    case "fixed_accuracy": {
      const tolerance = numberField(configuration, "tolerance", codec, false);
      if (tolerance < 0)
        throw new CodecConfigError(
          `${codec} codec: "tolerance" must not be negative, got ${tolerance}`,
        );
      return { mode, tolerance };
    }
    case "expert": {
      const minexp = numberField(configuration, "minexp", codec, true);
      return {
        mode,
        minbits: unsignedField(configuration, "minbits", codec),
        maxbits: unsignedField(configuration, "maxbits", codec),
        maxprec: unsignedField(configuration, "maxprec", codec),
        minexp,
      };
    }
    default:
      throw new CodecConfigError(
        `${codec} codec: "mode" must be "reversible", "fixed_rate", "fixed_precision", "fixed_accuracy" or "expert", got ${formatValue(mode)}`,
      );
  }
}

/** The registered `zfp` configuration of a mode read by {@link zfpModeOf}. */
export function zfpConfigOf(mode: ZfpMode): JsonObject {
  return { ...mode };
}

/** numcodecs' zfpy modes (zfpy's `mode_fixed_rate`, ...; 5 is zfp's reversible mode). */
const ZFPY_MODES: Readonly<Record<number, "rate" | "precision" | "tolerance" | undefined>> = {
  2: "rate",
  3: "precision",
  4: "tolerance",
  5: undefined,
};

/** A numcodecs zfpy configuration: its integer mode and parameters. */
export interface ZfpyConfig {
  /** 2 fixed rate, 3 fixed precision, 4 fixed accuracy (numcodecs' default), 5 reversible. */
  mode: number;
  tolerance: number;
  rate: number;
  precision: number;
}

/**
 * Reads a numcodecs zfpy configuration (`{mode, tolerance, rate, precision}`, the unused ones
 * -1 or absent; `compression_kwargs`, which numcodecs writes and ignores, is ignored too).
 * @throws CodecConfigError for a mode numcodecs does not have or a parameter that is not a number
 */
export function zfpyConfigOf(configuration: JsonObject, codec = "numcodecs.zfpy"): ZfpyConfig {
  const mode = configuration.mode ?? 4;
  if (typeof mode !== "number" || !Object.hasOwn(ZFPY_MODES, mode))
    throw new CodecConfigError(
      `${codec} codec: "mode" must be 2 (fixed rate), 3 (fixed precision), 4 (fixed accuracy) or 5 (reversible), got ${formatValue(mode)}`,
    );
  const read = (key: string) =>
    configuration[key] === undefined || configuration[key] === null
      ? -1
      : numberField(configuration, key, codec, key === "precision");
  return { mode, tolerance: read("tolerance"), rate: read("rate"), precision: read("precision") };
}

/**
 * The zfp mode numcodecs compresses with: the parameter its mode names, or reversible when that
 * parameter is negative (zfpy's `compress_numpy` without parameters). Fixed rate is computed as
 * zfpy does, for the chunk's dimensionality with no minimum for floating-point blocks.
 */
export function zfpyModeOf(config: ZfpyConfig): ZfpMode {
  const key = ZFPY_MODES[config.mode];
  if (key === "rate" && config.rate >= 0)
    return { mode: "fixed_rate", rate: config.rate, rateType: "none" };
  if (key === "precision" && config.precision >= 0)
    return { mode: "fixed_precision", precision: config.precision };
  if (key === "tolerance" && config.tolerance >= 0)
    return { mode: "fixed_accuracy", tolerance: config.tolerance };
  return { mode: "reversible" };
}

/** The configuration numcodecs writes for a zfpy codec (its `get_config()` without the id). */
export function zfpyJsonOf(config: ZfpyConfig): JsonObject {
  const json: JsonObject = {
    mode: config.mode,
    tolerance: config.tolerance,
    rate: config.rate,
    precision: config.precision,
  };
  const key = ZFPY_MODES[config.mode];
  if (key !== undefined) json.compression_kwargs = { [key]: config[key] };
  return json;
}
