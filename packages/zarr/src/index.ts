/**
 * The `@z` Zarr stack in one package: arrays and groups, every store, codec and data type that
 * ships with it, registered and ready. In Node.js the package also exports the filesystem
 * stores (`FsStore`, zip files on disk); browsers get everything else (the `node` export
 * condition chooses).
 *
 * ```ts
 * import { createArray, FsStore, slice } from "@z/zarr";
 * const store = new FsStore("data.zarr");
 * const arr = await createArray(store, { shape: [1000, 1000], chunks: [100, 100], dtype: "float32" });
 * await arr.set([slice(0, 100), null], 1);
 * ```
 * @packageDocumentation
 */

export * from "@z/codecs";
export * from "@z/dtypes-arrow";
export * from "@z/dtypes-vlen";
export * from "@z/indexing";
export * from "@z/log";
export * from "@z/metadata";
export * from "@z/store-browser";
export * from "@z/store-core";
export * from "@z/store-http";
export * from "@z/store-memory";
export * from "@z/store-reference";
export * from "@z/store-zip";
export * from "./array-api.js";
export * from "./locations.js";
