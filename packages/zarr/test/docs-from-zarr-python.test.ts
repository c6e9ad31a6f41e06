import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { repositoryRoot } from "@z/test-utils";
import { beforeAll, describe, expect, it } from "vitest";
import * as z from "../src/index.js";

/**
 * docs/from-zarr-python.md maps zarr-python 3's API to ours in tables of four columns:
 * zarr-python's name, ours, the tests that show ours works, and notes. Here every backticked
 * span of the second column must name something that exists, and appear in one of the tests
 * the row names, so the page cannot promise a function that was renamed or never tested. Each
 * table must also list every public name zarr-python 3 has there, so the page stays complete.
 */
const page = readFileSync(join(repositoryRoot, "docs/from-zarr-python.md"), "utf8");

/** The names of a space-separated list. */
function words(list: string): string[] {
  return list.trim().split(/\s+/);
}

/** zarr-python 3's public names, by the heading of the table that must list them. */
const ZARR_PYTHON: Record<string, string[]> = {
  // zarr/__init__.py's __all__ and its functions
  "Top-level functions": words(`
    array consolidate_metadata copy copy_all copy_store create create_array create_group
    create_hierarchy empty empty_like from_array full full_like group load ones ones_like
    open open_array open_consolidated open_group open_like save save_array save_group tree
    zeros zeros_like print_debug_info set_log_level set_format config Array AsyncArray
    AsyncGroup Group __version__
  `),
  // zarr.core.group.Group: public methods and properties, and the dunders users write
  Group: words(`
    open from_store __getitem__ get get_array get_group __delitem__ __iter__ __len__
    __setitem__ __contains__ update_attributes_async store_path metadata path name basename
    attrs info info_complete store read_only synchronizer update_attributes nmembers members
    create_hierarchy keys groups group_keys group_values arrays array_keys array_values tree
    create_group require_group require_groups create create_array require_array empty zeros
    ones full empty_like zeros_like ones_like full_like move
  `),
  // zarr.core.array.Array
  Array: words(`
    async_array config from_dict open store ndim shape chunks read_chunk_sizes
    write_chunk_sizes shards size dtype attrs path name basename metadata store_path order
    read_only fill_value filters serializer compressor compressors cdata_shape nchunks
    with_config nbytes nchunks_initialized nbytes_stored __array__ __getitem__ __setitem__
    get_basic_selection set_basic_selection get_orthogonal_selection
    set_orthogonal_selection get_mask_selection set_mask_selection get_coordinate_selection
    set_coordinate_selection get_block_selection set_block_selection vindex oindex blocks
    resize append update_attributes info info_complete
  `),
  // zarr.abc.store.Store
  Store: words(`
    open with_read_only is_empty clear read_only __eq__ get get_partial_values exists
    supports_writes set set_if_not_exists supports_consolidated_metadata supports_deletes
    delete supports_partial_writes supports_listing list list_prefix list_dir delete_dir
    close get_ranges get_ranges_sync getsize getsize_prefix
  `),
  "zarr.config": words("get set reset async.concurrency threading.max_workers"),
};

interface Row {
  table: string;
  line: number;
  zarrPython: string;
  ours: string[];
  tests: string[];
  notes: string;
}

