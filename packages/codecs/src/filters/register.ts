// Registers the numcodecs filters under the names zarr-python 3 uses (`numcodecs.<id>`), which
// is also what v2 `filters` entries `{id: <id>, ...}` are translated to.
import { registerCodec } from "../registry.js";
import { AsTypeCodec } from "./astype.js";
import { BitRoundCodec } from "./bitround.js";
import { CategorizeCodec } from "./categorize.js";
import { DeltaCodec } from "./delta.js";
import { FixedScaleOffsetCodec } from "./fixed-scale-offset.js";
import { PackBitsCodec } from "./packbits.js";
import { QuantizeCodec } from "./quantize.js";
import { ShuffleCodec } from "./shuffle.js";

registerCodec("numcodecs.delta", (configuration, { spec }) =>
  DeltaCodec.fromConfig(configuration, spec),
);
registerCodec("numcodecs.fixedscaleoffset", (configuration, { spec }) =>
  FixedScaleOffsetCodec.fromConfig(configuration, spec),
);
registerCodec("numcodecs.quantize", (configuration, { spec }) =>
  QuantizeCodec.fromConfig(configuration, spec),
);
registerCodec("numcodecs.bitround", (configuration, { spec }) =>
  BitRoundCodec.fromConfig(configuration, spec),
);
registerCodec("numcodecs.astype", (configuration, { spec }) =>
  AsTypeCodec.fromConfig(configuration, spec),
);
registerCodec("numcodecs.packbits", (configuration, { spec }) =>
  PackBitsCodec.fromConfig(configuration, spec),
);
registerCodec("numcodecs.shuffle", (configuration, { spec }) =>
  ShuffleCodec.fromConfig(configuration, spec),
);
registerCodec("numcodecs.categorize", (configuration, { spec }) =>
  CategorizeCodec.fromConfig(configuration, spec),
);
