/** Where a command writes: standard output, standard error, and whether stderr is a terminal. */
export interface Output {
  /** Writes to standard output. */
  out(text: string): void;
  /** Writes to standard error. */
  err(text: string): void;
  /** Whether standard error is a terminal (progress bars are drawn only then). */
  isTTY: boolean;
}

/** The process's own output streams. */
export const processOutput: Output = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  isTTY: Boolean(process.stderr.isTTY),
};

/** An output that collects what is written (for tests and embedding). */
export function bufferedOutput(): Output & { stdout: string; stderr: string } {
  const buffer = {
    stdout: "",
    stderr: "",
    isTTY: false,
    out(text: string) {
      buffer.stdout += text;
    },
    err(text: string) {
      buffer.stderr += text;
    },
  };
  return buffer;
}
