import { createArray } from "@z/array";
import { slice } from "@z/indexing";
import { describe, expect, it } from "vitest";

/*
 * A selection that covers one whole chunk may take it out of order (a reversed slice, a
 * permuted index list, points): the decoded chunk is the answer only when it is taken in order.
 * Compressed chunks are decoded into fresh memory, which is when the no-copy path applies.
 */
describe("reads covering one whole chunk keep the selection's order", () => {
  for (const codecs of [
    [{ name: "bytes" }, { name: "gzip" }],
    [
      {
        name: "sharding_indexed",
        configuration: { chunk_shape: [2, 2], codecs: [{ name: "bytes" }] },
      },
      { name: "gzip" },
    ],
  ]) {
    it(codecs.map((c) => c.name).join(" + "), async () => {
      const arr = await createArray(new Map(), {
        shape: [2, 2],
        chunks: [2, 2],
        dtype: "int16",
        codecs: codecs as never,
      });
      await arr.set(null, { data: Int16Array.from([1, 2, 3, 4]), shape: [2, 2] });
      const list = async (p: Promise<{ data: Int16Array }>) => Array.from((await p).data);
      expect(await list(arr.get())).toEqual([1, 2, 3, 4]);
      expect(await list(arr.get([slice(null, null, -1), null]))).toEqual([3, 4, 1, 2]);
      expect(await list(arr.get([null, slice(null, null, -1)]))).toEqual([2, 1, 4, 3]);
      expect(
        await list(
          arr.getOrthogonal([
            [1, 0],
            [1, 0],
          ]),
        ),
      ).toEqual([4, 3, 2, 1]);
      expect(
        await list(
          arr.getCoordinates([
            [1, 0, 1, 0],
            [1, 1, 0, 0],
          ]),
        ),
      ).toEqual([4, 2, 3, 1]);
      expect(await list(arr.getBlocks([0, 0]))).toEqual([1, 2, 3, 4]);
    });
  }
});
