// Shared inside the @z packages, not public: the named-config writer, kept out of extension.ts, which the index
// re-exports whole so the build can turn it into `export *` (tools/build/split-friendly-barrels.mjs).
import type { NamedConfig } from "./extension.js";
import type { JsonObject } from "./json.js";

/** The metadata JSON form of a {@link NamedConfig}. */
export function namedConfigToJson(value: NamedConfig): JsonObject {
  const out: JsonObject = { name: value.name };
  if (Object.keys(value.configuration).length > 0) out.configuration = value.configuration;
  if (!value.mustUnderstand) out.must_understand = false;
  return out;
}
