import { DataTypeNotLoadedError } from "@z/metadata";
import { CodecNotLoadedError } from "./not-loaded.js";

/**
 * Runs a synchronous build that may need codecs or data types that load on first use (parsing
 * metadata, building an array and its codec pipeline, a worker's pipeline) and, while it fails
 * because one of them is not loaded, loads it and runs the build again. This catches what a
 * metadata document implies without naming it (the transpose of a v2 array in F order, say) as
 * surely as what it names. Each load makes its names resolve (or be plainly unknown), so this
 * ends; the bound is a safeguard against a loader that registers nothing.
 * @example
 * ```ts
 * const pipeline = await afterLoading(() => CodecPipeline.create(codecs, spec, 3));
 * ```
 * @throws whatever the build throws once everything it needs is loaded
 * @category Codecs
 */
export async function afterLoading<T>(build: () => T): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return build();
    } catch (error) {
      const notLoaded =
        error instanceof DataTypeNotLoadedError || error instanceof CodecNotLoadedError;
      if (!notLoaded || attempt >= 64) throw error;
      await error.load();
    }
  }
}
