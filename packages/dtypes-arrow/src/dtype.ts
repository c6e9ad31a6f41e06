import { CodecConfigError } from "@z/codecs";
import { formatValue } from "@z/errors";
import {
  type DataType,
  FillValueError,
  isJsonObject,
  type JsonObject,
  type JsonValue,
  MetadataError,
  type ZarrFormat,
} from "@z/metadata";
import type { DataType as ArrowJsDataType, Field as ArrowJsField } from "apache-arrow";
import { coerceElement, isArrowScalar } from "./elements/coerce.js";
import { elementsEqual } from "./elements/equal.js";
import { arrowElementFromJson, arrowElementToJson } from "./elements/json.js";
import { zeroElement } from "./elements/zero.js";
import { ArrowFieldError, ArrowValueError } from "./errors.js";
import { arrowFieldFrom } from "./field/from-arrow.js";
import { type ArrowField, describeArrowType } from "./field/model.js";
import { parseArrowField } from "./field/parse-json.js";
import { arrowFieldToJson } from "./field/to-json.js";

import { ARROW_DATA_TYPE } from "./names.js";

export { ARROW_DATA_TYPE };

/** The version of the `arrow` data type's configuration this package writes and reads. */
export const ARROW_DATA_TYPE_VERSION = "0.1.0";

/**
 * The v3 data type `arrow`: any Arrow field as the element type of a Zarr array.
 *
 * ```json
 * "data_type": {"name": "arrow", "configuration": {"version": "0.1.0", "field": {
 *   "name": "tags", "nullable": true, "type": {"name": "list"},
 *   "children": [{"name": "item", "nullable": false, "type": {"name": "utf8"}, "children": []}]}}}
 * ```
 *
 * The field is in Arrow's JSON integration-test format. Elements are held in a plain array
 * (`unknown[]`), one JavaScript value per element: see the package README for the forms
 * (numbers, bigints for 64-bit integers and temporal types, strings, Uint8Arrays, decimal
 * strings, arrays, objects, `[key, value]` pairs, `{typeId, value}`), `null` for nulls. The fill
 * value is `null` for a nullable field (so chunks never written read as nulls), otherwise an
 * element in JSON form (the zero of the type by default). Store it with the `z.arrow-ipc` codec
 * (or `arrow-ipc`): it has no fixed-size encoding.
 */
export class ArrowDataType implements DataType<unknown, unknown[]> {
  readonly kind = "other";

  /** Arrow elements are stored as one Arrow IPC stream per chunk (`z.arrow-ipc`). */
  defaultSerializer() {
    return { name: "z.arrow-ipc" };
  }
  readonly itemSize = 0;
  readonly lanes = 1;
  readonly endianSensitive = false;
  /** A readable name: `arrow<list<utf8>>`. */
  readonly name: string;
  /** `null` for a nullable field, otherwise the zero of the type. */
  readonly defaultFill: unknown;
  private readonly json: JsonObject;

  /** @param field a validated field (see {@link arrowDataType} to build one from JSON or apache-arrow) */
  constructor(readonly field: ArrowField) {
    this.name = `arrow<${describeArrowType(field)}>`;
    this.defaultFill =
      field.nullable || field.type.name === "null" ? null : deepFreeze(zeroElement(field));
    this.json = arrowFieldToJson(field);
  }

  /**
   * The data type a v3 `data_type` object describes.
   * @throws ArrowFieldError when its configuration or field does not parse
   */
  static fromV3(json: JsonValue): ArrowDataType {
    const where = "data_type";
    if (json === ARROW_DATA_TYPE) {
      throw new ArrowFieldError(
        `${where}: the arrow data type needs a configuration {"version": "${ARROW_DATA_TYPE_VERSION}", "field": {...}}`,
      );
    }
    if (!isJsonObject(json) || json.name !== ARROW_DATA_TYPE) {
      throw new ArrowFieldError(
        `${where}: expected {"name": "arrow", "configuration": {...}}, got ${formatValue(json)}`,
      );
    }
    for (const key of Object.keys(json)) {
      if (key !== "name" && key !== "configuration" && key !== "must_understand") {
        throw new ArrowFieldError(`${where}: unknown member "${key}"`);
      }
    }
    const config = json.configuration;
    if (!isJsonObject(config)) {
      throw new ArrowFieldError(
        `${where}: the arrow data type needs a configuration {"version": "${ARROW_DATA_TYPE_VERSION}", "field": {...}}`,
      );
    }
    for (const key of Object.keys(config)) {
      if (key !== "version" && key !== "field") {
        throw new ArrowFieldError(
          `${where}.configuration: unknown member "${key}" (it has version and field)`,
        );
      }
    }
    if (config.version !== ARROW_DATA_TYPE_VERSION) {
      throw new ArrowFieldError(
        `${where}.configuration.version: ${formatValue(config.version)} is not a version this package reads (it reads "${ARROW_DATA_TYPE_VERSION}")`,
      );
    }
    return new ArrowDataType(parseArrowField(config.field, `${where}.configuration.field`));
  }

