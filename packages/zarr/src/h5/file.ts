import { consolidateMetadata, createGroup, type ZarrArray, ZarrGroup } from "@z/array";
import {
  type HierarchyChange,
  nodeFromMetadata,
  readConsolidatedHolder,
  readNodeMetadata,
  updateConsolidated,
} from "@z/array/internal";
import { formatValue } from "@z/errors";
import { loadDataTypes } from "@z/metadata";
import {
  asyncDispose,
  closeStore,
  isWritable,
  NotFoundError,
  type Readable,
  ReadOnlyError,
  ReadOnlyStore,
  type StoreLike,
  toStore,
  type Writable,
} from "@z/store-core";
import { ClosedFileError, FileExistsError, FileModeError, H5TypeError } from "./errors.js";
import { Group, type H5Node, wrapNode } from "./group.js";

/**
 * h5py's file modes: `"r"` read only, must exist (the default); `"r+"` read/write, must
 * exist; `"w"` create, truncating what is there; `"w-"` or `"x"` create, fail if it exists;
 * `"a"` read/write if it exists, create otherwise.
 */
export type FileMode = "r" | "r+" | "w" | "w-" | "x" | "a";

const MODES: readonly FileMode[] = ["r", "r+", "w", "w-", "x", "a"];

/** Options of {@link File}. */
export interface FileOptions {
  /** The Zarr format of a new file (default 3); an existing file keeps its own. */
  zarrFormat?: 2 | 3;
  /**
   * Use the root's consolidated metadata to list and open nodes. Default: in mode "r" when
   * present, never in writable modes (where nodes change).
   */
  consolidated?: boolean;
}

/**
 * An open h5 file: the root group of a Zarr hierarchy, with the mode it was opened in. Open one
 * with {@link File}.
 *
 * Consolidated metadata: a file opened read-only lists and opens nodes from it when the root
 * has some (one read for the whole hierarchy). In writable modes every change made through
 * the file keeps the root's consolidated metadata, if it has any, up to date (creations,
 * attributes and resizes patch it; moves, copies and deletions rescan the hierarchy).
 */
export class H5File extends Group {
  private closedFlag = false;

  private constructor(
    /** The store (wrapped read-only in mode "r"). */
    readonly store: Readable,
    /** The path the file was opened from (`""` for a store object). */
    readonly filename: string,
    private readonly openMode: FileMode,
    root: ZarrGroup,
    private readonly useConsolidated: boolean | undefined,
    /** The store the file opened itself (from a path), released with the file. */
    private readonly ownStore: Readable | undefined,
  ) {
    super(undefined, root);
  }

  /** Opens or creates a file: see {@link File}. */
  static async open(
    target: StoreLike | string,
    mode: FileMode = "r",
    options: FileOptions = {},
  ): Promise<H5File> {
    if (!MODES.includes(mode))
      throw new TypeError(
        `Invalid mode ${formatValue(mode, { bigint: "suffix" })}: use one of ${MODES.map((m) => `"${m}"`).join(", ")}`,
      );
    const writable = mode !== "r";
    // Datasets take NumPy dtype strings, checked synchronously (zarrDtype): load the data types
    // that otherwise load on first use, once, here.
    await loadDataTypes();
    // A path means the filesystem: loaded only then, so browsers never see node:fs.
    const base =
      typeof target === "string"
        ? new (await import("@z/store-fs")).FsStore(target, { readOnly: !writable })
        : toStore(target);
    const filename = typeof target === "string" ? target : "";
    if (writable && !isWritable(base))
      throw new ReadOnlyError(filename || "/", `open with mode ${JSON.stringify(mode)}`);
    const store = writable ? base : new ReadOnlyStore(base);
    const consolidated = options.consolidated ?? (writable ? false : undefined);
    const existing = await readNodeMetadata(store, "", { consolidated, kind: "group" });
    if (existing?.kind === "array") {
      throw new H5TypeError(
        `${filename || "The store"}: the root is an array, not a group; open it with openArray()`,
      );
    }
    if ((mode === "r" || mode === "r+") && !existing) {
      throw new NotFoundError(
        filename || "/",
        "Zarr hierarchy",
        `Unable to open file (mode ${JSON.stringify(mode)} needs an existing file; use "a" or "w" to create one)`,
      );
    }
    if ((mode === "w-" || mode === "x") && existing) throw new FileExistsError(filename || "/");
    let root: ZarrGroup;
    if (existing && mode !== "w") {
      root = (await nodeFromMetadata(store, "", existing, {
        useConsolidated: consolidated !== false,
      })) as ZarrGroup;
    } else {
      const s = store as Readable & Writable;
      // "w" truncates: everything in the store goes, as h5py truncates the file.
      if (mode === "w") await s.deletePrefix("");
      root = await createGroup(s, { zarrFormat: options.zarrFormat ?? 3 });
    }
    return new H5File(
      store,
      filename,
      mode,
      root,
      consolidated,
      typeof target === "string" ? base : undefined,
    );
  }

