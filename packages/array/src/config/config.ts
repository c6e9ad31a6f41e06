import { ConfigError } from "./config-error.js";
import { CONFIG_KEYS, type ConfigKey, type ConfigValues, type KeySpec } from "./config-keys.js";

export type { ConfigKey, ConfigValues } from "./config-keys.js";

/** The symbol `using` calls: `Symbol.dispose`, or the registered one Node 20 polyfills it as. */
const dispose: typeof Symbol.dispose =
  (Symbol as { dispose?: typeof Symbol.dispose }).dispose ??
  (Symbol.for("nodejs.dispose") as typeof Symbol.dispose);

/**
 * What {@link config}'s `set` returns: call it (or leave the `using` block that holds it) to put
 * back the values the settings had before. Restoring twice does nothing the second time.
 */
export interface ConfigRestore {
  /** Puts back the values the changed settings had before. */
  (): void;
  /** The same, for `using restore = config.set({...})`. */
  [Symbol.dispose](): void;
  /** The values the changed settings had before. */
  readonly previous: Readonly<Partial<ConfigValues>>;
}

function specOf(key: string, doing: string): KeySpec<unknown> {
  if (typeof key !== "string" || !Object.hasOwn(CONFIG_KEYS, key)) {
    throw new ConfigError(
      `Cannot ${doing} the setting ${JSON.stringify(key)}: there is none; the settings are ${Object.keys(CONFIG_KEYS).join(", ")}`,
      String(key),
    );
  }
  return CONFIG_KEYS[key as ConfigKey] as KeySpec<unknown>;
}

function shown(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "object" && value !== null)
    return Array.isArray(value) ? "an array" : "an object that does not fit";
  return String(value);
}

/** Applies values (all checked), most recent first on the way back. */
function apply(values: [ConfigKey, unknown][]): ConfigRestore {
  const previous: [ConfigKey, unknown][] = [];
  try {
    for (const [key, value] of values) {
      const spec = CONFIG_KEYS[key] as KeySpec<unknown>;
      previous.push([key, spec.get()]);
      spec.set(value);
    }
  } catch (error) {
    undo(previous);
    throw error;
  }
  let done = false;
  const restore = (() => {
    if (done) return;
    done = true;
    undo(previous);
  }) as ConfigRestore;
  Object.defineProperty(restore, dispose, { value: restore });
  Object.defineProperty(restore, "previous", { value: Object.fromEntries(previous) });
  return restore;
}

function undo(previous: [ConfigKey, unknown][]): void {
  for (let i = previous.length - 1; i >= 0; i--) {
    const [key, value] = previous[i];
    (CONFIG_KEYS[key] as KeySpec<unknown>).set(value);
  }
}

/**
 * Every process-wide setting in one place, as zarr-python's `zarr.config`: concurrency, the
 * metadata limits, the worker pool, logging, the compression paths and the shard index cache.
 * `get` reads one by name; `set` changes some at once, checked first (nothing changes if one is
 * wrong), and returns a function that puts the previous values back, which `using` calls too.
 * The setters each setting comes from (`setMetadataLimits`, `setDefaultWorkerCount`,
 * `setLogLevel`, ...) keep working; `config` reads what they set. The keys, their defaults and
 * what they do are in the docs (`docs/config.md`).
 * @example
 * ```ts
 * const restore = config.set({ concurrency: 32, "metadata.maxDimensions": 128 });
 * try {
 *   // ... reads with 32 chunks in flight
 * } finally {
 *   restore();
 * }
 * console.log(config.get("concurrency")); // 8 again
 * ```
 * @category Configuration
 */
export const config = {
  /**
   * The current value of a setting.
   * @throws ConfigError for a name that is no setting
   */
  get<K extends ConfigKey>(key: K): ConfigValues[K] {
    return specOf(key, "read").get() as ConfigValues[K];
  },

  /**
   * Changes the settings named, checking every value first: nothing changes when one is wrong.
   * @returns a function that restores the previous values (also `using`-friendly)
   * @throws ConfigError for a name that is no setting or a value of the wrong type or range
   */
  set(changes: Partial<ConfigValues>): ConfigRestore {
    if (typeof changes !== "object" || changes === null || Array.isArray(changes))
      throw new ConfigError(
        `config.set takes an object of settings, got ${shown(changes)}`,
        String(changes),
      );
    const values = Object.entries(changes) as [ConfigKey, unknown][];
    for (const [key, value] of values) {
      const problem = specOf(key, "set").problem(value);
      if (problem !== undefined)
        throw new ConfigError(
          `The setting ${JSON.stringify(key)} must be ${problem}, got ${shown(value)}`,
          key,
        );
    }
    return apply(values);
  },

  /** The names of the settings. */
  keys(): ConfigKey[] {
    return Object.keys(CONFIG_KEYS) as ConfigKey[];
  },

  /** Every setting's value when nothing has changed it (`ZARR_LOG` aside). */
  defaults(): ConfigValues {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(CONFIG_KEYS) as ConfigKey[])
      out[key] = CONFIG_KEYS[key].initial();
    return out as unknown as ConfigValues;
  },

  /**
   * Puts every setting back to its default.
   * @returns a function that restores the values from before the reset
   */
  reset(): ConfigRestore {
    return apply(Object.entries(config.defaults()) as [ConfigKey, unknown][]);
  },
};
