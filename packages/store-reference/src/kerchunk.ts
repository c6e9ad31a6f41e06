import { validateKey } from "@z/store-core";
import { InvalidReferenceError } from "./errors.js";
import { renderTemplate, type TemplateScope } from "./template.js";

/** Where the bytes of one key come from. */
export type Reference =
  | {
      /** Bytes held in the reference document itself. */
      kind: "inline";
      data: Uint8Array;
    }
  | {
      /** Bytes of a file or URL: the whole target, or `length` bytes from `offset`. */
      kind: "range";
      url: string;
      offset?: number;
      length?: number;
    };

/** Options of {@link parseReferences}. */
export interface ParseReferencesOptions {
  /**
   * The most keys the `gen` generators of a version 1 document may make (default 1 000 000), so
   * a hostile or mistaken document cannot fill memory.
   */
  maxGeneratedKeys?: number;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const encoder = new TextEncoder();

/** Decodes base64 (standard alphabet, padding optional). */
function decodeBase64(text: string, where: string): Uint8Array {
  const clean = text.replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean) || clean.replace(/=+$/, "").length % 4 === 1) {
    throw new InvalidReferenceError(where, 'the data after "base64:" is not base64');
  }
  return Uint8Array.from(atob(clean.padEnd(Math.ceil(clean.length / 4) * 4, "=")), (c) =>
    c.charCodeAt(0),
  );
}

/** A non-negative safe integer from a JSON number or a rendered template. */
function byteCount(value: unknown, what: string, where: string): number {
  const number = typeof value === "string" && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof number !== "number" || !Number.isSafeInteger(number) || number < 0) {
    throw new InvalidReferenceError(
      where,
      `${what} must be a non-negative integer, got ${JSON.stringify(value)}`,
    );
  }
  return number;
}

/** The store key of a reference, checked as every store key is. */
function checkedKey(key: string, where: string): string {
  try {
    return validateKey(key);
  } catch (error) {
    throw new InvalidReferenceError(where, (error as Error).message);
  }
}

/** One `refs` value: inline text, `base64:` data, a JSON object, `[url]` or `[url, offset, length]`. */
function parseValue(value: unknown, scope: TemplateScope, where: string): Reference {
  if (typeof value === "string") {
    return {
      kind: "inline",
      data: value.startsWith("base64:")
        ? decodeBase64(value.slice(7), where)
        : encoder.encode(value),
    };
  }
  if (isObject(value)) return { kind: "inline", data: encoder.encode(JSON.stringify(value)) };
  if (!Array.isArray(value)) {
    throw new InvalidReferenceError(
      where,
      `a reference is a string, a JSON object, [url] or [url, offset, length], not ${JSON.stringify(value)}`,
    );
  }
  if (
    (value.length !== 1 && value.length !== 3) ||
    typeof value[0] !== "string" ||
    value[0] === ""
  ) {
    throw new InvalidReferenceError(
      where,
      `a byte reference is [url] or [url, offset, length] with a URL string, got ${JSON.stringify(value).slice(0, 200)}`,
    );
  }
  const url = renderTemplate(value[0], scope, where);
  if (value.length === 1) return { kind: "range", url };
  return {
    kind: "range",
    url,
    offset: byteCount(value[1], "the offset", where),
    length: byteCount(value[2], "the length", where),
  };
}

/** The values one generator dimension takes: `{start, stop, step}` or a list of numbers. */
function dimensionValues(spec: unknown, where: string): number[] {
  if (Array.isArray(spec)) {
    if (!spec.every((v) => typeof v === "number" && Number.isFinite(v)))
      throw new InvalidReferenceError(where, "a dimension's list must hold numbers");
    return spec as number[];
  }
  if (!isObject(spec))
    throw new InvalidReferenceError(
      where,
      "a dimension is {start, stop, step} or a list of numbers",
    );
  const start = spec.start ?? 0;
  const stop = spec.stop;
  const step = spec.step ?? 1;
  for (const [name, v] of [
    ["start", start],
    ["stop", stop],
    ["step", step],
  ] as const) {
    if (typeof v !== "number" || !Number.isSafeInteger(v))
      throw new InvalidReferenceError(
        where,
        `${name} must be an integer, got ${JSON.stringify(v)}`,
      );
  }
  const [a, b, s] = [start, stop, step] as number[];
  if (s === 0) throw new InvalidReferenceError(where, "step must not be 0");
  const count = Math.max(0, Math.ceil((b - a) / s));
  return Array.from({ length: count }, (_, k) => a + k * s);
}