/** The backticked spans of a cell. */
function spans(cell: string): string[] {
  return [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
}

/** The rows of the four-column tables, each with the heading above its table. */
function rows(markdown: string): Row[] {
  const out: Row[] = [];
  let heading = "";
  for (const [index, line] of markdown.split("\n").entries()) {
    const title = /^#{2,4} (.+)$/.exec(line);
    if (title) heading = title[1].trim();
    if (!line.startsWith("| ") || line.startsWith("| zarr-python 3 |")) continue;
    const cells = line
      .split("|")
      .slice(1, -1)
      .map((cell) => cell.trim());
    if (cells.length !== 4) throw new Error(`line ${index + 1}: ${cells.length} cells, not 4`);
    out.push({
      table: heading,
      line: index + 1,
      zarrPython: cells[0],
      ours: spans(cells[1]),
      tests: spans(cells[2]),
      notes: cells[3],
    });
  }
  return out;
}

/**
 * A name as the second column writes it: `openArray(...)`, `new MemoryStore()`,
 * `group.createArray(...)`, `store[Symbol.asyncDispose]`, `config.get(key)`. The head is an
 * export of @z/zarr or one of the stand-ins `group`, `arr` and `store`; the member, if any,
 * must exist on it.
 */
const NAME = /^(?:await |new )?([A-Za-z_$][\w$]*)(?:\.([A-Za-z_$][\w$]*)|\[Symbol\.(\w+)\])?/;

/** What the word of a name looks like in a test that uses it. */
function usage(name: { head: string; member?: string; symbol?: string }): string[] {
  if (name.symbol === "asyncIterator") return ["for await", "asyncIterator"];
  if (name.symbol === "asyncDispose") return ["await using", "asyncDispose"];
  return [name.member ?? name.head];
}

const table = rows(page);
const exports = z as unknown as Record<string, unknown>;
let stand: Record<string, object>;

beforeAll(async () => {
  const store = new z.MemoryStore();
  const group = await z.createGroup(store);
  const arr = await group.createArray("a", { shape: [2], dtype: "uint8" });
  // Members read off live objects, so fields set in constructors (`path`, `store`) count.
  stand = { group, ZarrGroup: group, arr, ZarrArray: arr, store, MemoryStore: store };
});

describe("docs/from-zarr-python.md", () => {
  it("has its tables", () => {
    expect([...new Set(table.map((row) => row.table))]).toEqual(Object.keys(ZARR_PYTHON));
    expect(table.length).toBeGreaterThan(100);
  });

  it("lists every public name of zarr-python 3", () => {
    const missing: string[] = [];
    for (const [heading, names] of Object.entries(ZARR_PYTHON)) {
      const listed = table
        .filter((row) => row.table === heading)
        .map((row) => row.zarrPython)
        .join(" ");
      for (const name of names) {
        const escaped = name.replace(/[.]/g, "\\.");
        if (!new RegExp(`(^|[^\\w])${escaped}([^\\w]|$)`).test(listed))
          missing.push(`${heading}: ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("names only what exists", () => {
    const problems: string[] = [];
    for (const row of table) {
      for (const span of row.ours) {
        const match = NAME.exec(span);
        if (!match) {
          problems.push(`line ${row.line}: \`${span}\` is not a name`);
          continue;
        }
        const [, head, member, symbol] = match;
        const key =
          symbol === undefined ? member : (Symbol as unknown as Record<string, symbol>)[symbol];
        const instance = stand[head];
        if (key !== undefined && instance !== undefined) {
          if (!(key in instance)) problems.push(`line ${row.line}: ${head} has no ${String(key)}`);
          continue;
        }
        if (!(head in exports)) {
          problems.push(`line ${row.line}: @z/zarr exports no ${head}`);
          continue;
        }
        const target = exports[head] as object;
        // A class's methods are on its prototype; a function's prototype is an object too.
        const prototype = (target as { prototype?: unknown }).prototype;
        const found =
          key === undefined ||
          key in target ||
          (typeof prototype === "object" && prototype !== null && key in prototype);
        if (!found) problems.push(`line ${row.line}: ${head} has no ${String(key)}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("says why not where there is nothing, and names tests where there is", () => {
    const problems: string[] = [];
    for (const row of table) {
      if (row.ours.length === 0 && row.notes.length < 10)
        problems.push(`line ${row.line}: no name and no reason`);
      if (row.ours.length > 0 && row.tests.length === 0)
        problems.push(`line ${row.line}: names without a test`);
    }
    expect(problems).toEqual([]);
  });

  it("names test files that exist and use the names of their row", () => {
    const problems: string[] = [];
    for (const row of table) {
      const texts = row.tests.map((path) => {
        const file = join(repositoryRoot, path);
        if (!existsSync(file)) problems.push(`line ${row.line}: no file ${path}`);
        return existsSync(file) ? readFileSync(file, "utf8") : "";
      });
      for (const span of row.ours) {
        const match = NAME.exec(span);
        if (!match) continue;
        const words = usage({ head: match[1], member: match[2], symbol: match[3] });
        if (!texts.some((text) => words.some((word) => text.includes(word))))
          problems.push(`line ${row.line}: no test of the row uses ${words.join(" or ")}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
