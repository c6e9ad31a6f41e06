// Registers the numcodecs filters under the names zarr-python 3 uses (`numcodecs.<id>`), which
// is also what v2 `filters` entries `{id: <id>, ...}` are translated to (loaded on first use,
// see builtins.ts).
import { provideCodec } from "../codec-table.js";
import { AsTypeCodec } from "./astype.js";
import { BitRoundCodec } from "./bitround.js";
import { CategorizeCodec } from "./categorize.js";
import { DeltaCodec } from "./delta.js";
import { FixedScaleOffsetCodec } from "./fixed-scale-offset.js";
import { PackBitsCodec } from "./packbits.js";
import { QuantizeCodec } from "./quantize.js";
import { ShuffleCodec } from "./shuffle.js";

provideCodec("numcodecs.delta", (configuration, { spec }) =>
  DeltaCodec.fromConfig(configuration, spec),
);
provideCodec("numcodecs.fixedscaleoffset", (configuration, { spec }) =>
  FixedScaleOffsetCodec.fromConfig(configuration, spec),
);
provideCodec("numcodecs.quantize", (configuration, { spec }) =>
  QuantizeCodec.fromConfig(configuration, spec),
);
provideCodec("numcodecs.bitround", (configuration, { spec }) =>
  BitRoundCodec.fromConfig(configuration, spec),
);
provideCodec("numcodecs.astype", (configuration, { spec }) =>
  AsTypeCodec.fromConfig(configuration, spec),
);
provideCodec("numcodecs.packbits", (configuration, { spec }) =>
  PackBitsCodec.fromConfig(configuration, spec),
);
provideCodec("numcodecs.shuffle", (configuration, { spec }) =>
  ShuffleCodec.fromConfig(configuration, spec),
);
provideCodec("numcodecs.categorize", (configuration, { spec }) =>
  CategorizeCodec.fromConfig(configuration, spec),
);
