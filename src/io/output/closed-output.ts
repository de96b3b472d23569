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

/** Streams whose failed writes a command is saying itself (a bulk run's summary on stdout, before its closing line). */
const failuresClaimed = new WeakSet<object>();

/**
 * Writes `text` and waits until it is written, its failure (a full disk, a closed pipe) left to the caller instead of
 * ended on by the process: resolves to that failure, or undefined once written.
 */
export function writeClaimingFailure(
  stream: NodeJS.WritableStream,
  text: string,
): Promise<NodeJS.ErrnoException | undefined> {
  failuresClaimed.add(stream);
  return new Promise((resolve) => {
    stream.write(text, (error) => {
      // Kept claimed on failure: the stream's 'error' event comes after this callback, and the stream is done.
      if (!error) failuresClaimed.delete(stream);
      resolve(error ?? undefined);
    });
  });
}

/**
 * Takes on every failed write of `stream` until released: a command that can put the output back as it was (orders
 * poll cutting a file back to its last whole order) says the failure itself, with what it did. Returns the release.
 */
export function claimFailedWrites(stream: object): () => void {
  failuresClaimed.add(stream);
  return () => failuresClaimed.delete(stream);
}

/** True once a command has taken on the failed writes of `stream` (writeClaimingFailure, claimFailedWrites). */
export function isFailedWriteClaimed(stream: object): boolean {
  return failuresClaimed.has(stream);
}

/** True for the error of a write to a pipe whose reader has gone. */
export function isClosedPipe(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'EPIPE';
}