/** Expands a version 1 `gen` list into references. */
function expandGenerators(
  gen: unknown,
  templates: Map<string, string | number>,
  out: Map<string, Reference>,
  maxKeys: number,
): void {
  if (!Array.isArray(gen))
    throw new InvalidReferenceError("gen", "gen must be a list of generators");
  let made = 0;
  gen.forEach((entry, index) => {
    const where = `gen[${index}]`;
    if (!isObject(entry) || typeof entry.key !== "string" || typeof entry.url !== "string") {
      throw new InvalidReferenceError(where, "a generator needs key and url strings");
    }
    if (!isObject(entry.dimensions))
      throw new InvalidReferenceError(`${where}.dimensions`, "must be an object");
    const dims = Object.entries(entry.dimensions).map(
      ([name, spec]) => [name, dimensionValues(spec, `${where}.dimensions.${name}`)] as const,
    );
    const total = dims.reduce((n, [, values]) => n * values.length, 1);
    made += total;
    if (made > maxKeys) {
      throw new InvalidReferenceError(
        where,
        `the generators make more than ${maxKeys} keys (maxGeneratedKeys); raise the option if this is meant`,
      );
    }
    const hasRange = entry.offset !== undefined || entry.length !== undefined;
    if (hasRange && (entry.offset === undefined || entry.length === undefined))
      throw new InvalidReferenceError(where, "offset and length come together");
    const scope = new Map(templates);
    const position = new Array<number>(dims.length).fill(0);
    for (let n = 0; n < total; n++) {
      for (const [d, [name, values]] of dims.entries()) scope.set(name, values[position[d]]);
      const key = checkedKey(renderTemplate(entry.key, scope, where), where);
      const url = renderTemplate(entry.url, scope, where);
      out.set(
        key,
        hasRange
          ? {
              kind: "range",
              url,
              offset: byteCount(
                renderTemplate(String(entry.offset), scope, where),
                "the offset",
                where,
              ),
              length: byteCount(
                renderTemplate(String(entry.length), scope, where),
                "the length",
                where,
              ),
            }
          : { kind: "range", url },
      );
      // Next index, the last dimension fastest (as itertools.product).
      for (let d = dims.length - 1; d >= 0; d--) {
        if (++position[d] < dims[d][1].length) break;
        position[d] = 0;
      }
    }
  });
}

/**
 * Reads a kerchunk reference document (a JSON string or its parsed value) into one reference
 * per store key. Version 0 is a plain `{key: value}` object; version 1 is
 * `{"version": 1, "templates": {...}, "gen": [...], "refs": {...}}`, where `{{name}}` in URLs
 * stands for a template and generators make keys from index ranges. Values are inline text,
 * `"base64:..."` data, a JSON object (stored as its JSON text), `[url]` (the whole target) or
 * `[url, offset, length]`.
 * @throws InvalidReferenceError saying what is wrong and where
 */
export function parseReferences(
  document: unknown,
  options: ParseReferencesOptions = {},
): Map<string, Reference> {
  let doc = document;
  if (typeof doc === "string" || doc instanceof Uint8Array) {
    const text = typeof doc === "string" ? doc : new TextDecoder().decode(doc);
    try {
      doc = JSON.parse(text);
    } catch (error) {
      throw new InvalidReferenceError("the document", `not JSON (${(error as Error).message})`);
    }
  }
  if (!isObject(doc))
    throw new InvalidReferenceError("the document", "a reference document is a JSON object");
  const out = new Map<string, Reference>();
  if (!("version" in doc)) {
    for (const [key, value] of Object.entries(doc)) {
      const where = `[${JSON.stringify(key)}]`;
      out.set(checkedKey(key, where), parseValue(value, new Map(), where));
    }
    return out;
  }
  if (doc.version !== 1) {
    throw new InvalidReferenceError(
      "version",
      `only versions 0 (no "version") and 1 are known, got ${JSON.stringify(doc.version)}`,
    );
  }
  const templates = new Map<string, string | number>();
  if (doc.templates !== undefined) {
    if (!isObject(doc.templates))
      throw new InvalidReferenceError("templates", "must be an object of strings");
    for (const [name, value] of Object.entries(doc.templates)) {
      if (typeof value !== "string")
        throw new InvalidReferenceError(`templates.${name}`, "a template is a string");
      templates.set(name, value);
    }
  }
  if (doc.gen !== undefined)
    expandGenerators(doc.gen, templates, out, options.maxGeneratedKeys ?? 1_000_000);
  if (doc.refs !== undefined && !isObject(doc.refs))
    throw new InvalidReferenceError("refs", "must be an object");
  for (const [key, value] of Object.entries((doc.refs as Record<string, unknown>) ?? {})) {
    const where = `refs[${JSON.stringify(key)}]`;
    out.set(checkedKey(key, where), parseValue(value, templates, where));
  }
  return out;
}
