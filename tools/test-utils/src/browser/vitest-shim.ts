/**
 * The small part of vitest's API the store contract suite uses (`describe`, `test`/`it` with
 * `.skip` and `.fails`, `afterEach`, `expect` with the matchers it calls, `context.skip`), for
 * running that suite in a browser page: a browser bundle maps the module `vitest` here, so the
 * page runs the very same checks, then {@link runRegisteredTests} runs them and reports each.
 * Runs in browsers: no Node built-ins.
 */

/** What a test function gets: `skip(condition, note)` ends the test as skipped. */
export interface TestContext {
  skip(condition?: boolean, note?: string): void;
}

type TestFn = (context: TestContext) => unknown;
type Mode = "run" | "skip" | "fails";

interface Suite {
  name: string;
  parent: Suite | undefined;
  children: (Suite | Case)[];
  afterEach: (() => unknown)[];
}

interface Case {
  name: string;
  suite: Suite;
  fn: TestFn;
  mode: Mode;
}

/** The outcome of one registered test, as the page reports it. */
export interface ShimTestResult {
  /** The describe names and the test name, joined with `" > "`. */
  name: string;
  status: "passed" | "failed" | "skipped";
  /** Why it failed (or the skip note). */
  message?: string;
}

const root: Suite = { name: "", parent: undefined, children: [], afterEach: [] };
let current = root;

/** Groups tests, like vitest's `describe`: the callback registers them synchronously. */
export function describe(name: string, body: () => void): void {
  const suite: Suite = { name, parent: current, children: [], afterEach: [] };
  current.children.push(suite);
  const outer = current;
  current = suite;
  try {
    body();
  } finally {
    current = outer;
  }
}

function register(mode: Mode) {
  return (name: string, fn: TestFn) => {
    current.children.push({ name, suite: current, fn, mode });
  };
}

/** Registers a test, like vitest's `test`, with `test.skip` and `test.fails`. */
export const test = Object.assign(register("run"), {
  skip: register("skip"),
  fails: register("fails"),
});

/** Same as {@link test}. */
export const it = test;

/** Runs `fn` after each test of the enclosing `describe` (and the ones nested in it). */
export function afterEach(fn: () => unknown): void {
  current.afterEach.push(fn);
}

/** Thrown by `context.skip(true)`: ends the test as skipped. */
class SkipSignal extends Error {}

/** Deep equality in the manner of vitest's `toEqual` (undefined properties are ignored). */
function equals(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (ArrayBuffer.isView(a) || ArrayBuffer.isView(b)) {
    if (!ArrayBuffer.isView(a) || !ArrayBuffer.isView(b)) return false;
    if (a.constructor !== b.constructor) return false;
    const x = a as unknown as ArrayLike<unknown>;
    const y = b as unknown as ArrayLike<unknown>;
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!Object.is(x[i], y[i])) return false;
    return true;
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const y = b as unknown[];
    return a.length === y.length && a.every((v, i) => equals(v, y[i]));
  }
  if (a instanceof Map || b instanceof Map) {
    if (!(a instanceof Map && b instanceof Map) || a.size !== b.size) return false;
    for (const [k, v] of a) if (!b.has(k) || !equals(v, b.get(k))) return false;
    return true;
  }
  if (a instanceof Set || b instanceof Set) {
    if (!(a instanceof Set && b instanceof Set) || a.size !== b.size) return false;
    for (const v of a) if (!b.has(v)) return false;
    return true;
  }
  const defined = (o: object) =>
    Object.keys(o).filter((k) => (o as Record<string, unknown>)[k] !== undefined);
  const ka = defined(a);
  const kb = defined(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) =>
    equals((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
  );
}

/** A short readable form of a value for failure messages. */
function show(value: unknown): string {
  if (ArrayBuffer.isView(value)) {
    const items = Array.from(value as unknown as ArrayLike<number>).slice(0, 16);
    const length = (value as unknown as ArrayLike<number>).length;
    return `${value.constructor.name}(${length}) [${items.join(", ")}${length > 16 ? ", …" : ""}]`;
  }
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  if (typeof value === "string") return JSON.stringify(value);
  try {
    const text = JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? `${v}n` : v));
    return text === undefined ? String(value) : text.slice(0, 300);
  } catch {
    return String(value);
  }
}

