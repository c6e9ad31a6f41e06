import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { codeBlocks, documentedFiles, outputProblems, programOf } from "../doc-blocks.mjs";

// The TypeScript blocks of README.md and the guides in docs/ are programs: every file's blocks,
// in order, are type-checked against the workspace packages (their sources) and the blocks not
// marked `<!-- example: no-run -->` are run, each file in a fresh temporary folder, and print
// what the doc says they print (`// →` claims and output blocks, see examples/check-docs.mjs).

const root = join(import.meta.dirname, "..", "..");
const documents = documentedFiles(root);
// Inside the repository (.tmp/ is ignored by git) so that `@z/...` imports resolve to the
// workspace packages, and vitest transforms the TypeScript.
const programs = join(root, ".tmp", `doc-examples-${process.pid}`);
mkdirSync(programs, { recursive: true });
afterAll(() => rmSync(programs, { recursive: true, force: true }));

function programFile(document: string, runnableOnly: boolean): string {
  const blocks = codeBlocks(readFileSync(join(root, document), "utf8")).filter(
    (block) => block.run || !runnableOnly,
  );
  const file = join(programs, `${document.replaceAll("/", "_")}${runnableOnly ? ".run" : ""}.ts`);
  // The programs that run check their output; their folder is two below the root.
  const outputRuntime = runnableOnly ? "../../examples/doc-blocks-output.mjs" : undefined;
  writeFileSync(file, programOf(document, blocks, { outputRuntime }));
  return file;
}

describe("the examples in the docs", () => {
  it("every document with examples has some, and the no-run markers are few", () => {
    const blocks = documents.map((d) => codeBlocks(readFileSync(join(root, d), "utf8")));
    expect(blocks[0].length).toBeGreaterThan(2); // the README's quick start
    const all = blocks.flat();
    expect(all.filter((b) => !b.run).length).toBeLessThan(all.length / 4);
    for (const block of all.filter((b) => !b.run)) expect(block.reason).toBeTruthy();
  });

  it("claim what they print only in ways that are checked", () => {
    const problems = documents.flatMap((d) =>
      outputProblems(d, codeBlocks(readFileSync(join(root, d), "utf8"))),
    );
    expect(problems).toEqual([]);
    const claims = documents.map(
      (d) => readFileSync(join(root, d), "utf8").split("// →").length - 1,
    );
    expect(claims.reduce((a, b) => a + b)).toBeGreaterThan(40); // the guides do show outputs
  });

  it("type-check against the workspace packages", () => {
    const files = documents.map((document) => programFile(document, false));
    const config = ts.getParsedCommandLineOfConfigFile(
      join(root, "tsconfig.json"),
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => expect.fail(String(d.messageText)) },
    );
    if (!config) throw new Error("tsconfig.json did not parse");
    const program = ts.createProgram(files, { ...config.options, noEmit: true });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file && files.includes(d.file.fileName))
      .map((d) => {
        const file = d.file as ts.SourceFile;
        const { line } = file.getLineAndCharacterOfPosition(d.start ?? 0);
        const text = file.text.split("\n");
        // The nearest "// <document>:<line>" comment above says which block this is.
        const origin = text
          .slice(0, line + 1)
          .reverse()
          .find((l) => /^\/\/ .+\.md:\d+$/.test(l));
        return `${origin?.slice(3)} (+${line}): ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}\n    ${text[line].trim()}`;
      });
    expect(problems).toEqual([]);
  }, 180_000);

  for (const document of documents) {
    it(`${document} runs and prints what it says`, async () => {
      const file = programFile(document, true);
      const cwd = process.cwd();
      const folder = mkdtempSync(join(tmpdir(), "z-doc-example-"));
      process.chdir(folder);
      try {
        await import(file);
      } finally {
        process.chdir(cwd);
        rmSync(folder, { recursive: true, force: true });
      }
    });
  }
});
