import { type ChunkSpec, CodecPipeline } from "@z/codecs";
import { arrowDataType, readIpcStream } from "@z/dtypes-arrow";
import { cOrderStrides } from "@z/ndarray";
import * as A from "apache-arrow";
import { it } from "vitest";

// A measurement, not a check: run with ARROW_BENCH=1 (see the README).
const enabled = process.env.ARROW_BENCH === "1";

import { field } from "./cases.js";

function time(fn: () => unknown, reps = 5): number {
  fn();
  const t = performance.now();
  for (let r = 0; r < reps; r++) fn();
  return (performance.now() - t) / reps;
}
async function timeAsync(fn: () => Promise<unknown>, reps = 5): Promise<number> {
  await fn();
  const t = performance.now();
  for (let r = 0; r < reps; r++) await fn();
  return (performance.now() - t) / reps;
}

it.skipIf(!enabled)(
  "throughput of z.arrow-ipc (set ARROW_BENCH=1 to run)",
  async () => {
    const n = 1_000_000;
    const cases: [string, ReturnType<typeof field>, (i: number) => unknown][] = [
      [
        "int32",
        field("v", { name: "int", bitWidth: 32, isSigned: true }),
        (i) => (i % 10 === 3 ? null : i),
      ],
      ["float64", field("v", { name: "floatingpoint", precision: "DOUBLE" }), (i) => i / 3],
      ["utf8", field("v", { name: "utf8" }), (i) => `item-${i}`],
      [
        "list<int32>",
        field("v", { name: "list" }, true, [
          field("item", { name: "int", bitWidth: 32, isSigned: true }),
        ]),
        (i) => [i, i + 1, i + 2],
      ],
      [
        "struct<a:int64,b:utf8>",
        field("v", { name: "struct" }, true, [
          field("a", { name: "int", bitWidth: 64, isSigned: true }),
          field("b", { name: "utf8" }),
        ]),
        (i) => ({ a: BigInt(i), b: "x" }),
      ],
    ];
    for (const [label, f, make] of cases) {
      const dataType = arrowDataType(f);
      const values = Array.from({ length: n }, (_, i) => make(i));
      const spec: ChunkSpec = { shape: [n], dataType, fillValue: null };
      const p = CodecPipeline.create(
        [{ name: "z.arrow-ipc", configuration: {}, mustUnderstand: true }],
        spec,
        3,
      );
      const chunk = { data: values, shape: [n], stride: cOrderStrides([n]) };
      let bytes: Uint8Array = new Uint8Array(0);
      const enc = await timeAsync(async () => {
        bytes = await p.encode(chunk);
      }, 3);
      const dec = time(() => p.arrayToBytes.codec.decode(bytes, p.arrayToBytes.spec), 3);
      const apache = time(() => A.tableFromIPC(bytes).getChildAt(0)!.toArray(), 3);
      const mb = bytes.length / 2 ** 20;
      console.log(
        `${label}: ${n} elements, ${mb.toFixed(1)} MiB IPC; encode ${enc.toFixed(0)} ms (${(n / enc / 1000).toFixed(2)} M el/s), decode ${dec.toFixed(0)} ms (${(n / dec / 1000).toFixed(2)} M el/s, ${((mb / dec) * 1000).toFixed(0)} MiB/s); apache-arrow tableFromIPC+toArray ${apache.toFixed(0)} ms`,
      );
    }
    // Hostile: a stream claiming a 2^40-element null child: how long and how much memory to refuse.
    const nulls = arrowDataType(
      field("v", { name: "list" }, true, [field("item", { name: "null" })]),
    );
    const spec: ChunkSpec = { shape: [2], dataType: nulls, fillValue: null };
    const p = CodecPipeline.create(
      [{ name: "z.arrow-ipc", configuration: {}, mustUnderstand: true }],
      spec,
      3,
    );
    const good = await p.encode({ data: [[null, null], [null]], shape: [2], stride: [1] });
    const view = new DataView(good.buffer, good.byteOffset, good.byteLength);
    const before = process.memoryUsage().heapUsed;
    const t = performance.now();
    for (let i = 0; i + 8 <= good.length; i++) {
      if (view.getBigInt64(i, true) !== 3n) continue;
      const copy = good.slice();
      new DataView(copy.buffer).setBigInt64(i, 2n ** 40n, true);
      try {
        readIpcStream(copy, { expectedLength: 2 });
      } catch (e) {
        console.log("refused:", (e as Error).message);
      }
    }
    console.log(
      `hostile refused in ${(performance.now() - t).toFixed(2)} ms, heap delta ${((process.memoryUsage().heapUsed - before) / 1024).toFixed(0)} KiB`,
    );
  },
  120_000,
);
