import { describe, expect, expectTypeOf, it } from "vitest";
import {
  type BrandedError,
  errorNames,
  isZarrError,
  locateError,
  nameErrorClass,
  ZARR_ERROR_BRAND,
  ZarrError,
  type ZarrErrorName,
} from "../src/index.js";

/** What a catch clause sees: a value of unknown type. */
function caught(error: unknown): unknown {
  return error;
}

/** A class hierarchy as a package declares one, registered by declaration merging below. */
class TestStoreError extends ZarrError {
  static {
    nameErrorClass(TestStoreError, "TestStoreError");
  }
  declare readonly key: string;
  constructor(key: string, options?: { cause?: unknown }) {
    super(`Cannot read ${JSON.stringify(key)}`, { ...options, key });
  }
}
class TestMissingError extends TestStoreError {
  static {
    nameErrorClass(TestMissingError, "TestMissingError");
  }
  readonly retries = 3;
}
/** A subclass as other code writes them: the name as an instance field. */
class TestFieldNamedError extends TestStoreError {
  override name = "TestFieldNamedError";
}

declare module "../src/index.js" {
  interface ZarrErrorMap {
    TestStoreError: TestStoreError;
    TestMissingError: TestMissingError;
  }
}

describe("isZarrError", () => {
  it("recognises branded errors and nothing else", () => {
    expect(isZarrError(new TestStoreError("a"))).toBe(true);
    expect(isZarrError(new ZarrError("x"))).toBe(true);
    for (const other of [new Error("x"), new TypeError("x"), "ZarrError", null, undefined, 7, {}]) {
      expect(isZarrError(other)).toBe(false);
      expect(isZarrError(other, "ZarrError")).toBe(false);
    }
  });

  it("recognises the brand of another copy of the package (Symbol.for), without instanceof", () => {
    const foreign = Object.assign(new Error("from another copy"), {
      name: "TestMissingError",
      [Symbol.for("@z/error")]: true,
    });
    expect(foreign).not.toBeInstanceOf(ZarrError);
    expect(isZarrError(foreign)).toBe(true);
    expect(isZarrError(foreign, "TestMissingError")).toBe(true);
    expect(isZarrError(foreign, "TestStoreError")).toBe(false);
  });

  it("matches a name by the class or any class it extends, never a sibling or a subclass", () => {
    const missing = new TestMissingError("k");
    expect(errorNames(missing)).toEqual(["TestMissingError", "TestStoreError", "ZarrError"]);
    expect(isZarrError(missing, "TestMissingError")).toBe(true);
    expect(isZarrError(missing, "TestStoreError")).toBe(true);
    expect(isZarrError(missing, "ZarrError")).toBe(true);
    const plain = new TestStoreError("k");
    expect(isZarrError(plain, "TestStoreError")).toBe(true);
    expect(isZarrError(plain, "TestMissingError")).toBe(false);
    // An instance-field name (how some subclasses are written) still matches, with its bases.
    const fieldNamed = new TestFieldNamedError("k");
    expect(errorNames(fieldNamed)).toEqual(["TestFieldNamedError", "TestStoreError", "ZarrError"]);
    expect(isZarrError(fieldNamed, "TestStoreError")).toBe(true);
  });

  it("narrows to the class registered under the name, with its fields", () => {
    const error = caught(new TestMissingError("a/c/0", { cause: new Error("disk") }));
    if (isZarrError(error, "TestMissingError")) {
      expectTypeOf(error).toEqualTypeOf<TestMissingError>();
      expectTypeOf(error.key).toEqualTypeOf<string>();
      expect(error.key).toBe("a/c/0");
      expect(error.retries).toBe(3);
      expect((error.cause as Error).message).toBe("disk");
    } else {
      expect.unreachable("a TestMissingError is one");
    }
    const other = caught(new ZarrError("x"));
    if (isZarrError(other)) expectTypeOf(other).toEqualTypeOf<BrandedError>();
    expectTypeOf<"TestMissingError" | "ZarrError">().toExtend<ZarrErrorName>();
    expectTypeOf<"NoSuchError">().not.toExtend<ZarrErrorName>();
    // @ts-expect-error: a name no class is registered under
    isZarrError(error, "NoSuchError");
  });

  it("puts the name in the stack and in String(error)", () => {
    const error = new TestMissingError("k");
    expect(error.name).toBe("TestMissingError");
    expect(String(error)).toBe('TestMissingError: Cannot read "k"');
    expect(error.stack?.split("\n")[0]).toBe('TestMissingError: Cannot read "k"');
    expect(Object.keys(error)).not.toContain("name");
    expect(error[ZARR_ERROR_BRAND]).toBe(true);
  });
});

describe("ZarrError facts", () => {
  it("keeps the facts given to the constructor, and only those", () => {
    const cause = new RangeError("inflate");
    const error = new ZarrError("corrupt", { key: "a/c/0", codec: "gzip", cause });
    expect(error).toMatchObject({ key: "a/c/0", codec: "gzip", message: "corrupt" });
    expect(error.cause).toBe(cause);
    expect(error.path).toBeUndefined();
    const bare = new ZarrError("bare");
    expect("key" in bare || "path" in bare || "codec" in bare || "cause" in bare).toBe(false);
  });
});

describe("locateError", () => {
  it("adds the facts an error lacks and names the place once, keeping the class", () => {
    const error = new TestMissingError("inner");
    const thrown = locateError(error, "chunk /a/c/0", { key: "a/c/0", codec: "gzip" });
    expect(thrown).toBe(error);
    expect(error.key).toBe("inner"); // the innermost fact stays
    expect(error.codec).toBe("gzip");
    expect(error.message).toBe('chunk /a/c/0: Cannot read "inner"');
    locateError(error, "chunk /a/c/0", { key: "a/c/0" });
    expect(error.message).toBe('chunk /a/c/0: Cannot read "inner"');
  });

  it("names the place in other errors' messages without adding fields; leaves non-errors alone", () => {
    const error = new RangeError("offset out of range");
    locateError(error, "chunk /c/1", { key: "c/1" });
    expect(error.message).toBe("chunk /c/1: offset out of range");
    expect("key" in error).toBe(false);
    expect(locateError("text", "chunk /c/1")).toBe("text");
  });

  it("with an empty place only records facts", () => {
    const error = new ZarrError("bad bytes");
    locateError(error, "", { codec: "zstd" });
    expect(error.message).toBe("bad bytes");
    expect(error.codec).toBe("zstd");
  });
});
