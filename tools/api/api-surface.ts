/**
 * The public surface of every `@z` package, computed from the TypeScript sources: for each
 * entry point in a package.json `exports` map, the exported names and their kinds. The API
 * snapshot test compares it with `api/<package>.api.json`, so a change to what users can import
 * shows in review.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

/** The repository root (this file is tools/api/api-surface.ts). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** The folder of the committed snapshots. */
export const SNAPSHOT_DIR = join(REPO_ROOT, "api");

/** What an exported name is; a name that is both a value and a type lists both, joined by `+`. */
export type ExportKind = string;

/** One entry point: its import specifier (with the condition when it has variants) and file. */
export interface EntryPoint {
  /** How users import it, e.g. `@z/codecs/workers`, with ` (node)` for the node variant. */
  readonly label: string;
  /** The source file, relative to the repository root. */
  readonly file: string;
}

/** The surface of one package: for each entry point, its exported names and kinds, sorted. */
export type PackageSurface = Record<string, Record<string, ExportKind>>;

interface PackageJson {
  name: string;
  private?: boolean;
  exports?: Record<string, unknown>;
}

/** The published packages: every folder of packages/ with a package.json. */
export function packageFolders(): string[] {
  const root = join(REPO_ROOT, "packages");
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(root, entry.name))
    .filter((folder) => {
      try {
        readFileSync(join(folder, "package.json"));
        return true;
      } catch {
        return false;
      }
    })
    .sort();
}

/**
 * The entry points of a package: the `source` condition of each `exports` subpath, one per
 * variant when the `source` condition is itself split by further conditions (`node`, `default`).
 */
export function entryPoints(folder: string): EntryPoint[] {
  const pkg = JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as PackageJson;
  const out: EntryPoint[] = [];
  for (const [subpath, target] of Object.entries(pkg.exports ?? {})) {
    const specifier = subpath === "." ? pkg.name : `${pkg.name}/${subpath.replace(/^\.\//, "")}`;
    const source = (target as { source?: unknown }).source;
    if (typeof source === "string") {
      out.push({ label: specifier, file: relative(REPO_ROOT, join(folder, source)) });
    } else if (source && typeof source === "object") {
      for (const [condition, file] of Object.entries(source as Record<string, string>)) {
        const label = condition === "default" ? specifier : `${specifier} (${condition})`;
        out.push({ label, file: relative(REPO_ROOT, join(folder, file)) });
      }
    } else {
      throw new Error(`${pkg.name}: exports["${subpath}"] has no "source" condition`);
    }
  }
  return out;
}

function kindsOf(symbol: ts.Symbol): string[] {
  const f = symbol.flags;
  const kinds: string[] = [];
  if (f & ts.SymbolFlags.Class) kinds.push("class");
  else if (f & ts.SymbolFlags.Function) kinds.push("function");
  else if (f & ts.SymbolFlags.Enum) kinds.push("enum");
  else if (f & ts.SymbolFlags.Variable) kinds.push("const");
  else if (f & ts.SymbolFlags.ValueModule) kinds.push("namespace");
  if (f & ts.SymbolFlags.Interface && !(f & ts.SymbolFlags.Class)) kinds.push("interface");
  if (f & ts.SymbolFlags.TypeAlias) kinds.push("type");
  return kinds.length > 0 ? kinds : ["unknown"];
}

function isDeprecated(symbol: ts.Symbol): boolean {
  return (symbol.declarations ?? []).some((declaration) =>
    ts.getJSDocTags(declaration).some((tag) => tag.tagName.text === "deprecated"),
  );
}

/** A program over the given entry files, resolving `@z/*` through the `source` condition. */
export function createProgram(files: readonly string[]): ts.Program {
  const configPath = join(REPO_ROOT, "tsconfig.json");
  const config = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
      },
    },
  );
  if (!config) throw new Error(`Cannot read ${configPath}`);
  return ts.createProgram({
    rootNames: files.map((file) => join(REPO_ROOT, file)),
    options: { ...config.options, noEmit: true },
  });
}

/** The exported names of one entry file and their kinds (`deprecated` marked), sorted by name. */
export function exportsOf(program: ts.Program, file: string): Record<string, ExportKind> {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(join(REPO_ROOT, file));
  if (!source) throw new Error(`${file} is not in the program`);
  const moduleSymbol = checker.getSymbolAtLocation(source);
  if (!moduleSymbol) return {};
  const result: Record<string, ExportKind> = {};
  const exported = checker
    .getExportsOfModule(moduleSymbol)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const symbol of exported) {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    const deprecated = isDeprecated(symbol) || isDeprecated(target);
    result[symbol.name] = kindsOf(target).join("+") + (deprecated ? " (deprecated)" : "");
  }
  return result;
}

/** The surface of every package, keyed by package folder name. */
export function apiSurfaces(): Map<string, PackageSurface> {
  const entries = new Map(packageFolders().map((folder) => [folder, entryPoints(folder)]));
  const program = createProgram([...entries.values()].flat().map((entry) => entry.file));
  const surfaces = new Map<string, PackageSurface>();
  for (const [folder, points] of entries) {
    const surface: PackageSurface = {};
    for (const point of points) surface[point.label] = exportsOf(program, point.file);
    surfaces.set(folder.split("/").pop() as string, surface);
  }
  return surfaces;
}

/** The snapshot text of one package: stable key order, one export per line. */
export function snapshotText(surface: PackageSurface): string {
  return `${JSON.stringify(surface, null, 2)}\n`;
}
