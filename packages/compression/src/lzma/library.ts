import { importLzma } from "#wasm-libraries";

/** The @napi-rs/lzma module. */
export type NapiLzma = typeof import("@napi-rs/lzma");

let library: Promise<NapiLzma> | undefined;

/**
 * @napi-rs/lzma (lzma-rust2; native in Node, WASM in browsers through an import map), loaded
 * on first use; a failed load is tried again next time.
 */
export function loadLzma(): Promise<NapiLzma> {
  library ??= importLzma().then(
    (m) => m as NapiLzma,
    (error: unknown) => {
      library = undefined;
      throw error;
    },
  );
  return library;
}
