/** A text as compared: whitespace runs as one space, none inside brackets or at the ends. */
export function normalizeOutput(text: string): string;

/** Whether `printed` is what `claimed` says, `…` in a claim standing for any text (or none). */
export function sameOutput(printed: string, claimed: string): boolean;

/** What doc-blocks.mjs gathers for a program: per statement its claims, per output block its text. */
export interface ExpectedOutput {
  statements: { line: number; claimLine: number | undefined; claims: string[] }[];
  outputs: { line: number; text: string; statements: number[] }[];
}

/** Records what each statement prints (console.log, console.info) until `restore`. */
export function captureOutput(
  source: string,
  expected: ExpectedOutput,
): { at(statement: number): void; restore(): void; check(): void };
