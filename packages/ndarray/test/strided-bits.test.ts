// Strided copies move float elements by their bits: a signaling NaN (or any payload) survives a
// transposed or strided copy exactly as it survives a contiguous one.
import { copyStrided } from "@z/ndarray";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

describe("copyStrided keeps float bits", () => {
  it("transposes float32 words of any bit pattern (signaling NaNs included) unchanged", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 9 }),
        fc.array(fc.integer({ min: 0, max: 0xffffffff }), { minLength: 81, maxLength: 81 }),
        (rows, cols, words) => {
          const bits = Uint32Array.from(words.slice(0, rows * cols));
          const src = new Float32Array(bits.buffer);
          const dst = new Float32Array(rows * cols);
          // Read the source in column order (a transpose), write C order.
          copyStrided(
            { data: src, offset: 0, stride: [1, cols] },
            { data: dst, offset: 0, stride: [rows, 1] },
            [cols, rows],
          );
          const out = new Uint32Array(dst.buffer);
          for (let r = 0; r < rows; r++)
            for (let c = 0; c < cols; c++) expect(out[c * rows + r]).toBe(bits[r * cols + c]);
        },
      ),
    );
  });
});
