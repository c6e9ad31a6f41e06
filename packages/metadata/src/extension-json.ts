// The named-config writer, in a file of its own so that a module needing only these does not
// load extension.ts with them (first-load size: packages/zarr/test/bundlers/sizes.test.ts).
import type { NamedConfig } from "./extension.js";
import type { JsonObject } from "./json.js";

/** The metadata JSON form of a {@link NamedConfig}. */
export function namedConfigToJson(value: NamedConfig): JsonObject {
  const out: JsonObject = { name: value.name };
  if (Object.keys(value.configuration).length > 0) out.configuration = value.configuration;
  if (!value.mustUnderstand) out.must_understand = false;
  return out;
}
