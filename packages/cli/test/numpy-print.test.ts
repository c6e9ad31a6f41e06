import { havePython, runPython, tempDir } from "@z/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBin } from "./support/run-bin.js";

/**
 * Arrays written by zarr-python 2 and printed by NumPy (`print(z[sel])`): `zarr get` without
 * --json must print exactly the same text. Each case: a name, the NumPy expression of the
 * values, and a selection written the same way in both (NumPy index syntax).
 */
const CASES: [string, string, string][] = [
  ["f4_decimals", "np.array([0.1, 1/3, 2.5, -7.25], dtype='f4')", ""],
  ["f4_aligned", "np.array([-1000.5, 0, 1000.5, 0], dtype='f4')", ""],
  ["f4_scientific", "np.array([1e-5, 1, np.nan, -np.inf], dtype='f4')", ""],
  ["f8_3d", "np.arange(24, dtype='f8').reshape(2, 3, 4) / 7", ""],
  ["i8_wrapped", "np.arange(30, dtype='i8') * 1001", ""],
  ["i4_summarised_2d", "np.arange(2000, dtype='i4').reshape(40, 50)", ""],
  ["i4_summarised_3d", "np.arange(8000, dtype='i4').reshape(20, 20, 20)", ""],
  ["f4_summarised_1d", "np.arange(5000, dtype='f4') / 3", ""],
  ["i4_negative_select", "np.arange(2000, dtype='i4').reshape(40, 50)", "-1, ::-7"],
  ["i4_summarised_select", "np.arange(2000, dtype='i4').reshape(40, 50)", "5:-5, ::-1"],
  ["bool", "np.array([True, False, True])", ""],
  ["u1_2d", "np.arange(12, dtype='u1').reshape(3, 4)", "..., 1:"],
  ["c8", "np.array([1+2j, -0.5-1j], dtype='c8')", ""],
  ["f4_0d", "np.array(3.25, dtype='f4')", ""],
  ["f2", "np.array([0.1, 1000, 65504, -0.0], dtype='f2')", ""],
  ["f8_large", "np.array([1e10, -2.5, 0, 1/3])", ""],
  ["f8_negative_zero", "np.array([-0.0, 1.5])", ""],
  ["i2_negative", "np.array([[-5, 12], [300, -7000]], dtype='i2')", ""],
  ["S4", "np.array([b'a', b'bc', b\"it's\", b'\\x01z'], dtype='S4')", ""],
  ["O_strings", "np.array([['a', 'bb'], ['ccc', \"d'\"]], dtype=object)", ""],
  ["U5", "np.array(['ab', 'cde', \"it's\", 'x\\\\y'])", ""],
];

const SCRIPT = `
import json, sys
import numpy as np, numcodecs, zarr
root = sys.argv[1]
cases = json.loads(sys.stdin.read())
printed = {}
for name, expr, sel in cases:
    values = eval(expr)
    extra = {"object_codec": numcodecs.VLenUTF8()} if values.dtype == object else {}
    z = zarr.open(root + "/" + name, mode="w", shape=values.shape, chunks=tuple(max(1, n // 3) for n in values.shape) or None, dtype=values.dtype, **extra)
    z[...] = values
    # zarr-python 2 has no negative steps: NumPy selects from the whole array read back.
    printed[name] = str(eval("z[...][" + (sel or "...") + "]"))
print(json.dumps(printed))
`;

describe.skipIf(!havePython("zarr get prints like NumPy", ["zarr", "numpy"]))(
  "zarr get prints each selection exactly as NumPy prints it, summarised above 1000 elements",
  () => {
    const { dir: root, remove } = tempDir("z-cli-print-");
    afterAll(remove);
    let numpy: Record<string, string> = {};
    // zarr-python writes every case once; then each case is its own test, so one slow process
    // start on a busy machine does not make the whole table time out.
    beforeAll(() => {
      numpy = JSON.parse(
        runPython(SCRIPT.replace("sys.argv[1]", JSON.stringify(root)), JSON.stringify(CASES)),
      ) as Record<string, string>;
    }, 120_000);
    it.each(CASES)("%s", async (name, _expression, select) => {
      const args = ["get", root, "--path", name];
      if (select !== "") args.push(`--select=${select}`);
      const { code, stdout, stderr } = await runBin(args);
      expect(stderr, name).toBe("");
      expect(code, name).toBe(0);
      expect(stdout, name).toBe(`${numpy[name]}\n`);
    });
  },
);
