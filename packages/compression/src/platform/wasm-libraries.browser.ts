// Browser variant of "#wasm-libraries". @foxglove/wasm-bz2 requires a .wasm file and the WASM
// build of @napi-rs/lzma has a top-level await: a bundler that followed these imports would need
// a WASM loader set up, and some (Vite, Rolldown) refuse the top-level await outright. So they are
// imported by a name the bundler does not see; a page that reads bz2 or lzma arrays maps the name
// with an import map (or a CDN URL), see docs/browsers.md. Every other codec bundles as is.

const BZIP2 = "@foxglove/wasm-bz2";
const LZMA = "@napi-rs/lzma";

/** Imports a module by a name resolved at run time (an import map), out of the bundler's sight. */
function importAtRunTime(specifier: string): Promise<unknown> {
  return import(/* @vite-ignore */ /* webpackIgnore: true */ specifier);
}

/** Loads @foxglove/wasm-bz2 through the page's import map. */
export function importBzip2(): Promise<unknown> {
  return importAtRunTime(BZIP2);
}

/** Loads @napi-rs/lzma through the page's import map. */
export function importLzma(): Promise<unknown> {
  return importAtRunTime(LZMA);
}
