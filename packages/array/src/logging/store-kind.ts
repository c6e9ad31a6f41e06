// The logger namespace of a store: private to the @z packages. store-logging.ts holds the public
// side, which the package entry re-exports whole, and which loads only when store logging is on
// (store-logging-scope.ts).
import { getLogger, type Logger } from "@z/log";

const storeLog = getLogger("store");
/**
 * The child namespace of a store's logger, from its class: `FsStore` → `store:fs`,
 * `HttpStore` → `store:http`, a plain object → `store:custom`.
 */
export function storeKind(store: object): string {
  const name = (store.constructor as { name?: string } | undefined)?.name ?? "";
  const kind = name.replace(/Store$/, "").toLowerCase();
  return kind === "" || kind === "object" ? "custom" : kind;
}

/** The logger of a store's requests: `store:<kind>` (see {@link storeKind}). */
export function storeLogger(store: object): Logger {
  return storeLog.child(storeKind(store));
}