  /** `"r"` or `"r+"`, as h5py reports it. */
  get mode(): "r" | "r+" {
    return this.openMode === "r" ? "r" : "r+";
  }
  /** Whether the file can be written. */
  get writable(): boolean {
    return this.openMode !== "r";
  }
  /** 2 or 3. */
  get zarrFormat(): 2 | 3 {
    return this.inner.zarrFormat;
  }
  /** Whether {@link H5File.close} was called. */
  get closed(): boolean {
    return this.closedFlag;
  }

  /** Closes the file: every later operation through it fails with ClosedFileError. Stores need no flushing. */
  close(): void {
    this.closedFlag = true;
  }

  /**
   * Closes the file, as leaving h5py's `with File(...)` block does: `await using f = await
   * File("data.zarr", "a")` closes it at the end of the block. The store the file opened from a
   * path is released too; a store passed in stays open for its owner.
   */
  async [asyncDispose](): Promise<void> {
    this.close();
    if (this.ownStore !== undefined) await closeStore(this.ownStore);
  }

  /** @throws ClosedFileError after {@link H5File.close} */
  assertOpen(): void {
    if (this.closedFlag) throw new ClosedFileError(this.filename || "/");
  }

  /**
   * Checks that the file may be written.
   * @throws FileModeError in mode "r"; ClosedFileError after close
   */
  requireWritable(action: string, name: string): void {
    this.assertOpen();
    if (!this.writable) throw new FileModeError(name, action, this.openMode);
  }

  /** A Zarr node as an h5 object of this file (the root is the file itself). */
  wrap(node: ZarrArray | ZarrGroup): H5Node {
    if (node instanceof ZarrGroup && node.path === "") {
      this.inner = node;
      return this;
    }
    return wrapNode(this, node);
  }

  /** The Zarr group at a store path, read fresh. */
  async openZarrGroup(path: string): Promise<ZarrGroup> {
    this.assertOpen();
    if (path === "" && !this.writable) return this.inner;
    const node = await readNodeMetadata(this.store, path, {
      zarrFormat: this.zarrFormat,
      consolidated: this.useConsolidated,
      kind: "group",
    });
    if (node?.kind !== "group") throw new NotFoundError(`/${path}`, "group");
    const group = (await nodeFromMetadata(this.store, path, node, {
      useConsolidated: this.useConsolidated !== false,
    })) as ZarrGroup;
    if (path === "") this.inner = group;
    return group;
  }

  /** The h5 group at a store path. */
  async groupAt(path: string): Promise<Group> {
    if (path === "") return this;
    return new Group(this, await this.openZarrGroup(path));
  }

  /** The root is its own parent, as in h5py. */
  override get parent(): Promise<Group> {
    return Promise.resolve(this);
  }

  /**
   * Keeps the root's consolidated metadata (if it has any) in step with a change made through
   * this file: a change (the subtrees `removed` and the nodes `written`, by store path) patches
   * it, `"rescan"` consolidates again. Costs one read when the root has none.
   */
  async syncConsolidated(change: HierarchyChange | "rescan"): Promise<void> {
    const store = this.store as Readable & Writable;
    const holder = await readConsolidatedHolder(store, "", { zarrFormat: this.zarrFormat });
    if (!holder) return;
    if (change === "rescan") await consolidateMetadata(store);
    else await updateConsolidated(store, holder, change);
  }

  /** Like h5py's repr. */
  override toString(): string {
    return `<Zarr h5 file ${JSON.stringify(this.filename || "(store)")} (mode ${this.mode})>`;
  }
}

/**
 * Opens or creates an h5 file over a Zarr hierarchy (h5py's `File(name, mode)`): a path opens
 * a filesystem store; any store (or a `Map`) works too. Async, since Zarr I/O is.
 *
 * ```ts
 * import { File } from "@z/zarr/h5";
 * const f = await File("data.zarr", "w");
 * const g = await f.createGroup("measurements");
 * const d = await g.createDataset("temps", { shape: [100, 10], dtype: "f4", chunks: [10, 10], compression: "gzip" });
 * await d.attrs.set("units", "K");
 * ```
 * @param mode see {@link FileMode} (default "r")
 * @throws NotFoundError ("r", "r+" without a hierarchy), FileExistsError ("w-", "x" with one),
 *   H5TypeError (the root is an array), ReadOnlyError (a writable mode on a read-only store)
 */
export function File(
  target: StoreLike | string,
  mode: FileMode = "r",
  options: FileOptions = {},
): Promise<H5File> {
  return H5File.open(target, mode, options);
}
Object.defineProperty(File, Symbol.hasInstance, {
  value: (value: unknown) => value instanceof H5File,
});

/** The type of an open file (what {@link File} resolves to). */
export type File = H5File;
