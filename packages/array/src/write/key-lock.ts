/**
 * Per-store, per-key serialisation of read-modify-write inside one process.
 *
 * Two `set`s that touch the same chunk (or shard) each read it, change their part and write it
 * back; run at once, the second write would drop the first one's change. Every write of a key
 * therefore runs after the writes of that key already under way, whichever array object (two
 * `openArray` of the same array share nothing else) started them: the queue lives with the
 * store object. Writes of different keys do not wait for each other.
 */

/** The tail of each key's queue of writes, per store object. */
const queues = new WeakMap<object, Map<string, Promise<void>>>();

/**
 * Bumped after every write of a key made through {@link withKeyLock}, per store object: caches
 * of what a key holds (shard indexes, decoded chunks) remember the count they were filled at
 * and drop entries that a later write made stale. Keys share a fixed number of counters (by
 * hash), so the memory stays bounded however many keys are written; a shared counter only
 * costs a cache refill.
 */
const epochs = new WeakMap<object, Uint32Array>();
const EPOCH_SLOTS = 4096;

function slotOf(key: string): number {
  // FNV-1a: cheap and spreads chunk keys that differ in one digit.
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % EPOCH_SLOTS;
}

/**
 * Runs `task` once every earlier task for the same store object and key has settled, and
 * before any later one starts. A failing task does not block the tasks queued after it.
 */
export async function withKeyLock<T>(
  store: object,
  key: string,
  task: () => Promise<T>,
): Promise<T> {
  let byKey = queues.get(store);
  if (byKey === undefined) queues.set(store, (byKey = new Map()));
  const before = byKey.get(key);
  let release!: () => void;
  const mine = new Promise<void>((resolve) => {
    release = resolve;
  });
  byKey.set(key, mine);
  try {
    if (before !== undefined) await before;
    return await task();
  } finally {
    bumpEpoch(store, key);
    release();
    // The last writer in the queue leaves nothing behind, so the map stays as small as the
    // number of keys being written right now.
    if (byKey.get(key) === mine) byKey.delete(key);
  }
}

/**
 * A counter that changes whenever `key` of `store` is written through {@link withKeyLock} (and
 * sometimes when another key is): equal counts mean no such write happened in between.
 */
export function writeEpoch(store: object, key: string): number {
  return ((epochs.get(store)?.[slotOf(key)] ?? 0) + generation) >>> 0;
}

/**
 * Bumped by writes that reach keys without {@link withKeyLock}: deleting the keys of nodes by
 * prefix, copies. Which keys they touch is not known, so every key of every store counts as
 * written (both counters only grow, so their sum changes whenever either does).
 */
let generation = 0;

/** Makes every {@link writeEpoch} change, after writes whose keys are not known one by one. */
export function bumpAllEpochs(): void {
  generation++;
}

function bumpEpoch(store: object, key: string): void {
  let slots = epochs.get(store);
  if (slots === undefined) epochs.set(store, (slots = new Uint32Array(EPOCH_SLOTS)));
  slots[slotOf(key)]++;
}
