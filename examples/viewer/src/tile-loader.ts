import { type Tile, tileKey } from "./tiles.js";

/** What the loader has done since the page opened (the test reads it). */
export interface LoaderStats {
  /** Tile reads started. */
  requested: number;
  /** Tile reads that finished. */
  loaded: number;
  /** Tile reads aborted because their tile left the view (or the plane changed). */
  aborted: number;
  /** Tile reads that failed. */
  failed: number;
  /** Milliseconds the finished reads took, summed (fetching and decoding, or a cache hit). */
  readMs: number;
}

/** A tile and what its read gave. */
export interface Loaded<T> {
  tile: Tile;
  value: T;
}

/**
 * Keeps the tiles one plane's view needs: `want` starts the reads of the tiles not yet held,
 * aborts the reads of tiles no longer wanted (their `AbortSignal` reaches the store's fetch),
 * and lets go of loaded tiles that left. It holds only what the view needs; a cache below
 * (the arrays' chunk cache) is what makes coming back cheap.
 */
export class TileLoader<T> {
  readonly stats: LoaderStats = { requested: 0, loaded: 0, aborted: 0, failed: 0, readMs: 0 };
  /** The loaded tiles of the current plane, by {@link tileKey}. */
  readonly loaded = new Map<string, Loaded<T>>();
  readonly #inFlight = new Map<string, AbortController>();
  #plane = "";
  #waiting: (() => void)[] = [];

  /**
   * @param read reads one tile of a plane
   * @param onChange called when a tile arrives or a read fails (the caller redraws)
   */
  constructor(
    private readonly read: (plane: string, tile: Tile, signal: AbortSignal) => Promise<T>,
    private readonly onChange: (error?: unknown) => void,
  ) {}

  /** Reads in flight. */
  get pending(): number {
    return this.#inFlight.size;
  }

  /** The plane whose tiles are held (an opaque name: level, axes and indices). */
  get plane(): string {
    return this.#plane;
  }

  /**
   * Wants exactly `tiles` of `plane`: reads the missing ones, aborts and drops the others.
   * Returns the loaded tiles of the plane held before, when the plane changed (for drawing
   * under the new one while it loads).
   */
  want(plane: string, tiles: Tile[]): Loaded<T>[] | undefined {
    let previous: Loaded<T>[] | undefined;
    if (plane !== this.#plane) {
      previous = [...this.loaded.values()];
      this.loaded.clear();
      this.#plane = plane;
    }
    const wanted = new Set(tiles.map(tileKey));
    for (const [key, controller] of this.#inFlight) {
      if (wanted.has(key) && !previous) continue;
      controller.abort();
      this.#inFlight.delete(key);
      this.stats.aborted++;
    }
    for (const key of this.loaded.keys()) if (!wanted.has(key)) this.loaded.delete(key);
    for (const tile of tiles) {
      const key = tileKey(tile);
      if (this.loaded.has(key) || this.#inFlight.has(key)) continue;
      this.#start(plane, key, tile);
    }
    this.#settle();
    return previous;
  }

  /** Resolves when no read is in flight. */
  idle(): Promise<void> {
    if (this.#inFlight.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  #start(plane: string, key: string, tile: Tile): void {
    const controller = new AbortController();
    this.#inFlight.set(key, controller);
    this.stats.requested++;
    const started = performance.now();
    const current = () => this.#inFlight.get(key) === controller;
    this.read(plane, tile, controller.signal).then(
      (value) => {
        if (!current()) return;
        this.#inFlight.delete(key);
        this.stats.loaded++;
        this.stats.readMs += performance.now() - started;
        this.loaded.set(key, { tile, value });
        this.onChange();
        this.#settle();
      },
      (error: unknown) => {
        if (!current()) return;
        this.#inFlight.delete(key);
        this.stats.failed++;
        this.onChange(error);
        this.#settle();
      },
    );
  }

  #settle(): void {
    if (this.#inFlight.size > 0) return;
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const resolve of waiting) resolve();
  }
}
