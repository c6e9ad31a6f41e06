import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { tempDir } from "@z/test-utils";
import { InvariantError } from "./harness.js";

/**
 * A temporary folder with the store's root two levels down and sentinel files around it, to
 * prove that no operation on the store touched anything outside its root: `check()` compares
 * everything outside the root (names, sizes, modification times) with the first snapshot.
 */
export class WatchedFolder {
  /** The temporary folder. */
  readonly dir: string;
  /** The store's root inside it (`<dir>/a/b/root`). */
  readonly root: string;
  /** The text every sentinel file starts with: a read returning it read outside the root. */
  readonly marker = "SENTINEL-outside-the-store";
  private readonly remove: () => void;
  private readonly before: string;

  constructor() {
    const { dir, remove } = tempDir("z-fuzz-keys-");
    this.dir = dir;
    this.remove = remove;
    this.root = path.join(dir, "a", "b", "root");
    for (const folder of [dir, path.join(dir, "a"), path.join(dir, "a", "b")]) {
      mkdirSync(folder, { recursive: true });
      writeFileSync(path.join(folder, "sentinel.txt"), `${this.marker} ${folder}`);
      writeFileSync(path.join(folder, "zarr.json"), `${this.marker}`);
    }
    mkdirSync(path.join(dir, "a", "sibling"), { recursive: true });
    writeFileSync(path.join(dir, "a", "sibling", "x"), this.marker);
    this.before = this.snapshot();
  }

  /** Every file and folder outside the root, with size and modification time. */
  private snapshot(): string {
    const out: string[] = [];
    const walk = (folder: string) => {
      for (const name of readdirSync(folder).sort()) {
        const full = path.join(folder, name);
        if (full === this.root) continue;
        const stat = statSync(full);
        // Folders by name only: creating the root changes its parent's modification time.
        const rel = path.relative(this.dir, full);
        out.push(stat.isDirectory() ? `${rel}/` : `${rel} ${stat.size} ${stat.mtimeMs}`);
        if (stat.isDirectory()) walk(full);
      }
    };
    walk(this.dir);
    return out.join("\n");
  }

  /** @throws InvariantError when anything outside the root changed */
  check(): void {
    const now = this.snapshot();
    if (now !== this.before) {
      throw new InvariantError(
        `Files outside the store's root changed:\nbefore:\n${this.before}\nafter:\n${now}`,
      );
    }
  }

  /** @throws InvariantError when bytes read from the store are a sentinel file's */
  checkRead(bytes: Uint8Array | undefined): void {
    if (bytes && Buffer.from(bytes).toString("latin1").includes(this.marker)) {
      throw new InvariantError("A read returned a file from outside the store's root");
    }
  }

  /** Empties the root (between cases); `create` makes it again, empty. */
  clearRoot(create = false): void {
    rmSync(this.root, { recursive: true, force: true });
    if (create) mkdirSync(this.root);
  }

  /** Removes the folder. */
  dispose(): void {
    this.remove();
  }
}
