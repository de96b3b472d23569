/** How a wait looks again and when it gives up. */
export interface UntilOptions {
  /** How often the condition is looked at again, in ms (10). */
  everyMs?: number;
  /**
   * Give up after this many ms with `timed out waiting for WHAT`; without it, the test's own time limit ends a wait
   * for what never comes (and says less about what it was).
   */
  deadlineMs?: number;
}

/**
 * Waits until `condition` holds (it may be async: a store read, a request), looking again every `everyMs`: for what
 * a command running in process or a program under test does in its own time (a file written, a line logged, an
 * event delivered). `what` names it in the error when a deadline passes. An event the test can wait for directly (a
 * promise, a line) is better still: this is for state only a look can tell.
 */
export async function until(
  condition: () => boolean | Promise<boolean>,
  what = 'the condition',
  { everyMs = 10, deadlineMs }: UntilOptions = {},
): Promise<void> {
  const deadline = deadlineMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + deadlineMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** `until` at one pace and deadline, for a file whose many waits share them (a slow store, a spawned process). */
export function untilWith(
  options: UntilOptions,
): (condition: () => boolean | Promise<boolean>, what?: string) => Promise<void> {
  return (condition, what) => until(condition, what, options);
}
