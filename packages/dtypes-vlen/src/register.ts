import { registerCodec } from "@z/codecs";
import { type JsonValue, registerDataType } from "@z/metadata";
import { Json2Codec } from "./codecs/json2.js";
import { MsgPack2Codec } from "./codecs/msgpack2.js";
import { VlenArrayCodec } from "./codecs/vlen-array.js";
import { VlenBytesCodec } from "./codecs/vlen-bytes.js";
import { VLEN_OFFSETS_CODEC, VlenOffsetsCodec } from "./codecs/vlen-offsets.js";
import { VlenUtf8Codec } from "./codecs/vlen-utf8.js";
import { bytesDataType } from "./dtype/bytes.js";
import { OBJECT_V3_NAME, ObjectDataType } from "./dtype/object.js";
import { stringDataType } from "./dtype/string.js";

/** Other v3 names of the `bytes` data type: zarr-python's, and the one zarrs also reads. */
const BYTES_ALIASES = new Set(["variable_length_bytes", "binary"]);

function nameOf(json: JsonValue): string | undefined {
  if (typeof json === "string") return json;
  if (
    json !== null &&
    typeof json === "object" &&
    !Array.isArray(json) &&
    typeof json.name === "string"
  )
    return json.name;
  return undefined;
}

registerDataType(stringDataType);
registerDataType(bytesDataType);
registerDataType({
  v3: (json) => {
    const name = nameOf(json);
    if (name !== undefined && BYTES_ALIASES.has(name)) return bytesDataType;
    // Each object array gets its own instance: its object codec tells it what it holds.
    if (name === OBJECT_V3_NAME) return new ObjectDataType();
    return undefined;
  },
  v2: (json) =>
    json === "|O" || json === "O"
      ? { dataType: new ObjectDataType(), endian: "little" }
      : undefined,
});

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
