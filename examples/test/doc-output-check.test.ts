import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { inspect } from "node:util";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { codeBlocks, outputProblems, programOf } from "../doc-blocks.mjs";
import { normalizeOutput, sameOutput } from "../doc-blocks-output.mjs";

// The check of what the docs say their code prints: a wrong claim must fail the doc's run,
// naming the Markdown line, and a right one pass, whatever Node's whitespace.

const root = join(import.meta.dirname, "..", "..");
const programs = join(root, ".tmp", `doc-output-check-${process.pid}`);
mkdirSync(programs, { recursive: true });
afterAll(() => rmSync(programs, { recursive: true, force: true }));

let count = 0;
/** Runs a Markdown text's blocks as doc-examples.test.ts runs a doc's. */
async function runDoc(markdown: string): Promise<void> {
  const blocks = codeBlocks(markdown);
  const program = programOf("doc.md", blocks, {
    outputRuntime: "../../examples/doc-blocks-output.mjs",
  });
  const file = join(programs, `doc-${count++}.ts`);
  writeFileSync(file, program);
  await import(file);
}

const ts = (code: string) => `\`\`\`ts\n${code}\n\`\`\`\n`;

describe("claims of printed output", () => {
  it("pass when the statement prints what its `// →` says, Node's spacing or not", async () => {
    await runDoc(
      ts(
        [
          "const a = Int32Array.of(1, 2);",
          "console.log(a, [3, 4], { b: 'c' }); // → Int32Array(2) [1, 2] [3, 4] {b: 'c'}",
          "console.log(Array.from({ length: 30 }, (_, i) => i)); // → [0, 1, 2, …, 29]",
        ].join("\n"),
      ),
    );
  });

  it("fail naming the doc's line when a claim is wrong", async () => {
    const doc = `# A guide\n\n${ts("const x = 2;\nconsole.log(x * 2); // → 5")}`;
    await expect(runDoc(doc)).rejects.toThrow(/doc\.md:5 says it prints\s+5\s+but it printed\s+4/);
  });

  it("fail when a statement prints less or more than claimed", async () => {
    await expect(runDoc(ts("console.log(1); // → 1\n// → 2"))).rejects.toThrow(/doc\.md:2/);
    await expect(runDoc(ts("console.log('1\\n2'); // → 1"))).rejects.toThrow(/printed\s+1\s+2/);
    await expect(runDoc(ts("const y = 1; // → 1"))).rejects.toThrow(/\(nothing\)/);
  });

  it("take a loop's prints in order, from claims below the line inside its body", async () => {
    const loop =
      "for (const i of [1, 2, 3]) {\n  console.log(i * 10); // → 10\n  // → 20\n  // → 30\n}";
    await runDoc(ts(loop));
    await expect(runDoc(ts(loop.replace("// → 20", "// → 30\n  // → 20")))).rejects.toThrow(
      /doc\.md:3 says it prints\s+10\s+30\s+20\s+30/,
    );
  });

  it("check an output block against everything its block prints, and only that block", async () => {
    const printing = ts("console.log('a');\nfor (const n of [1, 2]) console.log(n);");
    await runDoc(`${printing}\n\`\`\`text\na\n1\n2\n\`\`\`\n\n${ts("console.log('later');")}`);
    await expect(runDoc(`${printing}\n\`\`\`text\na\n1\n\`\`\`\n`)).rejects.toThrow(
      /doc\.md:7 says it prints\s+a\s+1\s+but it printed\s+a\s+1\s+2/,
    );
  });

  it("fail the program with its own error when an example throws, output restored", async () => {
    const log = console.log;
    await expect(
      runDoc(ts("console.log(1); // → 1\nthrow new RangeError('boom');")),
    ).rejects.toThrow(RangeError);
    expect(console.log).toBe(log);
  });
});

describe("outputProblems", () => {
  it("refuses remarks on printing lines and `// prints` comments, which would go unchecked", () => {
    const blocks = codeBlocks(
      ts("console.log(1); // one\nconsole.log(2); // → 2\nconst z = 3; // a remark\n// prints 3"),
    );
    expect(outputProblems("doc.md", blocks)).toEqual([
      expect.stringMatching(/^doc\.md:2: .*\/\/ one$/),
      expect.stringMatching(/^doc\.md:5: .*\/\/ prints 3$/),
    ]);
  });

  it("refuses claims and output blocks on blocks that do not run", () => {
    const markdown = `<!-- example: no-run (a server) -->\n${ts("console.log(1); // → 1")}\n\`\`\`text\n1\n\`\`\`\n`;
    expect(outputProblems("doc.md", codeBlocks(markdown))).toEqual([
      'doc.md:3: a "// →" claim in a block that does not run',
      "doc.md:7: an output block after a block that does not run",
    ]);
  });

  it("does not take `// →` inside a string for a claim", () => {
    const blocks = codeBlocks(ts('console.log("// → not a claim");'));
    expect(outputProblems("doc.md", blocks)).toEqual([]);
    expect(programOf("doc.md", blocks, { outputRuntime: "x" })).toContain('"claims":[]');
  });
});

describe("sameOutput", () => {
  const text = fc.string({
    unit: fc.constantFrom("a", "1", "[", "]", "{", "}", "'", ",", " ", "\n"),
  });

  it("matches a text however its whitespace is laid out", () => {
    fc.assert(
      fc.property(text, fc.array(fc.constantFrom(" ", "  ", "\n", "\n  ")), (printed, spaces) => {
        let i = 0;
        const relaid = printed.replace(/\s+/g, () => spaces[i++] ?? " ");
        expect(sameOutput(printed, relaid)).toBe(true);
        expect(sameOutput(printed, ` ${printed}\n`)).toBe(true);
      }),
    );
  });

  it("never matches when a character other than whitespace differs (no `…`)", () => {
    fc.assert(
      fc.property(text, fc.nat(), fc.constantFrom("b", "2", "x"), (printed, at, other) => {
        const positions = [...printed].flatMap((c, i) => (/\s/.test(c) ? [] : [i]));
        fc.pre(positions.length > 0);
        const i = positions[at % positions.length];
        const changed = printed.slice(0, i) + other + printed.slice(i + 1);
        expect(sameOutput(printed, changed)).toBe(false);
      }),
    );
  });

  it("lets `…` stand for any text, and nothing else", () => {
    fc.assert(
      fc.property(text, text, text, (before, hidden, after) => {
        expect(sameOutput(before + hidden + after, `${before}…${after}`)).toBe(true);
      }),
    );
    expect(sameOutput("a.b", "a…c")).toBe(false);
    expect(sameOutput("a+b", "a+b")).toBe(true); // regular expression characters are literal
    expect(sameOutput("(ab)", "(a.)")).toBe(false);
  });

  it("compares Node's multi-line output with the one-line form a doc shows", () => {
    const printed = inspect(Float32Array.from({ length: 9 }, (_, i) => i / 2));
    expect(printed).toContain("\n");
    expect(normalizeOutput(printed)).toBe("Float32Array(9) [0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4]");
  });
});
