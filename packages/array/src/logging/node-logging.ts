import { getLogger } from "@z/log";
import type { NodeMetadata } from "../nodes/node-documents.js";

/** The `array` logger: opens and creations at info, every read and write at info. */
export const arrayLog = getLogger("array");

/** The `group` logger: opens and creations of groups at info. */
export const groupLog = getLogger("group");

/**
 * Logs that a node was opened, created, moved or deleted (at info, on the `array` or `group`
 * logger).
 */
export function logNode(
  action: "opened" | "created" | "moved" | "deleted",
  kind: "array" | "group",
  path: string,
  details: () => string,
): void {
  const log = kind === "array" ? arrayLog : groupLog;
  if (log.enabled("info")) log.info(`${action} ${kind} /${path} ${details()}`, { action, path });
}

/**
 * Runs a read or write of an array and logs it at info with the selection's shape, the chunks
 * it touches and its duration; when `array` logging is off it only runs it.
 */
export async function loggedAccess<T>(
  action: "read" | "write",
  path: string,
  selection: { readonly shape: readonly number[]; partCount(): number },
  run: () => Promise<T>,
): Promise<T> {
  if (!arrayLog.enabled("info")) return run();
  const start = performance.now();
  const result = await run();
  const ms = performance.now() - start;
  const chunks = selection.partCount();
  arrayLog.info(
    `${action} /${path} selection shape [${selection.shape.join(", ")}], ${chunks} chunks in ${ms.toFixed(1)} ms`,
    { action, path, shape: [...selection.shape], chunks, ms },
  );
  return result;
}

/** A node's one-line description in log messages: format, and for arrays shape, type and chunks. */
export function nodeDetails(node: NodeMetadata): string {
  if (node.kind === "group") return `(v${node.metadata.zarrFormat})`;
  const { zarrFormat, shape, dataType } = node.metadata;
  return `(v${zarrFormat}, shape [${shape.join(", ")}], ${dataType.name})`;
}
