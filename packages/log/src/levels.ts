/** How much a logger reports, from most to least: `debug` ⊃ `info` ⊃ `warn`; `off` reports nothing. */
export type LogLevel = "debug" | "info" | "warn";

/** A level a namespace can be set to: a {@link LogLevel} or `off`. */
export type LogThreshold = LogLevel | "off";

/** Severity ranks: a message is reported when its rank is at least the namespace's threshold. */
export const LEVEL_RANK: Readonly<Record<LogThreshold, number>> = {
  debug: 10,
  info: 20,
  warn: 30,
  off: 100,
};

/** Whether a string names a threshold (`debug`, `info`, `warn` or `off`). */
export function isLogThreshold(value: string): value is LogThreshold {
  return Object.hasOwn(LEVEL_RANK, value);
}
