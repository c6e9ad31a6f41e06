// Shared inside the package, not public: the logging proxy of withStoreLogging, which enterStore
// (store-logging-scope.ts) loads only when store logging is on. It takes the logger from its
// caller and imports no runtime code of the first load, so it bundles as a chunk of its own.
import type { Logger } from "@z/log";
import type { ByteRange, Readable } from "@z/store-core";

/** Store methods whose calls are logged, with what each call's result says about its size. */
const LOGGED = new Set([
  "get",
  "getInto",
  "getRanges",
  "getVersioned",
  "has",
  "set",
  "setIfNotExists",
  "delete",
  "deletePrefix",
  "listDir",
  "list",
  "listPrefix",
]);

const proxies = new WeakMap<object, Readable>();
const isProxy = new WeakSet<object>();

/** Whether `store` is a logging proxy made by {@link loggedStore}. */
export function isLoggingProxy(store: Readable): boolean {
  return isProxy.has(store);
}

/**
 * A view of `store` that logs every request on `log` at debug (see `withStoreLogging`): one
 * proxy per store object, and a proxy is returned as it is.
 */
export function loggedStore(store: Readable, log: Logger): Readable {
  if (isProxy.has(store)) return store;
  let proxy = proxies.get(store);
  if (proxy === undefined) {
    proxy = loggingProxy(store, log);
    proxies.set(store, proxy);
    isProxy.add(proxy);
  }
  return proxy;
}

function loggingProxy(store: Readable, log: Logger): Readable {
  const methods = new Map<PropertyKey, unknown>();
  return new Proxy(store, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      let method = methods.get(property);
      if (method === undefined) {
        method =
          typeof property === "string" && LOGGED.has(property)
            ? loggedMethod(target, property, value, log)
            : value.bind(target);
        methods.set(property, method);
      }
      return method;
    },
  });
}

type AnyMethod = (...args: unknown[]) => unknown;

function loggedMethod(target: object, name: string, method: AnyMethod, log: Logger): AnyMethod {
  if (name === "list" || name === "listPrefix") {
    return async function* (...args: unknown[]) {
      const start = performance.now();
      let count = 0;
      for await (const key of method.apply(target, args) as AsyncIterable<string>) {
        count++;
        yield key;
      }
      report(log, name, args, `${count} keys`, start);
    };
  }
  return async (...args: unknown[]) => {
    const start = performance.now();
    try {
      const result = await method.apply(target, args);
      report(log, name, args, outcome(name, args, result), start);
      return result;
    } catch (error) {
      report(log, name, args, `failed: ${(error as Error)?.name ?? "error"}`, start);
      throw error;
    }
  };
}

function outcome(name: string, args: unknown[], result: unknown): string {
  switch (name) {
    case "get":
      return result === undefined ? "missing" : `${(result as Uint8Array).length} B`;
    case "getInto":
      return result === undefined ? "missing" : `${result as number} B`;
    case "getVersioned":
      return result === undefined
        ? "missing"
        : `${(result as { value: Uint8Array }).value.length} B`;
    case "getRanges":
      return result === undefined
        ? "missing"
        : `${(result as Uint8Array[]).reduce((n, part) => n + part.length, 0)} B`;
    case "has":
      return result ? "present" : "missing";
    case "set":
      return `${(args[1] as Uint8Array).length} B written`;
    case "setIfNotExists":
      return result ? `${(args[1] as Uint8Array).length} B written` : "exists, not written";
    case "listDir": {
      const listing = result as { keys: string[]; prefixes: string[] };
      return `${listing.keys.length} keys, ${listing.prefixes.length} prefixes`;
    }
    default:
      return "done";
  }
}

/** A range as HTTP writes it: `0-99`, `100-` (to the end), `-64` (the last 64 bytes). */
function formatRange(range: ByteRange): string {
  if ("suffix" in range) return `-${range.suffix}`;
  if ("length" in range) return `${range.offset}-${range.offset + range.length - 1}`;
  return `${range.offset}-`;
}

function report(log: Logger, name: string, args: unknown[], result: string, start: number): void {
  const ms = performance.now() - start;
  const key = typeof args[0] === "string" ? args[0] : "";
  const options = args[name === "getRanges" ? 2 : 1] as { range?: ByteRange } | undefined;
  const ranges =
    name === "getRanges"
      ? (args[1] as ByteRange[]).map(formatRange).join(",")
      : name === "get" && options?.range
        ? formatRange(options.range)
        : undefined;
  log.debug(
    `${name} ${JSON.stringify(key)}${ranges ? ` bytes=${ranges}` : ""} → ${result} in ${ms.toFixed(1)} ms`,
    { method: name, key, range: ranges, result, ms },
  );
}
