/** The message of anything thrown, for wrapping a library's error. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
