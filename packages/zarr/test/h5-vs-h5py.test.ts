import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { havePython, SYSTEM_PYTHON, tempDir } from "@z/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { h5Program } from "./h5/program.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const suite = "h5 layer vs h5py";

/**
 * Which error each side raises for each misuse in the program: ours (typed, h5py's meaning)
 * and h5py's exception class. Where HDF5 picks an incidental class (RuntimeError, OSError, a
 * KeyError for deleting in a read-only file) the meaning is still the same.
 */
const ERRORS: Record<string, [ours: string, h5py: string]> = {
  resize_beyond_maxshape: ["H5ValueError", "RuntimeError"],
  resize_wrong_rank: ["H5TypeError", "TypeError"],
  require_shape_mismatch: ["H5TypeError", "TypeError"],
  require_dtype_unsafe: ["H5TypeError", "TypeError"],
  require_exact: ["H5TypeError", "TypeError"],
  require_group_on_dataset: ["H5TypeError", "TypeError"],
  create_existing_group: ["NameExistsError", "ValueError"],
  create_existing_dataset: ["NameExistsError", "ValueError"],
  missing: ["NotFoundError", "KeyError"],
  maxshape_too_small: ["H5ValueError", "ValueError"],
  data_shape_mismatch: ["H5ValueError", "ValueError"],
  len_scalar: ["H5TypeError", "TypeError"],
  delete_missing: ["NotFoundError", "KeyError"],
  move_onto_existing: ["NameExistsError", "ValueError"],
  move_missing: ["NotFoundError", "ValueError"],
  copy_onto_existing: ["NameExistsError", "RuntimeError"],
  attr_missing: ["NotFoundError", "KeyError"],
  ro_create_group: ["FileModeError", "ValueError"],
  ro_create_dataset: ["FileModeError", "ValueError"],
  ro_write: ["FileModeError", "OSError"],
  ro_attrs: ["FileModeError", "OSError"],
  ro_resize: ["FileModeError", "RuntimeError"],
  ro_delete: ["FileModeError", "KeyError"],
  wx_existing: ["FileExistsError", "FileExistsError"],
  r_missing: ["NotFoundError", "FileNotFoundError"],
  rplus_missing: ["NotFoundError", "FileNotFoundError"],
};

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

describe(suite, () => {
  it.skipIf(!havePython(suite, ["h5py", "numpy"]))(
    "one program gives the same values through h5py and @z/zarr/h5",
    async () => {
      const { dir, remove } = tempDir("z-h5-");
      cleanups.push(remove);
      const python = JSON.parse(
        execFileSync(
          SYSTEM_PYTHON,
          [path.join(here, "h5", "h5py-program.py"), path.join(dir, "file.h5")],
          { encoding: "utf8" },
        ),
      );
      const ours = await h5Program(path.join(dir, "file.zarr"));
      expect(Object.keys(ours.out).sort()).toEqual(Object.keys(python.out).sort());
      for (const key of Object.keys(python.out))
        expect(ours.out[key], key).toEqual(python.out[key]);
      expect(Object.keys(ours.errors).sort()).toEqual(Object.keys(ERRORS).sort());
      for (const [key, [mine, theirs]] of Object.entries(ERRORS)) {
        expect(python.errors[key], `h5py, ${key}`).toBe(theirs);
        expect(ours.errors[key], `ours, ${key}`).toBe(mine);
      }
    },
  );
});
