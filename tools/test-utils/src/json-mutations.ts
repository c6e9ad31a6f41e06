import fc from "fast-check";

/** A JSON value as metadata holds it (integers beyond 2^53 as bigints). */
type Json = null | boolean | number | bigint | string | Json[] | { [key: string]: Json };

/**
 * Values that have broken metadata parsers: integers beyond 2^53, negative, fractional and
 * non-finite numbers, empty and oversized type strings, empty lists and objects, sizes far
 * beyond memory, plus arbitrary small JSON.
 */
export const hostileJsonValue: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>(
    2n ** 64n,
    2n ** 53n + 2n,
    -1,
    0,
    1.5,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    1e308,
    "",
    "|V99999999999",
    "|V2000000000",
    "<U999999999",
    "r99999999999999",
    null,
    true,
    [],
    {},
    [2n ** 64n],
    [0],
    [-1, 2],
    { name: "raw_bytes", configuration: { length_bytes: 2 ** 40 } },
    { name: "struct", configuration: { fields: [] } },
    { name: "sharding_indexed", configuration: { chunk_shape: [2n ** 60n] } },
  ),
  fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>,
);

/** A change to a JSON document: it returns a changed copy and leaves its input alone. */
export type JsonMutation = <T>(doc: T) => T;

/**
 * A random change at a random place of a JSON document: a value replaced by a
 * {@link hostileJsonValue}, deleted, or wrapped in a list with one.
 */
export const jsonMutation: fc.Arbitrary<JsonMutation> = fc
  .tuple(fc.nat(), fc.constantFrom("replace", "delete", "wrap"), hostileJsonValue)
  .map(([pick, kind, value]) => {
    const mutate = <T>(doc: T): T => {
      const copy = structuredClone(doc) as Json;
      const slots: { parent: Json[] | { [key: string]: Json }; key: string | number }[] = [];
      const collect = (v: Json) => {
        if (Array.isArray(v)) {
          v.forEach((item, i) => {
            slots.push({ parent: v, key: i });
            collect(item);
          });
        } else if (v && typeof v === "object") {
          for (const [k, item] of Object.entries(v)) {
            slots.push({ parent: v, key: k });
            collect(item);
          }
        }
      };
      collect(copy);
      if (slots.length === 0) return value as T;
      const { parent, key } = slots[pick % slots.length];
      const target = parent as Record<string | number, Json>;
      if (kind === "delete") {
        if (Array.isArray(parent)) parent.splice(key as number, 1);
        else delete target[key];
      } else if (kind === "wrap") target[key] = [target[key], value];
      else target[key] = value;
      return copy as T;
    };
    return mutate as JsonMutation;
  });
