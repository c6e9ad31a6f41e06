import { ZarrArray, type ZarrGroup } from "@z/zarr";
import { fillValueJson } from "../json-values.js";
import { compareValues, type ValueComparison } from "./array-values.js";
import { EXACT, elementsEqual, type Tolerance } from "./element-equality.js";

/** A metadata field that differs between two nodes (or a node only one side has). */
export interface MetadataDifference {
  /** The node's path, starting with `/`. */
  path: string;
  /** What differs: `node_type`, `shape`, `data_type`, `fill_value`, `attributes`, or `exists`. */
  field: string;
  /** The first node's value (`exists`: whether it has the node). */
  a: unknown;
  /** The second node's value. */
  b: unknown;
}

/** The values of one pair of arrays that differ. */
export interface ArrayDifference extends ValueComparison {
  /** The arrays' path, starting with `/`. */
  path: string;
}

/** What comparing two nodes (and everything below them) found. */
export interface Comparison {
  /** Array pairs compared. */
  arrays: number;
  /** Group pairs compared. */
  groups: number;
  /** Metadata that differs, in the order met (parents before children, names sorted). */
  metadata: MetadataDifference[];
  /** Arrays whose values differ. */
  values: ArrayDifference[];
}

/** What to compare. */
export interface CompareSettings {
  /** When numbers count as equal. */
  tolerance: Tolerance;
  /** Compare metadata only, not values. */
  metadataOnly: boolean;
  /** How many differing elements to keep per array. */
  limit: number;
}

/** Metadata values are JSON: equal part by part, keys in any order, NaN equal to NaN. */
const sameJson = (a: unknown, b: unknown) => elementsEqual(a, b, { ...EXACT, equalNan: true });

const pathOf = (node: ZarrArray | ZarrGroup) => `/${node.path}`;

function field(found: Comparison, path: string, name: string, a: unknown, b: unknown): boolean {
  if (sameJson(a, b)) return true;
  found.metadata.push({ path, field: name, a, b });
  return false;
}

async function compareArrays(
  a: ZarrArray,
  b: ZarrArray,
  settings: CompareSettings,
  found: Comparison,
) {
  found.arrays++;
  const path = pathOf(a);
  // The data type by its v3 name, so a v2 "<i4" and a v3 "int32" are the same type.
  const sameShape = field(found, path, "shape", [...a.shape], [...b.shape]);
  field(found, path, "data_type", a.metadata.dataType.toV3(), b.metadata.dataType.toV3());
  // A v2 fill value of null means "none": it matches whatever the other array has.
  const [fillA, fillB] = [fillValueJson(a), fillValueJson(b)];
  if (fillA !== null && fillB !== null) field(found, path, "fill_value", fillA, fillB);
  field(found, path, "attributes", a.attrs, b.attrs);
  if (settings.metadataOnly || !sameShape) return;
  const values = await compareValues(a, b, settings.tolerance, settings.limit);
  if (values.differing > 0) found.values.push({ path, ...values });
}

async function compareGroups(
  a: ZarrGroup,
  b: ZarrGroup,
  settings: CompareSettings,
  found: Comparison,
) {
  found.groups++;
  field(found, pathOf(a), "attributes", a.attrs, b.attrs);
  const [namesA, namesB] = await Promise.all([a.childNames(), b.childNames()]);
  const inB = new Set(namesB);
  const names = [...new Set([...namesA, ...namesB])].sort();
  for (const name of names) {
    const path = a.path === "" ? `/${name}` : `/${a.path}/${name}`;
    const hasA = namesA.includes(name);
    if (!hasA || !inB.has(name)) {
      found.metadata.push({ path, field: "exists", a: hasA, b: inB.has(name) });
      continue;
    }
    const [childA, childB] = await Promise.all([a.get(name), b.get(name)]);
    await compareNodes(childA, childB, settings, found);
  }
}

/**
 * Compares two nodes: arrays by shape, data type, fill value, attributes and (unless
 * `metadataOnly`) values element by element; groups by attributes and members, recursively.
 * The storage (format, chunking, codecs) is not compared: equal values stored differently
 * are equal.
 */
export async function compareNodes(
  a: ZarrArray | ZarrGroup,
  b: ZarrArray | ZarrGroup,
  settings: CompareSettings,
  found: Comparison = { arrays: 0, groups: 0, metadata: [], values: [] },
): Promise<Comparison> {
  const kindA = a instanceof ZarrArray ? "array" : "group";
  const kindB = b instanceof ZarrArray ? "array" : "group";
  if (kindA !== kindB)
    found.metadata.push({ path: pathOf(a), field: "node_type", a: kindA, b: kindB });
  else if (a instanceof ZarrArray) await compareArrays(a, b as ZarrArray, settings, found);
  else await compareGroups(a, b as ZarrGroup, settings, found);
  return found;
}
