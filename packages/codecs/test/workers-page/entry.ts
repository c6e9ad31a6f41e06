// Bundled by workers-browser.test.ts and run in Chromium: decodes the same stored chunks inline
// and in a Web Worker pool, and checks that aborting stops queued work.
import { type ChunkSpec, CodecPipeline, loadCodecsFor, registeredCodecs } from "@z/codecs";
import { createWorkerPool } from "@z/codecs/workers";
import { type JsonValue, loadDataTypesFor, type NamedConfig, resolveDataTypeV3 } from "@z/metadata";
import { chunkValues } from "../../src/testing/chunks.js";

/** One stored chunk to decode, as the test sends it. */
export interface PageCase {
  label: string;
  codecs: NamedConfig[];
  dtype: JsonValue;
  shape: number[];
  fillValue: JsonValue;
  zarrFormat: 2 | 3;
  base64: string;
}

function bytesOf(base64: string): Uint8Array {
  const text = atob(base64);
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

function specOf(c: PageCase): ChunkSpec {
  const dataType = resolveDataTypeV3(c.dtype);
  return { shape: c.shape, dataType, fillValue: dataType.parseFill(c.fillValue, 3) };
}

async function decodeBoth(cases: PageCase[]) {
  const pool = createWorkerPool({ size: 2, inlineBelow: 0 });
  const out = [];
  for (const c of cases) {
    // Codecs and data types beyond bytes and the numeric ones load on first use.
    await loadCodecsFor(c.codecs as unknown as JsonValue);
    await loadDataTypesFor({ data_type: c.dtype });
    const spec = specOf(c);
    const pipeline = CodecPipeline.create(c.codecs, spec, c.zarrFormat);
    const inline = await pipeline.decode(bytesOf(c.base64));
    const worker = await pool.decode(bytesOf(c.base64), c.codecs, spec, {
      zarrFormat: c.zarrFormat,
      transfer: true,
    });
    out.push({
      label: c.label,
      inline: chunkValues(inline, spec),
      worker: chunkValues(worker, spec),
      inlineClass: inline.data.constructor.name,
      workerClass: worker.data.constructor.name,
    });
  }
  const stats = pool.stats();
  pool.close();
  return { results: out, stats, registered: registeredCodecs() };
}

/** Queues many decodes on one worker, aborts, and reports what ran. */
async function abortQueued(one: PageCase, jobs: number) {
  const pool = createWorkerPool({ size: 1, inlineBelow: 0, maxQueued: jobs });
  const spec = specOf(one);
  const controller = new AbortController();
  const outcomes = Array.from({ length: jobs }, () =>
    pool
      .decode(bytesOf(one.base64), one.codecs, spec, {
        zarrFormat: one.zarrFormat,
        signal: controller.signal,
      })
      .then(
        () => "done",
        (e: Error) => e.name,
      ),
  );
  const before = pool.stats();
  controller.abort();
  const settled = await Promise.all(outcomes);
  const after = pool.stats();
  // The pool still works after an abort.
  const again = await pool.decode(bytesOf(one.base64), one.codecs, spec, {
    zarrFormat: one.zarrFormat,
  });
  pool.close();
  return { before, after, settled, againLength: again.data.length };
}

Object.assign(window, { __decodeBoth: decodeBoth, __abortQueued: abortQueued });