/** The matchers the contract suite uses; `not` negates them. */
export interface Matchers {
  not: Matchers;
  toBe(expected: unknown): void;
  toEqual(expected: unknown): void;
  toBeDefined(): void;
  toBeUndefined(): void;
  toBeInstanceOf(expected: abstract new (...args: never[]) => unknown): void;
  toContain(item: unknown): void;
  toHaveLength(length: number): void;
  toBeGreaterThan(n: number): void;
  toBeTruthy(): void;
}

function matchers(actual: unknown, message: string | undefined, negated: boolean): Matchers {
  const check = (ok: boolean, describeFailure: () => string) => {
    if (ok === negated) {
      const text = `expected ${show(actual)} ${negated ? "not " : ""}${describeFailure()}`;
      throw new Error(message ? `${message}: ${text}` : text);
    }
  };
  return {
    get not() {
      return matchers(actual, message, !negated);
    },
    toBe: (expected) => check(Object.is(actual, expected), () => `to be ${show(expected)}`),
    toEqual: (expected) => check(equals(actual, expected), () => `to equal ${show(expected)}`),
    toBeDefined: () => check(actual !== undefined, () => "to be defined"),
    toBeUndefined: () => check(actual === undefined, () => "to be undefined"),
    toBeInstanceOf: (expected) =>
      check(actual instanceof expected, () => `to be an instance of ${expected.name}`),
    toContain: (item) =>
      check(
        (Array.isArray(actual) || typeof actual === "string") &&
          (actual as unknown[]).includes(item as never),
        () => `to contain ${show(item)}`,
      ),
    toHaveLength: (length) =>
      check((actual as { length?: number })?.length === length, () => `to have length ${length}`),
    toBeGreaterThan: (n) => check((actual as number) > n, () => `to be greater than ${n}`),
    toBeTruthy: () => check(Boolean(actual), () => "to be truthy"),
  };
}

/** Starts an assertion, like vitest's `expect(actual, message)`. */
export function expect(actual: unknown, message?: string): Matchers {
  return matchers(actual, message, false);
}

/** Runs `fn` with a time limit, so a hung store fails its test instead of the whole page. */
async function withTimeout(run: () => unknown, ms: number, name: string): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      Promise.resolve().then(run),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${name} did not finish in ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/**
 * Runs every registered test in order (after-each hooks of the enclosing suites after each) and
 * resolves to one result per test; `onResult` sees each as it finishes.
 */
export async function runRegisteredTests(
  options: { timeoutMs?: number; onResult?: (result: ShimTestResult) => void } = {},
): Promise<ShimTestResult[]> {
  const results: ShimTestResult[] = [];
  const timeoutMs = options.timeoutMs ?? 60_000;
  const visit = async (suite: Suite, path: string[]) => {
    for (const child of suite.children) {
      if ("children" in child) {
        await visit(child, [...path, child.name]);
        continue;
      }
      const name = [...path, child.name].join(" > ");
      const result = await runCase(child, name, timeoutMs);
      results.push(result);
      options.onResult?.(result);
    }
  };
  await visit(root, []);
  return results;
}

async function runCase(c: Case, name: string, timeoutMs: number): Promise<ShimTestResult> {
  if (c.mode === "skip") return { name, status: "skipped" };
  let error: unknown;
  let skipped: string | undefined;
  const context: TestContext = {
    skip(condition = true, note = "") {
      if (condition) throw new SkipSignal(note);
    },
  };
  try {
    await withTimeout(() => c.fn(context), timeoutMs, name);
  } catch (caught) {
    if (caught instanceof SkipSignal) skipped = caught.message;
    else error = caught;
  }
  for (let suite: Suite | undefined = c.suite; suite; suite = suite.parent) {
    for (const hook of suite.afterEach) {
      try {
        await withTimeout(hook, timeoutMs, `afterEach of ${name}`);
      } catch (caught) {
        error ??= caught;
      }
    }
  }
  if (skipped !== undefined && error === undefined)
    return { name, status: "skipped", message: skipped };
  if (c.mode === "fails")
    return error === undefined
      ? { name, status: "failed", message: "expected to fail (test.fails), but it passed" }
      : { name, status: "passed" };
  return error === undefined
    ? { name, status: "passed" }
    : { name, status: "failed", message: errorText(error) };
}
