// The codec options checked, apart from option-checks.ts: the first load uses those checks
// (checkChoice, shown), and this file brings the codec-spec conversion and the numcodecs names
// with it, which only creation needs.
import { checkJsonValue, MetadataError, type NamedConfig } from "@z/metadata";
import { type CodecSpec, toNamedConfig } from "./codec-specs.js";
import { isPlainObject, shown } from "./option-checks.js";

/**
 * A codec given by the user as a metadata entry, checked: a name, a `{name, configuration?,
 * must_understand?}` object or a numcodecs `{id, ...}` object, whose configuration holds JSON
 * values only.
 * @param where names the codec in messages, e.g. `codecs[1]`
 * @throws MetadataError naming the codec and what is wrong
 */
export function checkedCodec(spec: unknown, where: string): NamedConfig {
  if (typeof spec === "string") {
    if (spec === "") throw new MetadataError(`${where}: a codec name must not be empty`);
    return toNamedConfig(spec);
  }
  if (!isPlainObject(spec) || (typeof spec.name !== "string" && typeof spec.id !== "string")) {
    throw new MetadataError(
      `${where} must be a codec name, {name, configuration?} or a numcodecs {id, ...} object, got ${shown(spec)}`,
    );
  }
  if (typeof spec.id !== "string") {
    if (spec.configuration !== undefined && !isPlainObject(spec.configuration)) {
      throw new MetadataError(
        `${where}.configuration must be an object, got ${shown(spec.configuration)}`,
      );
    }
    if (spec.must_understand !== undefined && typeof spec.must_understand !== "boolean") {
      throw new MetadataError(
        `${where}.must_understand must be true or false, got ${shown(spec.must_understand)}`,
      );
    }
  }
  const entry = toNamedConfig(spec as CodecSpec);
  checkJsonValue(entry.configuration, `${where}.configuration`);
  return entry;
}

/**
 * A list of codecs the user gave, checked.
 * @throws MetadataError when it is not a list, or for the first codec that is not valid
 */
export function checkedCodecList(list: unknown, option: string): NamedConfig[] {
  if (!Array.isArray(list))
    throw new MetadataError(`The ${option} option must be a list of codecs, got ${shown(list)}`);
  return list.map((spec, i) => checkedCodec(spec, `${option}[${i}]`));
}
