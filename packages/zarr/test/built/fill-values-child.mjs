// The other side of fill-values.property.test.ts: a fresh Node process that uses only the
// built packages (dist/, no "source" condition, nothing loaded or registered by hand), as an
// app does. `write <cases.json> <root>` writes every case's array (a store of its own each, below `root`); `read <cases.json> <root>
// <mode>` reads each back whole and prints one JSON line per case: its elements' bytes in hex
// (the container's own memory, so -0, NaN payloads and 64-bit integers are compared exactly).
// Modes: "default" (the decode pool as it comes), "workers" (every chunk sent to a worker),
// "inline" (no pool).
import { readFileSync } from "node:fs";
import {
  createArray,
  openArray,
  resolveDataTypeV2,
  resolveDataTypeV3,
  setDefaultDecodePool,
  slice,
} from "@z/zarr";

const [command, casesFile, root, mode] = process.argv.slice(2);
const cases = JSON.parse(readFileSync(casesFile, "utf8"));
const fromHex = (hex) => Uint8Array.from(hex.match(/../g) ?? [], (h) => Number.parseInt(h, 16));
const toHex = (view) => Buffer.from(view.buffer, view.byteOffset, view.byteLength).toString("hex");

/** One element of a data type from its little-endian stored bytes. */
async function elementOf(dtype, hex) {
  let dataType;
  try {
    dataType = /^[<>|]/.test(dtype) ? resolveDataTypeV2(dtype).dataType : resolveDataTypeV3(dtype);
  } catch (error) {
    // Data types beyond the plain numeric ones load on first use, as in an app.
    if (typeof error?.load !== "function") throw error;
    await error.load();
    return elementOf(dtype, hex);
  }
  return { dataType, value: dataType.getElement(dataType.decode(fromHex(hex), 1, "little"), 0) };
}

if (command === "write") {
  for (const c of cases) {
    const { value: fillValue } = await elementOf(c.dtype, c.fill);
    const array = await createArray(`${root}/${c.id}`, { ...c.options, fillValue });
    const region = c.region.map(([start, stop]) => slice(start, stop));
    const shape = c.region.map(([start, stop]) => stop - start);
    const n = shape.reduce((a, b) => a * b, 1);
    const data = array.dataType.decode(fromHex(c.data), n, "little");
    await array.set(region, { data, shape });
  }
} else if (command === "read") {
  let pool;
  if (mode === "workers") {
    const { createWorkerPool } = await import("@z/codecs/workers");
    pool = createWorkerPool({ inlineBelow: 0 });
    setDefaultDecodePool(pool);
  } else if (mode === "inline") {
    setDefaultDecodePool(false);
  }
  for (const c of cases) {
    try {
      const array = await openArray(`${root}/${c.id}`);
      const { data } = await array.get();
      console.log(JSON.stringify({ id: c.id, hex: toHex(data) }));
    } catch (error) {
      console.log(JSON.stringify({ id: c.id, error: `${error?.name}: ${error?.message}` }));
    }
  }
  if (pool) {
    console.log(JSON.stringify({ stats: pool.stats() }));
    pool.close();
  }
} else {
  throw new Error(`unknown command ${command}`);
}
