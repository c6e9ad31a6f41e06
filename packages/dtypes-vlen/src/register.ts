import { registerCodecLoader } from "@z/codecs";
import { type JsonValue, registerDataType } from "@z/metadata";
import { VLEN_OFFSETS_CODEC } from "./codecs/vlen-offsets-name.js";
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

// The codecs load with the first array that names one (register-codecs.ts).
registerCodecLoader(
  [
    "vlen-utf8",
    "numcodecs.vlen-utf8",
    "vlen-bytes",
    "numcodecs.vlen-bytes",
    "numcodecs.json2",
    "numcodecs.json",
    "numcodecs.vlen-array",
    "numcodecs.msgpack2",
    VLEN_OFFSETS_CODEC,
  ],
  () => import("./register-codecs.js"),
);
