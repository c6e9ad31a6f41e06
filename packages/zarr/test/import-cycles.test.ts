import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// Every value import of every package's sources, as a graph per package: a cycle there means
// some module runs before a module it needs has finished loading (a class read as undefined
// at load time, an `instanceof` that throws). `import type` edges vanish at compile time and
// are fine. Imports of other @z packages make a second graph, of packages.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const PACKAGES = join(ROOT, "packages");

/** Every `.ts` file below a folder (declaration files left out). */
function sourceFiles(folder: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (name.endsWith(".ts") && !name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

/** Whether every named binding of an import or export clause is `type`-only. */
function allTypeOnly(elements: readonly (ts.ImportSpecifier | ts.ExportSpecifier)[]): boolean {
  return elements.length > 0 && elements.every((e) => e.isTypeOnly);
}

/**
 * The module specifiers a file imports or re-exports as values (static imports only: a
 * dynamic `import()` runs after loading and cannot make a load-time cycle).
 */
export function valueImports(text: string, fileName = "module.ts"): string[] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  const out: string[] = [];
  for (const statement of file.statements) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      if (clause?.isTypeOnly) continue;
      const bindings = clause?.namedBindings;
      if (
        clause &&
        !clause.name &&
        bindings &&
        ts.isNamedImports(bindings) &&
        allTypeOnly(bindings.elements)
      )
        continue;
      out.push((statement.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier) {
      if (statement.isTypeOnly) continue;
      const clause = statement.exportClause;
      if (clause && ts.isNamedExports(clause) && allTypeOnly(clause.elements)) continue;
      out.push((statement.moduleSpecifier as ts.StringLiteral).text);
    }
  }
  return out;
}

/** The source file a relative specifier names (`./x.js` -> `x.ts`, `./dir/index.js`). */
function resolveRelative(from: string, specifier: string, files: Set<string>): string | undefined {
  const base = resolve(dirname(from), specifier);
  const candidates = [
    base.replace(/\.js$/, ".ts"),
    base.replace(/\.mjs$/, ".mts"),
    `${base}.ts`,
    join(base, "index.ts"),
  ];
  return candidates.find((c) => files.has(c));
}

/** The strongly connected components of a graph with more than one node, or a self edge. */
function cycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component);
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** One concrete cycle through a component, `a -> b -> ... -> a`, for the failure message. */
function describeCycle(graph: Map<string, string[]>, component: string[]): string {
  const inside = new Set(component);
  const start = [...component].sort()[0];
  const path = [start];
  const seen = new Set([start]);
  const walk = (node: string): boolean => {
    for (const next of graph.get(node) ?? []) {
      if (next === start) return true;
      if (!inside.has(next) || seen.has(next)) continue;
      seen.add(next);
      path.push(next);
      if (walk(next)) return true;
      path.pop();
    }
    return false;
  };
  walk(start);
  const cycle = [...path, start].join(" -> ");
  const others = component.filter((m) => !path.includes(m)).sort();
  return others.length === 0 ? cycle : `${cycle} (also in this cycle: ${others.join(", ")})`;
}

function packageNames(): string[] {
  return readdirSync(PACKAGES).filter((name) => {
    try {
      return statSync(join(PACKAGES, name, "src")).isDirectory();
    } catch {
      return false;
    }
  });
}

/** The module graph of one package's sources, paths relative to its `src`. */
function moduleGraph(pkg: string): Map<string, string[]> {
  const src = join(PACKAGES, pkg, "src");
  const files = new Set(sourceFiles(src));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const edges: string[] = [];
    for (const specifier of valueImports(readFileSync(file, "utf8"), file)) {
      if (!specifier.startsWith(".")) continue;
      const target = resolveRelative(file, specifier, files);
      if (target) edges.push(relative(src, target));
    }
    graph.set(relative(src, file), edges);
  }
  return graph;
}

/** The graph of @z packages, an edge for every value import of another one. */
function packageGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const pkg of packageNames()) {
    const { name } = JSON.parse(readFileSync(join(PACKAGES, pkg, "package.json"), "utf8"));
    const edges = new Set<string>();
    for (const file of sourceFiles(join(PACKAGES, pkg, "src"))) {
      for (const specifier of valueImports(readFileSync(file, "utf8"), file)) {
        const match = /^(@z\/[^/]+)/.exec(specifier);
        if (match && match[1] !== name) edges.add(match[1]);
      }
    }
    graph.set(name, [...edges].sort());
  }
  return graph;
}

describe("value imports", () => {
  it("tells value imports from type-only ones", () => {
    const text = [
      'import type { A } from "./a.js";',
      'import { type B, type C } from "./b.js";',
      'import { type D, e } from "./d.js";',
      'import F, { type G } from "./f.js";',
      'import * as h from "./h.js";',
      'import "./side-effect.js";',
      'export type { I } from "./i.js";',
      'export { type J } from "./j.js";',
      'export { k } from "./k.js";',
      'export * from "./l.js";',
      'export * as m from "./m.js";',
      'const n = await import("./n.js");',
    ].join("\n");
    expect(valueImports(text)).toEqual([
      "./d.js",
      "./f.js",
      "./h.js",
      "./side-effect.js",
      "./k.js",
      "./l.js",
      "./m.js",
    ]);
  });

  it("finds a cycle and describes it", () => {
    const graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts", "d.ts"]],
      ["d.ts", []],
      ["e.ts", ["e.ts"]],
    ]);
    const found = cycles(graph).map((c) => describeCycle(graph, c));
    expect(found.sort()).toEqual(["a.ts -> b.ts -> c.ts -> a.ts", "e.ts -> e.ts"]);
    expect(
      cycles(
        new Map([
          ["a.ts", ["b.ts"]],
          ["b.ts", []],
        ]),
      ),
    ).toEqual([]);
  });
});

describe("import cycles", () => {
  it.each(packageNames())("packages/%s/src has no value-import cycle", (pkg) => {
    const graph = moduleGraph(pkg);
    expect(graph.size).toBeGreaterThan(0);
    const found = cycles(graph).map((c) => describeCycle(graph, c));
    expect(found, `value-import cycles in packages/${pkg}/src`).toEqual([]);
  });

  it("the @z packages import each other without a cycle", () => {
    const graph = packageGraph();
    const found = cycles(graph).map((c) => describeCycle(graph, c));
    expect(found).toEqual([]);
  });
});
