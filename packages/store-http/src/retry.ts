/**
 * The delay before retry number `attempt` (0 for the first retry): "full jitter" exponential
 * backoff, a random time between 0 and `min(maxDelay, baseDelay * 2^attempt)`, so clients that
 * failed together do not all come back at the same moment.
 */
export function backoffDelay(
  attempt: number,
  baseDelay: number,
  maxDelay: number,
  random: () => number = Math.random,
): number {
  const cap = Math.min(maxDelay, baseDelay * 2 ** attempt);
  return Math.floor(random() * cap);
}

/** The signal of one request: the caller's, plus the store's per-request timeout. */
export interface AttemptSignal {
  /** Aborts when the caller aborts or the time is up. */
  signal: AbortSignal | undefined;
  /** Whether the timeout (not the caller) aborted the request. */
  timedOut(): boolean;
  /** Stops the timer and forgets the caller's signal. */
  dispose(): void;
}
