/**
 * The child namespace of a store's logger, from its class: `FsStore` → `store:fs`,
 * `HttpStore` → `store:http`, a plain object → `store:custom`.
 */
export function storeKind(store: object): string {
  const name = (store.constructor as { name?: string } | undefined)?.name ?? "";
  const kind = name.replace(/Store$/, "").toLowerCase();
  return kind === "" || kind === "object" ? "custom" : kind;
}
