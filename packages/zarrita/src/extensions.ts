// zarrita's extension points: a store extension wraps a store, overriding some of its methods
// (and may contribute array extensions, applied to every array opened from the store); an
// array extension wraps an array the same way. Both wrap with a Proxy, so everything not
// overridden (private fields included) reaches the original object.

/** An array extension: wraps an array, overriding or adding members. */
export type ArrayExtension<A = object> = (array: A) => A | Promise<A>;

/** What a store extension's factory may return: overrides, and array extensions to apply. */
export type StoreOverrides = Record<PropertyKey, unknown> & {
  arrayExtensions?: ArrayExtension[];
};

/** The object `target` with `overrides` in front of its own members. */
function overlay<T extends object>(target: T, overrides: Record<PropertyKey, unknown>): T {
  // Methods of the target are bound to it once, so its private fields keep working.
  const bound = new Map<PropertyKey, unknown>();
  return new Proxy(target, {
    get(t, prop) {
      if (prop in overrides) return overrides[prop];
      if (bound.has(prop)) return bound.get(prop);
      const value = Reflect.get(t, prop, t);
      if (typeof value !== "function") return value;
      const method = value.bind(t);
      bound.set(prop, method);
      return method;
    },
    has: (t, prop) => prop in overrides || Reflect.has(t, prop),
    ownKeys: (t) => [...new Set([...Reflect.ownKeys(t), ...Reflect.ownKeys(overrides)])],
    getOwnPropertyDescriptor(t, prop) {
      if (prop in overrides) {
        return { configurable: true, enumerable: true, value: overrides[prop] };
      }
      return Reflect.getOwnPropertyDescriptor(t, prop);
    },
  });
}

function checkOverrides(value: unknown): asserts value is Record<PropertyKey, unknown> {
  if (value === null || typeof value !== "object") {
    throw new TypeError("An extension's factory must return an object of overrides");
  }
}

/**
 * The extension of a factory: the target overlaid with the overrides the factory returns
 * (through `merge`), synchronously when the factory is.
 */
function extension<S extends object, O, X extends object>(
  factory: (target: S, options: O) => X | Promise<X>,
  merge: (target: S, overrides: Record<PropertyKey, unknown>) => Record<PropertyKey, unknown>,
): <T extends S>(target: T, options?: O) => (T & X) | Promise<T & X> {
  return <T extends S>(target: T, options?: O) => {
    const apply = (overrides: X): T & X => {
      checkOverrides(overrides);
      return overlay(target, merge(target, overrides)) as T & X;
    };
    const result = factory(target, options as O);
    return result instanceof Promise ? result.then(apply) : apply(result);
  };
}

/** The array extensions of a store (those of the stores it wraps first). */
function arrayExtensionsOf(store: object): ArrayExtension[] {
  return ((store as { arrayExtensions?: ArrayExtension[] }).arrayExtensions ?? []).slice();
}

/**
 * Defines a store extension: `factory(store, options)` returns the members to override or add
 * (sync or async); the extension returns the store with them. `arrayExtensions` in the
 * overrides are applied to every array `open` opens from the store, after those of the stores
 * it wraps.
 * @example
 * ```ts
 * const withLogging = defineStoreExtension((store) => ({
 *   async get(key, options) { console.log(key); return store.get(key, options); },
 * }));
 * ```
 * @category Extending
 */
export function defineStoreExtension<S extends object, O = undefined, X extends object = object>(
  factory: (store: S, options: O) => Promise<X>,
): <T extends S>(store: T, options?: O) => Promise<T & X>;
export function defineStoreExtension<S extends object, O = undefined, X extends object = object>(
  factory: (store: S, options: O) => X,
): <T extends S>(store: T, options?: O) => T & X;
export function defineStoreExtension<S extends object, O, X extends object>(
  factory: (store: S, options: O) => X | Promise<X>,
): <T extends S>(store: T, options?: O) => (T & X) | Promise<T & X> {
  return extension(factory, (store, overrides) => {
    const inner = arrayExtensionsOf(store);
    const own = (overrides as StoreOverrides).arrayExtensions ?? [];
    return inner.length ? { ...overrides, arrayExtensions: [...inner, ...own] } : overrides;
  });
}

/**
 * Defines an array extension: `factory(array, options)` returns the members to override or add
 * (`getChunk` to cache or trace chunks, say); `get` and `set` read chunks through them.
 * @category Extending
 */
export function defineArrayExtension<A extends object, O = undefined, X extends object = object>(
  factory: (array: A, options: O) => Promise<X>,
): <T extends A>(array: T, options?: O) => Promise<T & X>;
export function defineArrayExtension<A extends object, O = undefined, X extends object = object>(
  factory: (array: A, options: O) => X,
): <T extends A>(array: T, options?: O) => T & X;
export function defineArrayExtension<A extends object, O, X extends object>(
  factory: (array: A, options: O) => X | Promise<X>,
): <T extends A>(array: T, options?: O) => (T & X) | Promise<T & X> {
  return extension(factory, (_array, overrides) => overrides);
}

/** Applies extensions in order, each to the result of the one before. */
async function applyAll<T>(value: T, extensions: ((v: T) => T | Promise<T>)[]): Promise<T> {
  let result = value;
  for (const extend of extensions) result = await extend(result);
  return result;
}

/**
 * A store wrapped by store extensions, first to last (the last is outermost).
 * @category Extending
 */
export function extendStore<S extends object>(
  store: S,
  ...extensions: ((store: S) => S | Promise<S>)[]
): Promise<S> {
  return applyAll(store, extensions);
}

/**
 * An array wrapped by array extensions, first to last (the last is outermost); with none, the
 * array itself.
 * @category Extending
 */
export function extendArray<A extends object>(
  array: A,
  ...extensions: ((array: A) => A | Promise<A>)[]
): Promise<A> {
  return applyAll(array, extensions);
}

/** An array opened from a store, with the store's array extensions applied. */
export function applyArrayExtensions<A extends { store: unknown }>(array: A): Promise<A> {
  const store = array.store;
  if (store === null || typeof store !== "object") return Promise.resolve(array);
  return applyAll(array, arrayExtensionsOf(store) as ((a: A) => A | Promise<A>)[]);
}
