import type { DataType } from "@z/metadata";

/** The family of a NumPy numeric type. */
export type NumericKind = "bool" | "int" | "uint" | "float";

/** A NumPy numeric type: its family and width. */
export interface NumericType {
  /** The v3 data type name (`"int16"`, `"float32"`, `"bool"`). */
  readonly name: string;
  /** Its family. */
  readonly kind: NumericKind;
  /** Its width in bits (8 for bool). */
  readonly bits: number;
}

/** A dtype field of a numcodecs filter configuration, resolved. */
export interface FilterDtype {
  /** The string the configuration gave (written back unchanged by `toJson`). */
  readonly json: string;
  /** The data type it names (byte order aside: filters see native-endian elements). */
  readonly dataType: DataType;
  /** Its NumPy numeric type. */
  readonly type: NumericType;
}
