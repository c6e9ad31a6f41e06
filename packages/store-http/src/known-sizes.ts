/**
 * The sizes of values this store has seen (from `Content-Range` totals and HEAD answers), so that
 * a later suffix read (`bytes=-n`) can be sent as an explicit range (`bytes=a-b`) instead: a
 * single explicit range is a CORS-safelisted header, so cross-origin browsers send it without a
 * preflight request, whereas a suffix range always costs one. Bounded: the oldest entries go first.
 */
export class KnownSizes {
  readonly #sizes = new Map<string, number>();

  constructor(readonly capacity = 4096) {}

  /** The size last seen for a key, if any. */
  get(key: string): number | undefined {
    return this.#sizes.get(key);
  }

  /** Remembers a key's size (the newest answer wins). */
  remember(key: string, size: number): void {
    this.#sizes.delete(key);
    this.#sizes.set(key, size);
    if (this.#sizes.size > this.capacity) {
      const oldest = this.#sizes.keys().next().value as string;
      this.#sizes.delete(oldest);
    }
  }

  /** Forgets a key's size (after a write or delete through this store). */
  forget(key: string): void {
    this.#sizes.delete(key);
  }
}
