import fc from "fast-check";

/**
 * Byte-level mutations: truncation, bit flips, hostile integers over length fields, inserted,
 * deleted and appended bytes. Positions are drawn as plain numbers and taken modulo the input's
 * length, so one mutation fits any input and shrinks towards the start.
 */
export type ByteMutation =
  | { op: "truncate"; at: number }
  | { op: "flip"; at: number; bit: number }
  | { op: "setByte"; at: number; value: number }
  | { op: "setInt"; at: number; width: 2 | 4 | 8; value: bigint; littleEndian: boolean }
  | { op: "insert"; at: number; bytes: Uint8Array }
  | { op: "delete"; at: number; length: number }
  | { op: "append"; bytes: Uint8Array }
  | { op: "replace"; bytes: Uint8Array };

/** Integers that break length and offset fields: extremes, off-by-one, sign bits. */
const HOSTILE_INTS = [
  0n,
  1n,
  2n ** 7n,
  2n ** 8n - 1n,
  2n ** 15n,
  2n ** 16n - 1n,
  2n ** 24n,
  2n ** 31n - 1n,
  2n ** 31n,
  2n ** 32n - 1n,
  2n ** 32n,
  2n ** 53n + 1n,
  2n ** 63n,
  2n ** 64n - 2n,
  2n ** 64n - 1n,
];

const smallBytes = fc.uint8Array({ maxLength: 24 });

/** One byte mutation. */
export const byteMutation: fc.Arbitrary<ByteMutation> = fc.oneof(
  fc.record({ op: fc.constant("truncate" as const), at: fc.nat() }),
  fc.record({ op: fc.constant("flip" as const), at: fc.nat(), bit: fc.nat({ max: 7 }) }),
  fc.record({
    op: fc.constant("setByte" as const),
    at: fc.nat(),
    value: fc.oneof(fc.constantFrom(0, 0xff, 0x7f, 0x80), fc.nat({ max: 255 })),
  }),
  fc.record({
    op: fc.constant("setInt" as const),
    at: fc.nat(),
    width: fc.constantFrom(2 as const, 4 as const, 8 as const),
    value: fc.oneof(fc.constantFrom(...HOSTILE_INTS), fc.bigInt({ min: 0n, max: 2n ** 64n - 1n })),
    littleEndian: fc.boolean(),
  }),
  fc.record({ op: fc.constant("insert" as const), at: fc.nat(), bytes: smallBytes }),
  fc.record({ op: fc.constant("delete" as const), at: fc.nat(), length: fc.nat({ max: 64 }) }),
  fc.record({ op: fc.constant("append" as const), bytes: smallBytes }),
  fc.record({ op: fc.constant("replace" as const), bytes: fc.uint8Array({ maxLength: 96 }) }),
);

/** One to three mutations, applied in order. */
export const byteMutations: fc.Arbitrary<ByteMutation[]> = fc.array(byteMutation, {
  minLength: 1,
  maxLength: 3,
});

/** Applies one mutation (never in place). */
export function mutateBytes(input: Uint8Array, m: ByteMutation): Uint8Array {
  const n = input.length;
  switch (m.op) {
    case "truncate":
      return input.slice(0, n === 0 ? 0 : m.at % n);
    case "flip": {
      if (n === 0) return input;
      const out = input.slice();
      out[m.at % n] ^= 1 << m.bit;
      return out;
    }
    case "setByte": {
      if (n === 0) return input;
      const out = input.slice();
      out[m.at % n] = m.value;
      return out;
    }
    case "setInt": {
      if (n < m.width) return input;
      const out = input.slice();
      const at = m.at % (n - m.width + 1);
      let v = m.value & ((1n << BigInt(8 * m.width)) - 1n);
      for (let i = 0; i < m.width; i++) {
        out[m.littleEndian ? at + i : at + m.width - 1 - i] = Number(v & 0xffn);
        v >>= 8n;
      }
      return out;
    }
    case "insert": {
      const at = m.at % (n + 1);
      const out = new Uint8Array(n + m.bytes.length);
      out.set(input.subarray(0, at));
      out.set(m.bytes, at);
      out.set(input.subarray(at), at + m.bytes.length);
      return out;
    }
    case "delete": {
      const at = n === 0 ? 0 : m.at % n;
      const out = new Uint8Array(n - Math.min(m.length, n - at));
      out.set(input.subarray(0, at));
      out.set(input.subarray(at + m.length), at);
      return out;
    }
    case "append": {
      const out = new Uint8Array(n + m.bytes.length);
      out.set(input);
      out.set(m.bytes, n);
      return out;
    }
    case "replace":
      return m.bytes.slice();
  }
}

/** Applies mutations in order. */
export function applyByteMutations(
  input: Uint8Array,
  mutations: readonly ByteMutation[],
): Uint8Array {
  return mutations.reduce(mutateBytes, input);
}

/** A byte array as text for failure records: base64 with its length. */
export function bytesText(bytes: Uint8Array): string {
  return `${bytes.length} bytes, base64 ${Buffer.from(bytes).toString("base64")}`;
}
