import {
  getLogger,
  getLogLevel,
  type LogSink,
  parseLogSpec,
  resetLogLevels,
  setLogger,
  setLogLevel,
  setLogLevels,
} from "@z/log";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";

/** A sink that keeps what it receives. */
function collector(): LogSink & { lines: [string, string, Record<string, unknown>?][] } {
  const lines: [string, string, Record<string, unknown>?][] = [];
  return {
    lines,
    debug: (message, fields) => lines.push(["debug", message, fields]),
    info: (message, fields) => lines.push(["info", message, fields]),
    warn: (message, fields) => lines.push(["warn", message, fields]),
  };
}

afterEach(() => {
  resetLogLevels();
  setLogger(undefined);
});

describe("parseLogSpec (ZARR_LOG)", () => {
  it("reads namespace[:level] items, debug by default, * and all for every namespace", () => {
    expect(parseLogSpec("store,codec:info")).toEqual([
      ["store", "debug"],
      ["codec", "info"],
    ]);
    expect(parseLogSpec(" store:fs , store:http:warn,*:off,all:INFO")).toEqual([
      ["store:fs", "debug"],
      ["store:http", "warn"],
      ["*", "off"],
      ["*", "info"],
    ]);
    expect(parseLogSpec("")).toEqual([]);
  });

  it("names the malformed item", () => {
    expect(() => parseLogSpec("store,:debug")).toThrow(
      /ZARR_LOG item ":debug" is not namespace\[:level\]/,
    );
    expect(() => parseLogSpec("a b")).toThrow(/"a b"/);
  });
});

describe("levels and namespaces", () => {
  it("is off by default and never builds a message that is off", () => {
    const sink = collector();
    setLogger(sink);
    const log = getLogger("array");
    let built = 0;
    log.debug(() => {
      built++;
      return "x";
    });
    log.warn("nothing is on");
    expect(built).toBe(0);
    expect(sink.lines).toEqual([]);
    expect(log.enabled("warn")).toBe(false);
  });

  it("lets the most specific setting win, children following their parents", () => {
    const sink = collector();
    setLogger(sink);
    setLogLevels("*:warn,store:info,store:http:debug");
    expect(getLogger("store:fs").enabled("info")).toBe(true);
    expect(getLogger("store:fs").enabled("debug")).toBe(false);
    expect(getLogger("store:http").enabled("debug")).toBe(true);
    expect(getLogger("codec").enabled("info")).toBe(false);
    expect(getLogger("codec").enabled("warn")).toBe(true);
    setLogLevel("store", undefined);
    expect(getLogLevel("store")).toBeUndefined();
    expect(getLogger("store:fs").enabled("info")).toBe(false);
    getLogger("store:http").debug("GET x", { key: "x" });
    expect(sink.lines).toEqual([
      ["debug", "zarr:store:http debug GET x", { namespace: "store:http", key: "x" }],
    ]);
    expect(() => setLogLevel("store", "loud" as "debug")).toThrow(/Unknown log level "loud"/);
  });

  it("agrees with a reference model of settings for any sequence of them", () => {
    const names = ["*", "store", "store:fs", "codec", "array"];
    const levels = ["debug", "info", "warn", "off", undefined] as const;
    const rank = { debug: 10, info: 20, warn: 30, off: 100 };
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...names), fc.constantFrom(...levels)), { maxLength: 8 }),
        fc.constantFrom("store:fs", "store:http", "codec", "array", "group"),
        fc.constantFrom("debug", "info", "warn") as fc.Arbitrary<"debug" | "info" | "warn">,
        (settings, namespace, level) => {
          resetLogLevels();
          const model = new Map<string, keyof typeof rank>();
          for (const [name, value] of settings) {
            setLogLevel(name, value);
            if (value === undefined) model.delete(name);
            else model.set(name, value);
          }
          const parts = namespace.split(":");
          let threshold: keyof typeof rank = model.get("*") ?? "off";
          for (let n = parts.length; n > 0; n--) {
            const own = model.get(parts.slice(0, n).join(":"));
            if (own !== undefined) {
              threshold = own;
              break;
            }
          }
          expect(getLogger(namespace).enabled(level)).toBe(rank[level] >= rank[threshold]);
        },
      ),
    );
  });

  it("sends messages to a plugged-in logger and restores the previous one", () => {
    const first = collector();
    const second = collector();
    expect(setLogger(first)).toBeUndefined();
    setLogLevel("group", "info");
    getLogger("group").info("opened");
    expect(setLogger(second)).toBe(first);
    getLogger("group").info("again");
    expect(first.lines.map(([, m]) => m)).toEqual(["zarr:group info opened"]);
    expect(second.lines.map(([, m]) => m)).toEqual(["zarr:group info again"]);
  });
});
