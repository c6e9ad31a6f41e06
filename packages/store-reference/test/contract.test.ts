import { writeFileSync } from "node:fs";
import path from "node:path";
import { describeStoreContract } from "@z/store-core/testing";
import { ReferenceStore } from "@z/store-reference";
import { tempDir } from "@z/test-utils";
import { afterAll } from "vitest";

/*
 * The store contract for the read-only reference store: the entries as ranges of one local file
 * (every value one after another), and as inline base64 data.
 */

const sandbox = tempDir("z-ref-contract-");
afterAll(() => sandbox.remove());
let count = 0;

describeStoreContract(
  "ReferenceStore (ranges of a local file)",
  (entries) => {
    const file = path.join(sandbox.dir, `values-${count++}.bin`);
    const refs: Record<string, [string, number, number]> = {};
    const parts: Uint8Array[] = [];
    let offset = 3; // values do not start at the file's start
    parts.push(new Uint8Array(3).fill(0xab));
    for (const [key, value] of entries) {
      refs[key] = [file, offset, value.length];
      parts.push(value);
      offset += value.length;
    }
    parts.push(new Uint8Array(5).fill(0xcd)); // nor end at its end
    writeFileSync(file, Buffer.concat(parts));
    return new ReferenceStore(refs);
  },
  { writable: false, freshReadBuffers: true },
);

describeStoreContract(
  "ReferenceStore (inline base64, version 1)",
  (entries) =>
    new ReferenceStore({
      version: 1,
      refs: Object.fromEntries(
        [...entries].map(([key, value]) => [
          key,
          `base64:${Buffer.from(value).toString("base64")}`,
        ]),
      ),
    }),
  { writable: false, freshReadBuffers: true },
);
