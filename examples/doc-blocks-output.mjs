// What the programs made of the docs' blocks (doc-blocks.mjs, with `outputRuntime`) print, by
// top-level statement, compared at the end with what the docs claim. Loaded by those programs,
// in the process that runs them: vitest's (sources) or a node of its own (built packages).
import { format } from "node:util";

/**
 * A text as compared: runs of whitespace (line breaks too) as one space, none just inside
 * brackets, none at either end.
 */
export function normalizeOutput(text) {
  return text
    .replace(/\s+/g, " ")
    .replace(/([[{(]) /g, "$1")
    .replace(/ ([\]})])/g, "$1")
    .trim();
}

/**
 * Whether `printed` is what `claimed` says, `…` in a claim standing for any text (the spaces
 * around it included, so that it may stand for nothing).
 */
export function sameOutput(printed, claimed) {
  const parts = normalizeOutput(claimed)
    .split(/ ?… ?/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${parts.join("[\\s\\S]*")}$`).test(normalizeOutput(printed));
}

/**
 * Takes over console.log and console.info to record what each statement prints (`at` says which
 * runs now), until `restore`; `check` throws an Error listing every claim the prints differ from.
 * `expected` is what doc-blocks.mjs gathered: per statement its Markdown line and claims, per
 * output block its line, its text and its statements.
 */
export function captureOutput(source, expected) {
  const printed = expected.statements.map(() => []);
  let current = 0;
  const saved = { log: console.log, info: console.info };
  const record = (...args) => {
    printed[current]?.push(format(...args));
  };
  console.log = record;
  console.info = record;
  return {
    at(statement) {
      current = statement;
    },
    restore() {
      console.log = saved.log;
      console.info = saved.info;
    },
    check() {
      const wrong = [];
      const compare = (line, lines, claimed) => {
        const text = lines.join("\n");
        if (!sameOutput(text, claimed)) {
          const shown = text.trim() === "" ? "(nothing)" : text.replaceAll("\n", "\n    ");
          wrong.push(
            `${source}:${line} says it prints\n    ${claimed.replaceAll("\n", "\n    ") || "(nothing)"}\n  but it printed\n    ${shown}`,
          );
        }
      };
      for (const [index, statement] of expected.statements.entries()) {
        if (statement.claims.length > 0) {
          compare(statement.claimLine, printed[index], statement.claims.join("\n"));
        }
      }
      for (const output of expected.outputs) {
        compare(
          output.line,
          output.statements.flatMap((index) => printed[index]),
          output.text,
        );
      }
      if (wrong.length > 0)
        throw new Error(`Printed output differs from the doc:\n${wrong.join("\n")}`);
    },
  };
}
