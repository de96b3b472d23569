/**
 * A reader that stops early (`| head`) closes the pipe: most commands then just end (the process's EPIPE handler in
 * src/cli/main.ts), but one whose output moves a cursor must say what it wrote first. Such a command claims the
 * stream; the process then leaves the EPIPE to it.
 */
const claimed = new WeakSet<object>();

/** Says that `stream`'s EPIPE is handled by the command writing to it; returns the release. */
export function claimClosedOutput(stream: object): () => void {
  claimed.add(stream);
  return () => claimed.delete(stream);
}

const exitCodes = new WeakMap<object, number>();

/**
 * The exit code a closed pipe on `stream` ends the process with, from what the command has already found: a
 * `validate` that printed a problem knows its file is invalid (65), though its reader stopped it before the end.
 */
export function exitOnClosedOutput(stream: object, code: number): void {
  exitCodes.set(stream, code);
}

/** The exit code set by exitOnClosedOutput for `stream`, if any. */
export function closedOutputExitCode(stream: object): number | undefined {
  return exitCodes.get(stream);
}

/** True while a command handles `stream`'s EPIPE itself. */
export function isClosedOutputClaimed(stream: object): boolean {
  return claimed.has(stream);
}

/** True for the error of a write to a pipe whose reader has gone. */
export function isClosedPipe(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'EPIPE';
}
