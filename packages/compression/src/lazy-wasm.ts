// A WebAssembly module built from the C sources in packages/compression/wasm and committed as
// base64 in a module of its own, imported only when the module is first needed, so its bytes
// stay out of the first load of apps that never use it.
import { fromBase64 } from "./simd/load.js";
import { wasmApi } from "./simd/wasm-api.js";

/**
 * A loader of a module's exports: the module is instantiated once per thread, on the first call;
 * a failed load is tried again next time. `what` names the feature in the error thrown where
 * the engine has no WebAssembly; `base64` imports the module's bytes.
 */
export function lazyWasmModule<T>(what: string, base64: () => Promise<string>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  const instantiate = async (): Promise<T> => {
    const api = wasmApi();
    if (!api) throw new Error(`${what} needs WebAssembly, which this JavaScript engine lacks`);
    const { instance } = await api.instantiate(fromBase64(await base64()));
    return instance.exports as unknown as T;
  };
  return () => {
    loading ??= instantiate().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}