  create(length: number): unknown[] {
    return new Array(length).fill(this.defaultFill);
  }

  toV3(): JsonValue {
    return {
      name: ARROW_DATA_TYPE,
      configuration: { version: ARROW_DATA_TYPE_VERSION, field: structuredClone(this.json) },
    };
  }

  toV2(): JsonValue {
    throw new MetadataError(
      `The ${this.name} data type is a Zarr v3 extension; v2 metadata cannot describe it`,
    );
  }

  encode(): Uint8Array {
    throw this.noFixedSize();
  }

  decode(): unknown[] {
    throw this.noFixedSize();
  }

  private noFixedSize(): CodecConfigError {
    return new CodecConfigError(
      `The ${this.name} data type has no fixed-size encoding, so the "bytes" codec cannot store it; ` +
        'use the "z.arrow-ipc" codec as the array-to-bytes codec (serializer: "z.arrow-ipc")',
    );
  }

  parseFill(json: JsonValue, _format: ZarrFormat): unknown {
    if (json === null) {
      if (this.defaultFill === null) return null;
      throw new FillValueError(
        `The ${this.name} field is not nullable, so its fill value cannot be null`,
      );
    }
    try {
      return deepFreeze(arrowElementFromJson(this.field, json, "the fill value"));
    } catch (error) {
      if (error instanceof ArrowValueError) throw new FillValueError(error.message);
      throw error;
    }
  }

  fillToJson(value: unknown): JsonValue {
    return arrowElementToJson(this.field, value);
  }

  coerce(value: unknown): unknown {
    return coerceElement(this.field, value);
  }

  isScalar(value: unknown): boolean {
    return isArrowScalar(this.field, value);
  }

  fill(data: unknown[], value: unknown, start?: number, end?: number): void {
    data.fill(value, start, end);
  }

  isAllFill(data: unknown[], value: unknown): boolean {
    if (value === null) {
      for (let i = 0; i < data.length; i++)
        if (data[i] !== null && data[i] !== undefined) return false;
      return true;
    }
    for (let i = 0; i < data.length; i++) if (!elementsEqual(data[i], value)) return false;
    return true;
  }

  getElement(data: unknown[], index: number): unknown {
    return data[index];
  }

  setElement(data: unknown[], index: number, value: unknown): void {
    data[index] = value;
  }

  toJsonElement(value: unknown): JsonValue {
    return arrowElementToJson(this.field, value);
  }
}

/**
 * Freezes a fill value's arrays and objects: containers share one fill value among all the
 * elements they fill, so changing one element in place must fail rather than change them all.
 */
function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== "object" || ArrayBuffer.isView(value)) return value;
  for (const item of Object.values(value)) deepFreeze(item);
  return Object.freeze(value);
}

/** Whether a data type is an {@link ArrowDataType}. */
export function isArrowDataType(dataType: DataType): dataType is ArrowDataType {
  return dataType instanceof ArrowDataType;
}

/** Options of {@link arrowDataType} for an apache-arrow DataType (a Field carries its own). */
export interface ArrowDataTypeOptions {
  /** The field name (default `"values"`). */
  name?: string;
  /** Whether elements may be null (default true). */
  nullable?: boolean;
}

/**
 * The `arrow` data type of a field, to pass as `dtype` to `createArray`: the field in Arrow's
 * JSON integration-test form, an apache-arrow `Field`, or an apache-arrow `DataType` (named and
 * made nullable by `options`).
 *
 * ```ts
 * import { Field, List, Utf8 } from "apache-arrow";
 * const tags = arrowDataType(new Field("tags", new List(new Field("item", new Utf8(), false)), true));
 * const arr = await createArray(store, { shape: [1000], chunks: [100], dtype: tags, serializer: "z.arrow-ipc" });
 * ```
 * @throws ArrowFieldError when the field does not parse or has an unsupported type
 * @example
 * ```ts
 * const labels = await createArray(store, {
 *   shape: [100],
 *   dtype: arrowDataType({ name: "label", nullable: true, type: { name: "utf8" }, children: [] }),
 *   serializer: "z.arrow-ipc",
 * });
 * ```
 * @category Data types
 */
export function arrowDataType(
  field: JsonValue | ArrowField | ArrowJsField | ArrowJsDataType,
  options: ArrowDataTypeOptions = {},
): ArrowDataType {
  const source = field as { typeId?: unknown; type?: { typeId?: unknown } };
  if (source !== null && typeof source === "object") {
    if (typeof source.type?.typeId === "number")
      return new ArrowDataType(arrowFieldFrom(field as ArrowJsField));
    if (typeof source.typeId === "number") {
      return new ArrowDataType(
        arrowFieldFrom(
          field as ArrowJsDataType,
          options.name ?? "values",
          options.nullable ?? true,
        ),
      );
    }
  }
  return new ArrowDataType(parseArrowField(field as JsonValue));
}
