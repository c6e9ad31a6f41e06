import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CodecPipeline, loadCodecs } from "@z/codecs";
import { resolveDataTypeV3 } from "@z/metadata";
import { describe, expect, it } from "vitest";

/*
 * The array package reads and writes sharded arrays only through the partial I/O every codec
 * pipeline exposes (`supportsPartialIo`, `subchunkShape`, `partialDecoder`, `partialEncode`):
 * no file of `packages/array/src` names what the sharding codec keeps to itself (its exports,
 * and the members of ShardingCodec beyond the generic codec and partial I/O interfaces), nor
 * imports a module of the codecs package's `sharding` folder.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const arraySrc = path.join(here, "../src");
const shardingSrc = path.join(here, "../../codecs/src/sharding");

/** Members every array-to-bytes codec or the partial I/O interface has, and plain words. */
const GENERIC = new Set([
  "constructor",
  "kind",
  "name",
  "configuration",
  "toJson",
  "encode",
  "decode",
  "encodedSize",
  "partial",
  "subchunkShape",
  "partialDecoder",
  "partialEncode",
  "nested",
]);

// The sharding codec loads on first use; the list of its members is read as the file loads.
await loadCodecs(["sharding_indexed"]);

function shardingCodec(): object {
  const pipeline = CodecPipeline.create(
    [
      {
        name: "sharding_indexed",
        configuration: { chunk_shape: [2], codecs: [{ name: "bytes" }] },
        mustUnderstand: true,
      },
    ],
    { shape: [4], dataType: resolveDataTypeV3("uint8"), fillValue: 0 },
    3,
  );
  return pipeline.arrayToBytes.codec;
}

/** The names the sharding codec keeps to itself: its modules' exports and the codec's members. */
function internalNames(): { exports: string[]; members: string[] } {
  const names = new Set<string>();
  for (const file of readdirSync(shardingSrc)) {
    const text = readFileSync(path.join(shardingSrc, file), "utf8");
    for (const m of text.matchAll(
      /export\s+(?:declare\s+)?(?:abstract\s+)?(?:class|function|const|let|interface|type|enum)\s+([A-Za-z_$][\w$]*)/g,
    ))
      names.add(m[1]);
  }
  const members = new Set<string>();
  const codec = shardingCodec();
  for (const key of Object.keys(codec)) members.add(key);
  for (let proto = Object.getPrototypeOf(codec); proto && proto !== Object.prototype; ) {
    for (const key of Object.getOwnPropertyNames(proto)) members.add(key);
    proto = Object.getPrototypeOf(proto);
  }
  return { exports: [...names], members: [...members].filter((n) => !GENERIC.has(n)) };
}

function sourceFiles(): string[] {
  return readdirSync(arraySrc, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .map((f) => path.join(arraySrc, f));
}

describe("array/src does not reach into the sharding codec", () => {
  const { exports, members } = internalNames();

  it("the list of internals is read from the codec (so the check cannot go stale)", () => {
    for (const name of ["ShardingCodec", "ShardIndex", "parseShardingConfiguration"])
      expect(exports).toContain(name);
    for (const name of ["decodeIndex", "indexSize", "assemble", "inner", "innerCoords"])
      expect(members).toContain(name);
  });

  it("no file names a sharding export, uses a member of the sharding codec, or imports a sharding module", () => {
    const found: string[] = [];
    for (const file of sourceFiles()) {
      const where = path.relative(arraySrc, file);
      const text = readFileSync(file, "utf8");
      for (const name of exports)
        if (new RegExp(`\\b${name}\\b`).test(text)) found.push(`${where}: ${name}`);
      for (const name of members)
        if (new RegExp(`\\.${name}\\b`).test(text)) found.push(`${where}: .${name}`);
      for (const m of text.matchAll(/from\s+["']([^"']+)["']/g))
        if (/codecs\/.*sharding/.test(m[1])) found.push(`${where}: imports ${m[1]}`);
    }
    expect(found).toEqual([]);
  });
});
