// Registers zfp (loaded on first use, see builtins.ts): the registered `zfp` codec, and
// numcodecs' zfpy, an array-to-bytes codec in v3 arrays (as zarr-python 3 writes it) and a
// compressor after the `bytes` codec in v2 arrays.
import { provideCodec } from "../codec-table.js";
import { ZfpCodec, ZfpyCompressor } from "./codec.js";

provideCodec("zfp", (configuration, { spec }) => ZfpCodec.fromConfig(configuration, spec));
provideCodec("numcodecs.zfpy", (configuration, { spec, zarrFormat }) =>
  zarrFormat === 2
    ? ZfpyCompressor.fromConfig(configuration, spec)
    : ZfpCodec.fromZfpyConfig(configuration, spec),
);
