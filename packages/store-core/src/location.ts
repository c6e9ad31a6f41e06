import { StoreError } from "./errors.js";
import type { Readable, StoreLike } from "./store.js";
import { toStoreLazily } from "./store-object.js";

/** Opens the store a location string names (the part after the scheme is the factory's to read). */
export type StoreFactory = (location: string) => StoreLike | Promise<StoreLike>;

const factories = new Map<string, StoreFactory>();

/**
 * Registers how locations of a URL scheme open as stores, so `open("https://…")`,
 * `open("file:…")` or `open("zip:…")` work. `scheme` is lower-case without the colon; the
 * scheme `""` handles locations without one (plain paths). A scheme ending in `+` (`"icechunk+"`)
 * handles every location that starts with it (`icechunk+https://…`, `icechunk+/data/repo`) and
 * reads the rest as a location of its own. `@z/zarr` registers the built-in stores; register
 * your own (`s3`, `gs`, …) the same way.
 * @example
 * ```ts
 * // "mem:..." locations open one shared in-memory store.
 * const shared = new MemoryStore();
 * registerStore("mem", () => shared);
 * await createGroup("mem:anything");
 * ```
 * @category Extending
 */
export function registerStore(scheme: string, factory: StoreFactory): void {
  factories.set(scheme.toLowerCase(), factory);
}

/** The scheme of a location (`"https"`, `"zip"`), or `""` for a plain path. A Windows drive letter is no scheme. */
export function schemeOf(location: string): string {
  const match = /^([a-zA-Z][a-zA-Z0-9+.-]+):/.exec(location);
  return match ? match[1].toLowerCase() : "";
}

/**
 * Opens the store a location names, through the factory registered for its scheme.
 * @throws StoreError when no factory handles the scheme
 * @example
 * ```ts
 * const store = await resolveStore("https://example.org/data.zarr"); // an HttpStore
 * ```
 * @category Stores
 */
export async function resolveStore(location: string): Promise<Readable> {
  const scheme = schemeOf(location);
  const wrapper = /^[a-zA-Z][a-zA-Z0-9.-]*\+/.exec(location)?.[0].toLowerCase();
  const factory = (wrapper && factories.get(wrapper)) || factories.get(scheme);
  if (!factory) {
    const known =
      [...factories.keys()].map((s) => (s === "" ? "plain paths" : `${s}:`)).join(", ") || "none";
    throw new StoreError(
      `No store is registered for ${scheme === "" ? "plain paths" : `"${scheme}:" locations`} (${JSON.stringify(location)}); ` +
        `registered: ${known}. Import @z/zarr, or call registerStore().`,
    );
  }
  return toStoreLazily(await factory(location));
}
