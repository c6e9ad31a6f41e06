// Code blocks of the Markdown docs (README.md, docs/*.md) as programs that can be type-checked
// and run, so the examples users copy keep working. Shared by examples/test/doc-examples.test.ts
// (type checks, runs against the sources) and check-docs.mjs (runs against the built packages).
import { readdirSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

/** Languages whose blocks are examples; other blocks (sh, json, ...) are left alone. */
const EXAMPLE_LANGUAGES = new Set(["ts", "typescript", "js", "javascript"]);

/**
 * The marker, on the line before a block, of an example that must not run (it needs a browser
 * or a server): `<!-- example: no-run (a reason) -->`. Such blocks are still type-checked.
 */
const NO_RUN = /^<!--\s*example:\s*no-run\b(.*?)-->\s*$/;

/**
 * The TypeScript and JavaScript blocks of a Markdown text, in order, with the line each starts
 * on (1-based) and whether it is marked not to run.
 */
export function codeBlocks(markdown) {
  const lines = markdown.split("\n");
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i]);
    if (!open) continue;
    let end = i + 1;
    while (end < lines.length && !/^```\s*$/.test(lines[end])) end++;
    if (end === lines.length) throw new Error(`Unclosed code block at line ${i + 1}`);
    if (EXAMPLE_LANGUAGES.has(open[1])) {
      const before = i > 0 ? NO_RUN.exec(lines[i - 1].trim()) : null;
      blocks.push({
        line: i + 2,
        code: lines.slice(i + 1, end).join("\n"),
        run: before === null,
        reason: before?.[1].trim() || undefined,
      });
    }
    i = end;
  }
  return blocks;
}

/**
 * One module from a file's blocks, read like a notebook: later blocks use what earlier ones
 * declared. Imports are gathered at the top, named imports of one module merged, so each block
 * can show its own imports. Each block starts on a comment naming its Markdown line.
 */
export function programOf(source, blocks) {
  const named = new Map(); // module -> Set of "name" or "name as alias" (type-only prefixed)
  const other = new Set(); // default and namespace imports, side-effect imports, as written
  const bodies = [];
  for (const block of blocks) {
    const file = ts.createSourceFile("block.ts", block.code, ts.ScriptTarget.Latest, true);
    let body = block.code;
    const imports = file.statements.filter(ts.isImportDeclaration);
    for (const statement of [...imports].reverse()) {
      const from = statement.moduleSpecifier.text;
      const bindings = statement.importClause?.namedBindings;
      if (statement.importClause?.name || !bindings || !ts.isNamedImports(bindings)) {
        other.add(statement.getText());
      } else {
        if (!named.has(from)) named.set(from, new Set());
        const typeOnly = statement.importClause.isTypeOnly ? "type " : "";
        for (const element of bindings.elements) named.get(from).add(typeOnly + element.getText());
      }
      body = body.slice(0, statement.getStart()) + body.slice(statement.getEnd());
    }
    bodies.push(`// ${source}:${block.line}\n${body.trim()}`);
  }
  const header = [...other];
  for (const [from, names] of named) {
    header.push(`import { ${[...names].join(", ")} } from ${JSON.stringify(from)};`);
  }
  return `${header.join("\n")}\n\n${bodies.join("\n\n")}\nexport {};\n`;
}

/**
 * The Markdown files whose examples are checked, relative to the repository root: README.md
 * and every guide under docs/ (sub-folders included), in a stable order.
 */
export function documentedFiles(root) {
  const guides = readdirSync(join(root, "docs"), { recursive: true })
    .map(String)
    .filter((name) => name.endsWith(".md") && !name.startsWith("api"))
    .sort()
    .map((name) => `docs/${name.split("\\").join("/")}`);
  return ["README.md", ...guides];
}
