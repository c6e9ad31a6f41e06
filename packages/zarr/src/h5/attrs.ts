import type { JsonObject, JsonValue } from "@z/metadata";
import { isTypedArray } from "@z/ndarray";
import { NotFoundError } from "@z/store-core";
import { H5ValueError } from "./errors.js";

/**
 * The attribute key under which a dataset's h5py `maxshape` is kept (Zarr has no maxshape):
 * a list with one entry per axis, a number or `null` for unlimited. The attribute manager hides
 * it and refuses to change it.
 */
export const MAXSHAPE_ATTRIBUTE = "_H5_MAXSHAPE";

const RESERVED = new Set([MAXSHAPE_ATTRIBUTE]);

/** Where an attribute manager reads and writes: a group's or a dataset's attributes. */
export interface AttributeOwner {
  /** The object's name, for messages. */
  readonly name: string;
  /** The attributes as they are now. */
  readAttributes(): JsonObject;
  /** Throws when the attributes may not be written (the file mode). */
  checkWritable(): void;
  /** Replaces all the attributes. */
  writeAttributes(attributes: JsonObject): Promise<void>;
}

/** Turns what a user stores as an attribute into JSON: TypedArrays and n-d values become (nested) lists. */
function toJson(value: unknown, name: string): JsonValue {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number" || typeof value === "bigint") return value;
  if (isTypedArray(value)) return Array.from(value as ArrayLike<number | bigint>) as JsonValue;
  if (Array.isArray(value)) return value.map((v) => toJson(v, name));
  if (typeof value === "object") {
    const nd = value as { data?: unknown; shape?: unknown };
    if (nd.data !== undefined && Array.isArray(nd.shape))
      return nested(toJson(nd.data, name) as JsonValue[], nd.shape as number[]);
    return Object.fromEntries(
      Object.entries(value as object).map(([k, v]) => [k, toJson(v, name)]),
    );
  }
  throw new H5ValueError(
    `Attribute ${JSON.stringify(name)}: cannot store a ${typeof value} as an attribute`,
  );
}

function nested(flat: JsonValue[], shape: readonly number[]): JsonValue {
  if (shape.length <= 1) return shape.length === 0 ? flat[0] : flat;
  const step = flat.length / shape[0];
  return Array.from({ length: shape[0] }, (_, i) =>
    nested(flat.slice(i * step, (i + 1) * step), shape.slice(1)),
  );
}

/**
 * h5py's `AttributeManager` (`obj.attrs`): reads are synchronous, from the metadata already
 * loaded; writes (`set`, `create`, `modify`, `delete`) are async and rewrite the metadata.
 * Values are JSON: numbers, strings, booleans, lists, objects; TypedArrays and `{data, shape}`
 * values are stored as (nested) lists.
 *
 * | h5py | here |
 * |---|---|
 * | `obj.attrs["units"]` | `obj.attrs.get("units")` |
 * | `obj.attrs.get("units", None)` | `obj.attrs.get("units", null)` |
 * | `obj.attrs["units"] = "K"` | `await obj.attrs.set("units", "K")` |
 * | `del obj.attrs["units"]` | `await obj.attrs.delete("units")` |
 * | `"units" in obj.attrs` | `obj.attrs.has("units")` |
 * | `list(obj.attrs)` | `obj.attrs.keys()` |
 */
export class AttributeManager implements Iterable<string> {
  constructor(private readonly owner: AttributeOwner) {}

  private visible(): [string, JsonValue][] {
    return Object.entries(this.owner.readAttributes()).filter(([key]) => !RESERVED.has(key));
  }

  private checkName(name: string): void {
    if (RESERVED.has(name))
      throw new H5ValueError(
        `Attribute ${JSON.stringify(name)} is reserved (it holds the dataset's maxshape)`,
      );
  }

  /**
   * The value of an attribute (a copy).
   * @throws NotFoundError when there is none and no default is given (h5py's KeyError)
   */
  get(name: string): JsonValue;
  get<T>(name: string, defaultValue: T): JsonValue | T;
  get(name: string, ...rest: unknown[]): unknown {
    const attributes = this.owner.readAttributes();
    if (RESERVED.has(name) || !(name in attributes)) {
      if (rest.length > 0) return rest[0];
      throw new NotFoundError(
        `${this.owner.name}`,
        `attribute ${JSON.stringify(name)}`,
        "can't locate attribute",
      );
    }
    return structuredClone(attributes[name]);
  }

  /** Whether an attribute exists (`name in obj.attrs`). */
  has(name: string): boolean {
    return !RESERVED.has(name) && name in this.owner.readAttributes();
  }

  /** The attribute names, sorted (h5py's default order). */
  keys(): string[] {
    return this.visible()
      .map(([key]) => key)
      .sort();
  }

  /** The values, in key order. */
  values(): JsonValue[] {
    return this.keys().map((key) => this.get(key));
  }

  /** `[name, value]` pairs, in key order. */
  items(): [string, JsonValue][] {
    return this.keys().map((key) => [key, this.get(key)]);
  }

  /** The number of attributes (`len(obj.attrs)`). */
  get length(): number {
    return this.visible().length;
  }

  /** The attribute names (`for name in obj.attrs`). */
  [Symbol.iterator](): Iterator<string> {
    return this.keys()[Symbol.iterator]();
  }

  /**
   * Sets an attribute (`obj.attrs[name] = value`), creating or replacing it.
   * @throws FileModeError on a read-only file; H5ValueError for a reserved name or a value that is not JSON
   */
  async set(name: string, value: unknown): Promise<void> {
    this.owner.checkWritable();
    this.checkName(name);
    const json = toJson(value, name);
    await this.owner.writeAttributes({ ...this.owner.readAttributes(), [name]: json });
  }

  /** h5py's `attrs.create(name, data)`: the same as {@link AttributeManager.set}. */
  async create(name: string, data: unknown): Promise<void> {
    await this.set(name, data);
  }

  /** h5py's `attrs.modify(name, value)`: sets the attribute, creating it if needed. */
  async modify(name: string, value: unknown): Promise<void> {
    await this.set(name, value);
  }

  /**
   * Deletes an attribute (`del obj.attrs[name]`).
   * @throws NotFoundError when there is none
   */
  async delete(name: string): Promise<void> {
    this.owner.checkWritable();
    this.checkName(name);
    const attributes = { ...this.owner.readAttributes() };
    if (!(name in attributes))
      throw new NotFoundError(
        `${this.owner.name}`,
        `attribute ${JSON.stringify(name)}`,
        "can't delete attribute",
      );
    delete attributes[name];
    await this.owner.writeAttributes(attributes);
  }
}
