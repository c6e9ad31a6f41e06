import { formatValue } from "@z/errors";
import type { JsonValue } from "@z/metadata";
import {
  isJsonObject,
  MetadataError,
  parseArrayMetadataV3,
  parseGroupMetadataV3,
} from "@z/metadata";
import type { NodeMetadata } from "./node-documents.js";

/** Parses a v3 `zarr.json` of either node type. */
export function parseV3Node(doc: JsonValue, where: string): NodeMetadata {
  if (!isJsonObject(doc)) throw new MetadataError(`${where} must be a JSON object`);
  if (doc.node_type === "array")
    return { kind: "array", metadata: parseArrayMetadataV3(doc, where) };
  if (doc.node_type === "group")
    return { kind: "group", metadata: parseGroupMetadataV3(doc, where) };
  if (!("node_type" in doc))
    throw new MetadataError(`${where} is missing the required field "node_type"`);
  throw new MetadataError(
    `${where}: "node_type" must be "array" or "group", got ${formatValue(doc.node_type)}`,
  );
}
