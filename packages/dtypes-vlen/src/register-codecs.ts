// Registers the variable-length codecs; loaded on first use (see register.ts).
import { registerCodec } from "@z/codecs";
import { Json2Codec } from "./codecs/json2.js";
import { MsgPack2Codec } from "./codecs/msgpack2.js";
import { VlenArrayCodec } from "./codecs/vlen-array.js";
import { VlenBytesCodec } from "./codecs/vlen-bytes.js";
import { VLEN_OFFSETS_CODEC, VlenOffsetsCodec } from "./codecs/vlen-offsets.js";
import { VlenUtf8Codec } from "./codecs/vlen-utf8.js";

for (const name of ["vlen-utf8", "numcodecs.vlen-utf8"]) {
  registerCodec(name, (configuration, context) =>
    VlenUtf8Codec.fromConfig(name, configuration, context),
  );
}
for (const name of ["vlen-bytes", "numcodecs.vlen-bytes"]) {
  registerCodec(name, (configuration, context) =>
    VlenBytesCodec.fromConfig(name, configuration, context),
  );
}
for (const name of ["numcodecs.json2", "numcodecs.json"]) {
  registerCodec(name, (configuration, context) =>
    Json2Codec.fromConfig(name, configuration, context),
  );
}
registerCodec("numcodecs.vlen-array", (configuration, context) =>
  VlenArrayCodec.fromConfig(configuration, context),
);
registerCodec("numcodecs.msgpack2", (configuration, context) =>
  MsgPack2Codec.fromConfig(configuration, context),
);
registerCodec(VLEN_OFFSETS_CODEC, (configuration, context) =>
  VlenOffsetsCodec.fromConfig(configuration, context),
);
