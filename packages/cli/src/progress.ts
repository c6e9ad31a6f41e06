import type { Output } from "./output.js";

/**
 * A progress bar on standard error, drawn only when it is a terminal (so piped output and
 * logs stay clean). Redraws at most every 100 ms.
 */
export class ProgressBar {
  private last = 0;
  constructor(
    private readonly output: Output,
    private readonly label: string,
  ) {}

  /** Shows `done` of `total`. */
  update(done: number, total: number): void {
    if (!this.output.isTTY) return;
    const now = Date.now();
    if (done < total && now - this.last < 100) return;
    this.last = now;
    const width = 30;
    const filled = total === 0 ? width : Math.round((done / total) * width);
    const percent = total === 0 ? 100 : Math.floor((done / total) * 100);
    this.output.err(
      `\r${this.label} [${"#".repeat(filled)}${".".repeat(width - filled)}] ${percent}% (${done}/${total})`,
    );
  }

  /** Ends the bar's line. */
  finish(): void {
    if (this.output.isTTY) this.output.err("\n");
  }
}
