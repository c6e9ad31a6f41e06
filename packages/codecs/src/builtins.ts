import { BytesCodec } from "./core/bytes.js";
import { Crc32cCodec } from "./core/crc32c-codec.js";
import { PackBitsArrayToBytesCodec } from "./core/packbits.js";
import { TransposeCodec } from "./core/transpose.js";
import { registerCodec } from "./registry.js";

registerCodec("bytes", (configuration) => BytesCodec.fromConfig(configuration));
registerCodec("transpose", (configuration, { spec }) =>
  TransposeCodec.fromConfig(configuration, spec.shape.length),
);
registerCodec("crc32c", (configuration) => Crc32cCodec.fromConfig(configuration));
registerCodec("packbits", (configuration, { spec }) =>
  PackBitsArrayToBytesCodec.fromConfig(configuration, spec),
);

import "./blosc/register.js";
import "./compressors/register.js";
import "./extensions/register.js";
import "./filters/register.js";
import "./sharding/register.js";
